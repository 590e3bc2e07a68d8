/**
 * SQLite's two lanes (sql/sqlite-executor.ts): once the data's figures are known, a request
 * estimated tiny runs on the event loop's own connection (Server-Timing says `lane;desc="event-loop"`),
 * with the same answer, still one statement, and still held to the response budget; a heavy one
 * goes to a read worker.
 */
import { expect } from 'chai';
import { serveFixture, statementsOf, type ServedApi } from '../support/api.js';

/** About 0.1 ms of statement on the large fixture. */
const TINY = '/api/articles/1?fields[0]=title&populate[category][fields][0]=name';
/** About 3 MB on the large fixture. */
const HEAVY = '/api/categories?populate[articles][populate]=*';

const onEventLoop = (response: { headers: Record<string, string> }) => /lane;desc="event-loop"/.test(response.headers['server-timing'] ?? '');

/** Requests `path` until it runs on the event loop (the figures are gathered beside the first requests); the last answer. */
async function untilOnEventLoop(served: ServedApi, path: string) {
  let response = await served.request.get(path);
  // Back to back: a run whose caches are warm shows what the statement costs.
  for (let tries = 0; tries < 300 && !onEventLoop(response); tries += 1) {
    if (tries % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 50));
    response = await served.request.get(path);
  }
  return response;
}

describe('SQLite: tiny statements on the event loop (large fixture)', function () {
  this.timeout(60_000);

  describe('default budget', () => {
    let served: ServedApi;
    before(async () => {
      served = await serveFixture('sqlite', 'large');
    });
    after(() => served.close());

    it('answers a tiny request on the event loop, as a worker answers it, in one statement', async () => {
      const first = await served.request.get(TINY);
      expect(first.status).to.equal(200);
      const tiny = await untilOnEventLoop(served, TINY);
      expect(onEventLoop(tiny), tiny.headers['server-timing']).to.equal(true);
      expect(tiny.status).to.equal(200);
      expect(statementsOf(tiny)).to.equal(1);
      expect(tiny.text).to.equal(first.text);
      expect(tiny.headers.etag).to.equal(first.headers.etag);
    });

    it('sends a heavy request to a read worker', async () => {
      await untilOnEventLoop(served, TINY);
      for (let run = 0; run < 2; run += 1) {
        const heavy = await served.request.get(HEAVY);
        expect(heavy.status).to.equal(200);
        expect(statementsOf(heavy)).to.equal(1);
        expect(onEventLoop(heavy), heavy.headers['server-timing']).to.equal(false);
      }
    });
  });

  describe('a small budget', () => {
    let served: ServedApi;
    /** Published articles whose title and description differ in length: one body fits the budget, the other not. */
    const entry = (id: number) => `/api/articles/${id}?fields[0]=title&fields[1]=description`;
    before(async () => {
      served = await serveFixture('sqlite', 'large');
    });
    after(() => served.close());

    it('holds a statement run on the event loop to the response budget', async () => {
      const sizes = new Map<number, number>();
      for (const id of [1, 2, 3, 6, 7, 8, 11, 12, 13, 16]) sizes.set(id, (await served.request.get(entry(id))).text.length);
      const [small] = [...sizes].sort(([, a], [, b]) => a - b)[0]!;
      const [large] = [...sizes].sort(([, a], [, b]) => b - a)[0]!;
      expect(sizes.get(large)!).to.be.above(sizes.get(small)!);
      await served.close();
      served = await serveFixture('sqlite', 'large', { maxResponseBytes: sizes.get(small)! });
      const fits = await untilOnEventLoop(served, entry(small));
      expect(onEventLoop(fits), fits.headers['server-timing']).to.equal(true);
      expect(fits.status).to.equal(200);
      const over = await served.request.get(entry(large));
      expect(over.status).to.equal(400);
      expect(over.body.error.message).to.match(/above the limit/);
    });
  });
});
