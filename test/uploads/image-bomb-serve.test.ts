/**
 * Decompression bombs against `content-api serve` (a child process, whose memory and its image
 * workers' is read from /proc): a 31 KB PNG declaring 16,000 × 16,000 pixels, alone, twenty in one request and twenty
 * requests at once, is stored without being decoded — the server's peak RSS grows by well under
 * 256 MB (it grew by 1.2 GB, and the upload took 14 core-seconds, when the bomb was decoded) and
 * `GET /api/articles` keeps answering while they are handled. And twenty photos within the budget
 * in one request, processed one budget's worth at a time, leave reads answering too. On SQLite
 * only: the database sees one row a file either way. Linux only (it reads /proc).
 */
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import sharp from 'sharp';
import { processTreeRss, sampleRss } from '../../bench/proc-rss.js';
import { startServer, type RunningServer } from '../support/server.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { bombPng } from './support/image-bombs.js';
import { UPLOAD_PERMISSIONS } from './support/upload-api.js';

const MB = 1024 * 1024;
/** The ceiling of one upload's memory; a bomb stored without decoding takes a few MB. */
const MAX_GROWTH_BYTES = 256 * MB;
/** Generous for a loaded 2-core machine: a read answers in milliseconds when it is not starved. */
const MAX_READ_MS = 2_000;
/** The whole of twenty bombs, generous: they take about a second together. */
const MAX_BOMBS_MS = 20_000;
/** A budget the photos below fit in, so that the photos are processed, one at a time. */
const PHOTO_BUDGET_PIXELS = 4_000_000;

/**
 * The resident memory of the server and its image workers while `work` runs, sampled every 25 ms
 * (a worker replaced between two samples takes its last peak with it): the growth over before.
 */
async function treeGrowth<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = processTreeRss(pid);
  const sampling = sampleRss(pid, 25);
  try {
    const result = await work();
    return { result, growth: sampling.stop().peak - before };
  } finally {
    sampling.stop();
  }
}

async function upload(baseUrl: string, files: readonly { bytes: Buffer; name: string }[]): Promise<number> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([file.bytes]), file.name);
  const response = await fetch(`${baseUrl}/api/upload`, { method: 'POST', headers: { Authorization: 'Bearer editor-token' }, body: form });
  await response.arrayBuffer();
  return response.status;
}

