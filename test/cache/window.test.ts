/**
 * The window: how long after a write from elsewhere (another connection, as another process's or
 * a Strapi admin's) is acknowledged a server still holds the answers it changes — SQLite's data
 * version read every 5 ms, PostgreSQL's notification, MariaDB's versions table read every 5 ms.
 * Measured from the write's answer to the body's drop, over CACHE_WINDOW_SAMPLES writes (default
 * 200); the 99th percentile stays under CACHE_WINDOW_LIMIT_MS (default 50). The suites run side by
 * side with others (npm test runs an engine's suites in a process of its own), and two late polls
 * of 200 are the p99: a measurement over the limit is taken again, up to 3 times in all, and every
 * one is printed.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { testDatabases } from '../../plugin/testing/index.js';
import { cacheOutcome, sleep, useCachedRulesApp, type CachedApp } from './support.js';

const SAMPLES = Number(process.env.CACHE_WINDOW_SAMPLES ?? 200);
const LIMIT_MS = Number(process.env.CACHE_WINDOW_LIMIT_MS ?? 50);
const ATTEMPTS = 3;

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/** Settles once `done()` holds, checking at every turn of the event loop; answers when. */
async function until(done: () => boolean, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now();
}

for (const database of testDatabases()) {
  describe(`the window of writes from elsewhere (${database})`, function () {
    this.timeout(120_000);
    let app: CachedApp;
    let other: Knex;

    const served = useCachedRulesApp({ database });
    beforeEach(() => {
      app = served.app();
      other = served.other();
    });

    /** The lags of SAMPLES writes from elsewhere, each from its acknowledgement to the body's drop (ms), sorted. */
    async function measure(): Promise<number[]> {
      const cache = app.kit.api.cache!;
      const path = '/api/tags';
      const lags: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample += 1) {
        // Kept, and the echo of the previous write heard: the body is there to be dropped.
        while (cacheOutcome(await app.request.get(path)) !== 'hit') await sleep(2);
        const dropped = cache.counters.dropped;
        await sleep(Math.random() * 10);
        const name = `open ${Math.random()}`;
        await other('tags').where({ id: app.id('tag', 'open') }).update({ name });
        const acknowledged = performance.now();
        lags.push((await until(() => cache.counters.dropped > dropped, 5_000)) - acknowledged);
        expect((await app.request.get(path)).text).to.contain(name);
      }
      return lags.sort((a, b) => a - b);
    }

    it(`drops the answers a write from elsewhere changes within ${LIMIT_MS} ms (p99)`, async () => {
      let p99 = Infinity;
      for (let attempt = 1; attempt <= ATTEMPTS && p99 >= LIMIT_MS; attempt += 1) {
        const lags = await measure();
        const [p50, max] = [percentile(lags, 0.5), lags[lags.length - 1]!];
        p99 = percentile(lags, 0.99);
        process.stdout.write(`      window over ${SAMPLES} writes: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms\n`);
      }
      expect(p99).to.be.below(LIMIT_MS);
    });
  });
}
