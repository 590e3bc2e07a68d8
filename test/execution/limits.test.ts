/**
 * What keeps one process alive and fair under valid but heavy queries, on both engines: a
 * request's deadline (a 503, and the next request served normally), the response budget (a 400
 * naming the populate to narrow, before anything is sent), admission control (503 with
 * Retry-After rather than a growing queue), and, on SQLite, light requests answered while a heavy
 * statement runs in another worker thread.
 */
import { expect } from 'chai';
import { weakEtag } from '../../plugin/format/etag.js';
import { PACED_BODY_BYTES } from '../../plugin/http/paced-body.js';
import { serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

/** 49 MB on the large fixture: every category's articles, their categories and their articles. */
const HUGE = '/api/categories?pagination[pageSize]=100&populate[articles][populate][categories][populate][articles]=true';
/** About 3 MB and a few hundred milliseconds on the large fixture. */
const HEAVY = '/api/categories?populate[articles][populate]=*';

for (const kind of testDatabaseKinds()) {
  describe(`execution limits (${kind.name}, large fixture)`, () => {
    describe('deadline', () => {
      let served: ServedApi;
      before(async () => {
        served = await serveFixture(kind.client, 'large', { timeout: 150 });
      });
      after(() => served.close());

      it('answers 503 in the envelope when a statement runs past the deadline, then serves the next request', async () => {
        const started = Date.now();
        const response = await served.request.get(HUGE);
        expect(response.status).to.equal(503);
        expect(response.body.error).to.include({ status: 503, name: 'ServiceUnavailableError' });
        expect(response.headers['retry-after']).to.equal('1');
        expect(Date.now() - started).to.be.below(5_000);
        const next = await served.request.get('/api/articles/1?fields[0]=title');
        expect(next.status).to.equal(200);
        expect(next.body.data.id).to.equal(1);
      });
    });

    describe('response budget', () => {
      let served: ServedApi;
      before(async () => {
        served = await serveFixture(kind.client, 'large');
      });
      after(() => served.close());

      it('refuses a body above 32 MB with a 400 naming the deepest to-many populate', async function () {
        this.timeout(120_000);
        const response = await served.request.get(HUGE);
        expect(response.status).to.equal(400);
        expect(response.body.error.name).to.equal('ValidationError');
        expect(response.body.error.details.path).to.equal('populate.articles.populate.categories.populate.articles');
        expect(response.body.error.message).to.match(/above the limit of 32\.0 MB/);
      });

      it('sends the bytes the database built, with their length', async () => {
        const response = await served.request.get('/api/articles?locale=fr&fields[0]=title&pagination[pageSize]=5');
        expect(response.status).to.equal(200);
        expect(Number(response.headers['content-length'])).to.equal(Buffer.byteLength(response.text));
        expect(JSON.parse(response.text).data).to.have.length(5);
      });

      it('sends a large body in slices with its length and ETag, and answers 304 to its ETag', async function () {
        this.timeout(60_000);
        const response = await served.request.get(HEAVY).buffer(true).parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
        const body = response.body as Buffer;
        expect(response.status).to.equal(200);
        expect(body.length).to.be.above(PACED_BODY_BYTES);
        expect(response.headers['transfer-encoding']).to.equal(undefined);
        expect(Number(response.headers['content-length'])).to.equal(body.length);
        expect(response.headers.etag).to.equal(weakEtag(body));
        expect(JSON.parse(body.toString('utf8')).data).to.have.length.above(0);
        const again = await served.request.get(HEAVY).set('If-None-Match', response.headers.etag!);
        expect(again.status).to.equal(304);
      });
    });

    describe('a small budget', () => {
      let served: ServedApi;
      before(async () => {
        served = await serveFixture(kind.client, 'large', { maxResponseBytes: 20_000 });
      });
      after(() => served.close());

      it('names pagination when nothing to-many is populated, and the first to-many populate otherwise', async () => {
        const flat = await served.request.get('/api/articles?pagination[pageSize]=100');
        expect(flat.status).to.equal(400);
        expect(flat.body.error.details.path).to.equal('pagination');
        const populated = await served.request.get('/api/articles?populate[category]=true&populate[gallery]=true&pagination[pageSize]=50');
        expect(populated.status).to.equal(400);
        expect(populated.body.error.details.path).to.equal('populate.gallery');
        expect((await served.request.get('/api/articles?pagination[pageSize]=2&fields[0]=title')).status).to.equal(200);
      });
    });

    describe('admission', () => {
      let served: ServedApi;
      before(async () => {
        served = await serveFixture(kind.client, 'large', { maxConcurrentStatements: 1, sqliteReadWorkers: 1, maxQueuedStatements: 1 });
      });
      after(() => served.close());

      it('answers 503 with Retry-After at once beyond the queue, and serves the rest', async () => {
        const responses = await Promise.all(Array.from({ length: 8 }, () => served.request.get(`${HEAVY}&pagination[withCount]=false`)));
        const statuses = responses.map((response) => response.status);
        expect(statuses.filter((status) => status === 200).length).to.be.at.least(2);
        const refused = responses.filter((response) => response.status === 503);
        expect(refused.length).to.be.at.least(1);
        for (const response of refused) {
          expect(response.body.error.name).to.equal('ServiceUnavailableError');
          expect(Number(response.headers['retry-after'])).to.be.at.least(1);
        }
        expect(statuses.every((status) => status === 200 || status === 503)).to.equal(true);
      });
    });

    if (kind.client === 'sqlite') {
      describe('heavy beside light', () => {
        let served: ServedApi;
        before(async () => {
          served = await serveFixture(kind.client, 'large', { sqliteReadWorkers: 2 });
        });
        after(() => served.close());

        it('answers light requests while a heavy statement runs in another worker', async () => {
          // A shape is taken for heavy until it has run once.
          await served.request.get('/api/articles/1?fields[0]=title');
          const heavyStarted = performance.now();
          let heavyDone = 0;
          const heavy = served.request.get(HEAVY).then((response) => {
            heavyDone = performance.now();
            return response;
          });
          const lightTimes: number[] = [];
          // Published English articles (every fifth is a draft).
          for (const id of [1, 2, 3, 6, 7, 8, 11, 12, 13, 16]) {
            const started = performance.now();
            expect((await served.request.get(`/api/articles/${id}?fields[0]=title`)).status).to.equal(200);
            lightTimes.push(performance.now() - started);
          }
          const lightDone = performance.now();
          expect((await heavy).status).to.equal(200);
          const heavyMs = heavyDone - heavyStarted;
          // On the event loop every light request would wait for the whole heavy statement.
          expect(lightDone - heavyStarted, `10 light requests took ${(lightDone - heavyStarted).toFixed(0)} ms beside a heavy one of ${heavyMs.toFixed(0)} ms`).to.be.below(heavyMs);
          expect(Math.max(...lightTimes)).to.be.below(heavyMs / 2);
        });
      });
    }
  });
}
