/**
 * Admission lanes: heavy statements never take the last slot, a light statement is not held
 * behind heavy ones waiting for a heavy slot, and a shape is light only once its runs were fast.
 */
import { expect } from 'chai';
import { ServiceUnavailableError } from '../../plugin/errors.js';
import { AdmissionQueue } from '../../plugin/sql/admission.js';
import { HEAVY_STATEMENT_MS, STALLING_STATEMENT_MS, StatementCosts, TINY_STATEMENT_MS } from '../../plugin/sql/statement-costs.js';

const later = () => Date.now() + 10_000;

describe('admission lanes', () => {
  it('keeps one slot for light statements while heavy ones wait', async () => {
    const queue = new AdmissionQueue(3, 100);
    const heavy = await Promise.all([queue.acquire(later(), true), queue.acquire(later(), true)]);
    let thirdHeavyStarted = false;
    const thirdHeavy = queue.acquire(later(), true).then((release) => {
      thirdHeavyStarted = true;
      return release;
    });
    const light = await queue.acquire(later(), false);
    expect(thirdHeavyStarted).to.equal(false);
    light();
    await Promise.resolve();
    expect(thirdHeavyStarted).to.equal(false);
    heavy[0]!();
    (await thirdHeavy)();
    expect(thirdHeavyStarted).to.equal(true);
    heavy[1]!();
  });

  it('lets a light statement pass heavy ones queued for a heavy slot, and keeps arrival order otherwise', async () => {
    const queue = new AdmissionQueue(2, 100);
    const heavy = await queue.acquire(later(), true);
    const lightRunning = await queue.acquire(later(), false);
    const order: string[] = [];
    const waiting = [
      queue.acquire(later(), true).then((release) => (order.push('heavy'), release)),
      queue.acquire(later(), false).then((release) => (order.push('light'), release)),
    ];
    lightRunning();
    const light = await waiting[1]!;
    expect(order).to.deep.equal(['light']);
    light();
    heavy();
    (await waiting[0]!)();
    expect(order).to.deep.equal(['light', 'heavy']);
  });

  it('takes a shape for heavy until a run of it was fast, and judges it by its fastest recent run', () => {
    const costs = new StatementCosts();
    expect(costs.isHeavy('SELECT 1')).to.equal(true);
    costs.record('SELECT 1', 2);
    expect(costs.isHeavy('SELECT 1')).to.equal(false);
    // Slowed down by busy neighbours, it stays light.
    costs.record('SELECT 1', 5 * HEAVY_STATEMENT_MS);
    expect(costs.isHeavy('SELECT 1')).to.equal(false);
    for (let run = 0; run < 8; run += 1) costs.record('SELECT big', 10 * HEAVY_STATEMENT_MS);
    expect(costs.isHeavy('SELECT big')).to.equal(true);
  });
});

/** Resolves once the microtasks queued so far have run (admitted waiters have been told). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A waiting acquire whose admission (or refusal) is noted in `order` under `name`. */
function track(order: string[], name: string, acquired: Promise<() => void>): Promise<(() => void) | Error> {
  return acquired.then(
    (release) => (order.push(name), release),
    (error: Error) => (order.push(`${name} refused`), error),
  );
}

