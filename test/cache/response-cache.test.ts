/**
 * The cache's bookkeeping (cache/response-cache.ts): least recently used out first within its
 * bytes; a body read before a change to one of its tables, or during a write to one, is not kept;
 * a change drops only the bodies of its tables; a time bound expires bodies.
 */
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HEAP_PEAK_FACTOR, ResponseCache } from '../../plugin/cache/response-cache.js';

/** A full collection, to read what is live (the flag made available at run time, as mocha runs without it). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Bytes live on V8's heap, and in buffers outside it. */
function liveBytes(): { readonly heap: number; readonly buffers: number } {
  collectGarbage();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers };
}

const body = (text: string) => ({ body: Buffer.from(text), etag: `W/"${text}"` });

describe('the response cache (cache/response-cache.ts)', () => {
  it('keeps bodies within its bytes, least recently used out first', () => {
    // A body of 300 bytes takes one block of 512, and with its key and bookkeeping (counted at their peak on the heap) 3,050 bytes or so: three fit.
    const cache = new ResponseCache({ maxBytes: 9200, maxEntryBytes: 1000 });
    const since = cache.clock();
    for (const key of ['a', 'b', 'c', 'd']) expect(cache.set(key, body(key.repeat(300)), ['t'], since)).to.equal(true);
    expect(cache.size).to.equal(3);
    expect(cache.bytes).to.be.at.most(9200);
    expect(cache.get('a')).to.equal(undefined);
    expect(cache.get('b')?.body.toString()).to.equal('b'.repeat(300));
    cache.set('e', body('e'.repeat(300)), ['t'], since);
    // b was used last, c was not: c goes first.
    expect(cache.get('c')).to.equal(undefined);
    expect(cache.get('b')).not.to.equal(undefined);
    expect(cache.set('big', body('x'.repeat(1001)), ['t'], since)).to.equal(false);
  });

  it('holds no more memory than its bytes, however small its bodies, and after larger ones', function () {
    this.timeout(30_000);
    // Each entry's record, key and ETag count as much as its blocks when bodies are small; on the
    // heap they may cost HEAP_PEAK_FACTOR times their live bytes at its peak. The pages cost
    // memory where blocks were written, and keep it once they are given back: small bodies kept
    // after large ones have less room for their records.
    for (const sizes of [[200], [1000], [30_000], [30_000, 200]]) {
      const maxBytes = 32 * 1024 * 1024;
      const cache = new ResponseCache({ maxBytes, maxEntryBytes: 64 * 1024 });
      const before = liveBytes();
      for (const [round, size] of sizes.entries()) {
        const text = Buffer.alloc(size, 120);
        // Enough bodies to fill it twice over, the first ones dropped.
        for (let index = 0; index < (2 * maxBytes) / size; index += 1) {
          cache.set(`1\u0000public\u0000api::article.article\u0000find\u0000pagination[page]=${index}&round=${round}\u0000`, { body: text, etag: `W/"${index.toString(16)}"` }, ['articles', 'categories'], cache.clock());
        }
      }
      const after = liveBytes();
      const held = HEAP_PEAK_FACTOR * (after.heap - before.heap) + (after.buffers - before.buffers) + cache.blockBytes;
      const label = `${sizes.join(' B, then ')} B bodies`;
      expect(cache.bytes, label).to.be.at.most(maxBytes).and.above(maxBytes * 0.95);
      expect(held, `${label}: ${cache.size} kept in ${(held / 1048576).toFixed(1)} MB`).to.be.at.most(maxBytes);
    }
  });

  it('keeps a key without the strings it was built from', () => {
    // A key is built from pieces, one a slice of the request's URL: kept as built, each key would keep its whole URL.
    const cache = new ResponseCache({ maxBytes: 64 * 1024 * 1024 });
    const before = liveBytes();
    for (let index = 0; index < 200; index += 1) {
      const url = `/api/articles?${'x'.repeat(100_000)}${index}`;
      const queryKey = url.slice(url.length - 60);
      expect(cache.set(`1\u0000public\u0000api::article.article\u0000find\u0000${queryKey}\u0000`, body('a'), ['articles'], cache.clock())).to.equal(true);
    }
    const held = liveBytes().heap - before.heap;
    // 200 URLs of 100 KB would be 20 MB.
    expect(held, `${(held / 1048576).toFixed(1)} MB`).to.be.below(1024 * 1024);
  });

  it('serves each body from blocks it reuses, as a copy of its own', () => {
    const cache = new ResponseCache({ maxBytes: 64 * 1024, maxEntryBytes: 16 * 1024 });
    const text = (seed: number, length: number) => Array.from({ length }, (_, index) => String.fromCharCode(97 + ((seed + index * 7) % 26))).join('');
    const lengths = [0, 1, 511, 512, 513, 5000, 16 * 1024];
    for (let round = 0; round < 40; round += 1) {
      for (const [index, length] of lengths.entries()) cache.set(`${round}:${index}`, body(text(round + index, length)), ['t'], cache.clock());
      expect(cache.bytes).to.be.at.most(64 * 1024);
    }
    // The last round's bodies (all kept: 23 KB), in whatever blocks the earlier ones left, read back whole.
    for (const [index, length] of lengths.entries()) {
      const kept = cache.get(`39:${index}`);
      expect(kept?.body.toString()).to.equal(text(39 + index, length));
    }
    const served = cache.get('39:6')!.body;
    expect(served.toString()).to.equal(text(45, 16 * 1024));
    served.fill(0);
    expect(cache.get('39:6')!.body.toString()).to.equal(text(45, 16 * 1024));
  });

  it('reads every body back from its blocks, the cache full', () => {
    const cache = new ResponseCache({ maxBytes: 3 * 1024 * 1024 });
    const bodyOf = (index: number) => Buffer.alloc(60 * 1024, String.fromCharCode(65 + (index % 26)));
    for (let index = 0; index < 60; index += 1) expect(cache.set(`k${index}`, { body: bodyOf(index), etag: '' }, ['t'], cache.clock())).to.equal(true);
    expect(cache.size).to.be.above(40);
    for (let index = 60 - cache.size; index < 60; index += 1) expect(cache.get(`k${index}`)!.body.equals(bodyOf(index))).to.equal(true);
  });

  it('keeps a body above the blocked size in a copy of its own', () => {
    const cache = new ResponseCache({ maxBytes: 1024 * 1024 });
    const large = Buffer.alloc(100 * 1024, 'l');
    expect(cache.set('large', { body: large, etag: 'W/"l"' }, ['t'], cache.clock())).to.equal(true);
    large.fill('x');
    expect(cache.get('large')!.body.equals(Buffer.alloc(100 * 1024, 'l'))).to.equal(true);
    expect(cache.bytes).to.be.above(100 * 1024);
    cache.invalidate(['t']);
    expect(cache.bytes).to.equal(0);
  });

  it('drops the bodies of a changed table only, and keeps no body read before the change', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    const before = cache.clock();
    cache.set('notes', body('n'), ['notes', 'members'], before);
    cache.set('tags', body('t'), ['tags'], before);
    const readingNotes = cache.clock();
    cache.invalidate(['members']);
    expect(cache.get('notes')).to.equal(undefined);
    expect(cache.get('tags')).not.to.equal(undefined);
    expect(cache.set('notes', body('old'), ['notes', 'members'], readingNotes)).to.equal(false);
    expect(cache.set('notes', body('new'), ['notes', 'members'], cache.clock())).to.equal(true);
    cache.invalidateAll();
    expect(cache.size).to.equal(0);
    expect(cache.set('tags', body('t'), ['tags'], readingNotes)).to.equal(false);
  });

  it('keeps nothing of a table while a write to it is under way', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    cache.set('notes', body('n'), ['notes'], cache.clock());
    cache.writing(['notes']);
    expect(cache.get('notes')).to.equal(undefined);
    expect(cache.set('notes', body('n'), ['notes'], cache.clock())).to.equal(false);
    expect(cache.set('tags', body('t'), ['tags'], cache.clock())).to.equal(true);
    const duringWrite = cache.clock();
    cache.written(['notes']);
    expect(cache.set('notes', body('n'), ['notes'], duringWrite)).to.equal(false);
    expect(cache.set('notes', body('n'), ['notes'], cache.clock())).to.equal(true);
    cache.writing(null);
    expect(cache.size).to.equal(0);
    expect(cache.set('tags', body('t'), ['tags'], cache.clock())).to.equal(false);
    cache.written(null);
    expect(cache.set('tags', body('t'), ['tags'], cache.clock())).to.equal(true);
  });

  it('serves a body for its time bound at most', () => {
    let now = 1000;
    const cache = new ResponseCache({ maxBytes: 10_000, maxAgeMs: 50, now: () => now });
    cache.set('a', body('a'), ['t'], cache.clock());
    now += 49;
    expect(cache.get('a')).not.to.equal(undefined);
    now += 1;
    expect(cache.get('a')).to.equal(undefined);
    expect(cache.size).to.equal(0);
    // Its block was written, and is the cache's still.
    expect(cache.bytes).to.equal(cache.blockBytes).and.above(0);
  });
});
