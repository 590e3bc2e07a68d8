/**
 * Image work stays off the event loop and bounded: a burst of image uploads leaves the loop free
 * to answer reads, and no more images than `imageConcurrency` are processed at once. The event
 * loop does not depend on the engine: SQLite only.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect } from 'chai';
import { Limiter } from '../../plugin/upload/limiter.js';
import { testFile, uploadApi, type UploadApi } from './support/upload-api.js';

describe('image uploads and the event loop', function () {
  this.timeout(120_000);
  let api: UploadApi;
  before(async () => (api = await uploadApi('sqlite', { imageConcurrency: 1 })));
  after(async () => api?.close());

  it('answers reads while a burst of images is processed, the loop never held long', async function () {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const uploads = Array.from({ length: 4 }, (_, index) => api.as('editor', api.request.post('/api/upload')).attach('files', testFile('photo.jpg'), `burst-${index}.jpg`).then((response) => response));
    const readTimes: number[] = [];
    let uploading = true;
    const settled = Promise.all(uploads).finally(() => (uploading = false));
    while (uploading) {
      const started = performance.now();
      expect((await api.request.get('/api/articles?pagination[pageSize]=1')).status).to.equal(200);
      readTimes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const responses = await settled;
    delay.disable();
    expect(responses.map((response) => response.status)).to.deep.equal([200, 200, 200, 200]);
    expect(readTimes.length, 'reads answered during the uploads').to.be.greaterThan(3);
    // Generous for a shared machine: sharp decoding a 1600px JPEG on the loop would take far longer.
    expect(delay.max / 1e6, 'longest event-loop delay (ms)').to.be.below(400);
  });
});

describe('the image limiter', function () {
  it('runs at most its size at once, the others in order', async function () {
    const limiter = new Limiter(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        limiter.run(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 10));
          order.push(index);
          running--;
        }),
      ),
    );
    expect(most).to.equal(2);
    expect(order).to.deep.equal([0, 1, 2, 3, 4, 5]);
  });

  it('frees its place when a task fails', async function () {
    const limiter = new Limiter(1);
    await limiter.run(() => Promise.reject(new Error('broken image'))).catch(() => undefined);
    expect(await limiter.run(async () => 'next')).to.equal('next');
  });

  it('keeps the weight in flight within its capacity, runs a task heavier than it alone, in order', async function () {
    const limiter = new Limiter(4, 10);
    let weight = 0;
    let most = 0;
    const started: string[] = [];
    const task = (name: string, taskWeight: number) =>
      limiter.run(async () => {
        started.push(name);
        weight += taskWeight;
        most = Math.max(most, weight);
        await new Promise((resolve) => setTimeout(resolve, 10));
        weight -= taskWeight;
      }, taskWeight);
    const heavyAlone = task('heavy', 25).then(() => expect(started).to.include('heavy'));
    await Promise.all([heavyAlone, task('a', 4), task('b', 4), task('c', 4), task('d', 1)]);
    // The heavy task ran alone (25 at once), every other moment stayed within 10: a, b then c, d.
    expect(started).to.deep.equal(['heavy', 'a', 'b', 'c', 'd']);
    expect(most).to.equal(25);
  });

  it('never runs small tasks past a heavy one that waits', async function () {
    const limiter = new Limiter(4, 10);
    const order: string[] = [];
    const run = (name: string, taskWeight: number, ms: number) => limiter.run(async () => (order.push(name), await new Promise((resolve) => setTimeout(resolve, ms))), taskWeight);
    // 'big' (8) waits for 'first' (5); 'small' (1) would fit beside 'first' but comes after 'big'.
    await Promise.all([run('first', 5, 30), run('big', 8, 10), run('small', 1, 10)]);
    expect(order).to.deep.equal(['first', 'big', 'small']);
  });
});