/** Reads articles one after another until `done` settles, the first at once: how long each took (ms). */
async function readTimesDuring(baseUrl: string, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const times: number[] = [];
  do {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api/articles?pagination[pageSize]=1`);
    await response.arrayBuffer();
    expect(response.status, 'GET /api/articles').to.equal(200);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (!finished);
  return times;
}

describe('decompression bombs sent to serve (sqlite)', function () {
  this.timeout(240_000);
  let fixture: FreshFixture;
  let server: RunningServer;
  let bomb: Buffer;
  let pid: number;

  before(async function () {
    if (!existsSync('/proc/self/status')) this.skip();
    bomb = await bombPng();
    fixture = await freshFixture('sqlite', UPLOAD_PERMISSIONS);
    server = await startServer({ database: fixture.url, root: fixture.root, args: ['--quiet'] });
    pid = server.child.pid!;
    // Warm: the first upload and read load what every later one uses.
    expect(await upload(server.baseUrl, [{ bytes: await sharp({ create: { width: 400, height: 300, channels: 3, background: '#468' } }).png().toBuffer(), name: 'warm.png' }])).to.equal(200);
  });
  after(async () => {
    await server?.stop();
    await fixture?.drop();
  });

  /** Runs `send` beside reads: its statuses, the reads' times, the peak RSS growth and the wall time. */
  async function measured(send: () => Promise<number[]>): Promise<{ statuses: number[]; reads: number[]; growth: number; ms: number }> {
    const started = performance.now();
    const { result: [statuses, reads], growth } = await treeGrowth(pid, () => {
      const sending = send();
      return Promise.all([sending, readTimesDuring(server.baseUrl, sending)]);
    });
    const ms = performance.now() - started;
    process.stdout.write(`      +${Math.round(growth / MB)} MB peak RSS, ${Math.round(ms)} ms, slowest of ${reads.length} reads ${Math.round(Math.max(...reads))} ms\n`);
    return { statuses, reads, growth, ms };
  }

  function expectBounded(result: { reads: number[]; growth: number }): void {
    expect(result.growth, 'peak RSS growth in bytes').to.be.below(MAX_GROWTH_BYTES);
    expect(Math.max(...result.reads), 'slowest read beside the uploads (ms)').to.be.below(MAX_READ_MS);
  }

  it('stores one bomb fast, its memory bounded', async function () {
    const result = await measured(async () => [await upload(server.baseUrl, [{ bytes: bomb, name: 'bomb.png' }])]);
    expect(result.statuses).to.deep.equal([200]);
    expect(result.ms, 'ms for the bomb').to.be.below(5_000);
    expectBounded(result);
  });

  it('stores twenty bombs of one request, reads answering meanwhile', async function () {
    const result = await measured(async () => [await upload(server.baseUrl, Array.from({ length: 20 }, (_, index) => ({ bytes: bomb, name: `bomb-${index}.png` })))]);
    expect(result.statuses).to.deep.equal([200]);
    expect(result.ms, 'ms for twenty bombs').to.be.below(MAX_BOMBS_MS);
    expectBounded(result);
  });

  it('stores twenty requests of a bomb sent at once, reads answering meanwhile', async function () {
    const result = await measured(() => Promise.all(Array.from({ length: 20 }, (_, index) => upload(server.baseUrl, [{ bytes: bomb, name: `bomb-${index}.png` }]))));
    expect(result.statuses).to.deep.equal(Array(20).fill(200));
    expect(result.ms, 'ms for twenty bombs').to.be.below(MAX_BOMBS_MS);
    expectBounded(result);
  });
});

describe('photos within the budget sent to serve at once (sqlite)', function () {
  this.timeout(240_000);
  let fixture: FreshFixture;
  let server: RunningServer;

  before(async function () {
    if (!existsSync('/proc/self/status')) this.skip();
    fixture = await freshFixture('sqlite', UPLOAD_PERMISSIONS);
    server = await startServer({ database: fixture.url, root: fixture.root, args: ['--quiet'], env: { UPLOAD_MAX_IMAGE_PIXELS: String(PHOTO_BUDGET_PIXELS) } });
    // Warm: the image worker started, as on a server that has processed an image before.
    expect(await upload(server.baseUrl, [{ bytes: await sharp({ create: { width: 400, height: 300, channels: 3, background: '#468' } }).png().toBuffer(), name: 'warm.png' }])).to.equal(200);
  });
  after(async () => {
    await server?.stop();
    await fixture?.drop();
  });

  it('processes twenty of one request with their formats, reads answering meanwhile', async function () {
    // Noise, so the encoder works as on a photo: 2000 × 1500 = 3 M pixels, under the budget.
    const noise = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 30 } } }).jpeg({ quality: 90 }).toBuffer();
    const form = new FormData();
    for (let index = 0; index < 20; index++) form.append('files', new Blob([noise]), `photo-${index}.jpg`);
    const { result: [response, reads], growth } = await treeGrowth(server.child.pid!, () => {
      const sending = fetch(`${server.baseUrl}/api/upload`, { method: 'POST', headers: { Authorization: 'Bearer editor-token' }, body: form });
      return Promise.all([sending, readTimesDuring(server.baseUrl, sending)]);
    });
    const files = (await response.json()) as { width: number; formats: Record<string, unknown> }[];
    process.stdout.write(`      +${Math.round(growth / MB)} MB peak RSS, slowest of ${reads.length} reads ${Math.round(Math.max(...reads))} ms\n`);
    expect(response.status).to.equal(200);
    expect(files).to.have.length(20);
    for (const file of files) expect(Object.keys(file.formats)).to.have.members(['thumbnail', 'large', 'medium', 'small']);
    expect(reads.length, 'reads answered while the photos were processed').to.be.greaterThan(3);
    expect(Math.max(...reads), 'slowest read beside the uploads (ms)').to.be.below(MAX_READ_MS);
    expect(growth, 'peak RSS growth in bytes').to.be.below(MAX_GROWTH_BYTES);
  });
});
