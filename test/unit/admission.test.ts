/**
 * Admission lanes: heavy statements never take the last slot, a light statement is not held
 * behind heavy ones waiting for a heavy slot, and a shape is light only once its runs were fast.
 */
import { expect } from 'chai';
import { AdmissionQueue } from '../../plugin/sql/admission.js';
import { HEAVY_STATEMENT_MS, StatementCosts } from '../../plugin/sql/statement-costs.js';

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