describe('admission: heavy slots shared per caller', () => {
  it('gives a caller alone every heavy slot, in its order of arrival', async () => {
    const queue = new AdmissionQueue(3, 100);
    const held = await Promise.all([queue.acquire(later(), true, 'a'), queue.acquire(later(), true, 'a')]);
    const order: string[] = [];
    const waiting = [1, 2, 3].map((n) => track(order, `a${n}`, queue.acquire(later(), true, 'a')));
    held[0]!();
    await settled();
    expect(order).to.deep.equal(['a1']);
    held[1]!();
    ((await waiting[0]!) as () => void)();
    await settled();
    expect(order).to.deep.equal(['a1', 'a2', 'a3']);
    for (const next of waiting.slice(1)) ((await next) as () => void)();
  });

  it("gives the next heavy slot to a caller that waits behind another caller's flood", async () => {
    const queue = new AdmissionQueue(3, 100);
    const held = await Promise.all([queue.acquire(later(), true, 'a'), queue.acquire(later(), true, 'a')]);
    const order: string[] = [];
    const flood = [1, 2, 3, 4].map((n) => track(order, `a${n}`, queue.acquire(later(), true, 'a')));
    const other = track(order, 'b', queue.acquire(later(), true, 'b'));
    held[0]!();
    await settled();
    // Caller a still holds one slot, b none: b's turn, though four of a's arrived first.
    expect(order).to.deep.equal(['b']);
    held[1]!();
    await settled();
    expect(order).to.deep.equal(['b', 'a1']);
    ((await other) as () => void)();
    await settled();
    expect(order).to.deep.equal(['b', 'a1', 'a2']);
    for (const next of flood) ((await next) as () => void)();
    expect(order).to.deep.equal(['b', 'a1', 'a2', 'a3', 'a4']);
  });

  it('takes turns between callers when only one heavy statement may run', async () => {
    const queue = new AdmissionQueue(2, 100, 1);
    const first = await queue.acquire(later(), true, 'a');
    const order: string[] = [];
    const waiting = [
      track(order, 'a1', queue.acquire(later(), true, 'a')),
      track(order, 'a2', queue.acquire(later(), true, 'a')),
      track(order, 'b1', queue.acquire(later(), true, 'b')),
      track(order, 'b2', queue.acquire(later(), true, 'b')),
    ];
    first();
    for (const name of ['b1', 'a1', 'b2', 'a2']) {
      await settled();
      expect(order.at(-1)).to.equal(name);
      ((await waiting[['a1', 'a2', 'b1', 'b2'].indexOf(name)]!) as () => void)();
    }
  });

  it("refuses a flooding caller's heavy request that would wait past its deadline, not another caller's", async () => {
    const queue = new AdmissionQueue(2, 100, 1);
    for (let run = 0; run < 30; run += 1) queue.record(1000);
    const held = await queue.acquire(Date.now() + 60_000, true, 'a');
    const order: string[] = [];
    const flood = Array.from({ length: 6 }, (_, n) => track(order, `a${n}`, queue.acquire(Date.now() + 60_000, true, 'a')));
    // Six of a's wait: another of a's is expected to wait about 4 s; b's first, about 1 s.
    const late = await queue.acquire(Date.now() + 3_000, true, 'a').then(() => null, (error: Error) => error);
    expect(late).to.be.instanceOf(ServiceUnavailableError);
    expect((late as ServiceUnavailableError).retryAfter).to.be.at.least(1);
    const other = track(order, 'b', queue.acquire(Date.now() + 3_000, true, 'b'));
    held();
    await settled();
    expect(order).to.deep.equal(['b']);
    ((await other) as () => void)();
    for (const next of flood) ((await next) as () => void)();
  });

  it("makes room in a full queue for another caller: the flooding caller's newest waiter is refused", async () => {
    const queue = new AdmissionQueue(1, 4, 1);
    const held = await queue.acquire(later(), true, 'a');
    const order: string[] = [];
    const flood = [1, 2, 3, 4].map((n) => track(order, `a${n}`, queue.acquire(later(), true, 'a')));
    const refused = await queue.acquire(later(), true, 'a').then(() => null, (error: Error) => error);
    expect(refused).to.be.instanceOf(ServiceUnavailableError);
    const other = track(order, 'b', queue.acquire(later(), true, 'b'));
    await settled();
    expect(order).to.deep.equal(['a4 refused']);
    expect(((await flood[3]!) as ServiceUnavailableError).retryAfter).to.be.at.least(1);
    held();
    await settled();
    expect(order).to.deep.equal(['a4 refused', 'b']);
    for (const next of [other, flood[0]!, flood[1]!, flood[2]!]) ((await next) as () => void)();
    expect(order).to.deep.equal(['a4 refused', 'b', 'a1', 'a2', 'a3']);
  });
});

describe('statement costs: tiny statements', () => {
  it('takes a shape for tiny once a recent run was tiny, and none stalled', () => {
    const costs = new StatementCosts();
    // Its first run prepares it, on a worker.
    expect(costs.isTiny('SELECT 1')).to.equal(false);
    costs.record('SELECT 1', 3 * TINY_STATEMENT_MS);
    expect(costs.isTiny('SELECT 1')).to.equal(false);
    costs.record('SELECT 1', TINY_STATEMENT_MS / 2);
    expect(costs.isTiny('SELECT 1')).to.equal(true);
    // Slowed down by busy neighbours, it stays tiny…
    costs.record('SELECT 1', 5 * TINY_STATEMENT_MS);
    expect(costs.isTiny('SELECT 1')).to.equal(true);
    // …but not after a run that would stall the event loop, until that run is no longer recent.
    costs.record('SELECT 1', STALLING_STATEMENT_MS * 2);
    expect(costs.isTiny('SELECT 1')).to.equal(false);
    for (let run = 0; run < 7; run += 1) costs.record('SELECT 1', TINY_STATEMENT_MS / 2);
    expect(costs.isTiny('SELECT 1')).to.equal(false);
    costs.record('SELECT 1', TINY_STATEMENT_MS / 2);
    expect(costs.isTiny('SELECT 1')).to.equal(true);
  });
});
