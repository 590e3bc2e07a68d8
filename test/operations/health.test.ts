/**
 * Liveness and readiness outside the prefix, on both engines: /_health is 200 whatever the
 * database does; /_ready is 200 while the database answers and a 503 in the envelope, within
 * about a second, while it does not (here: the one statement slot held by a request waiting on a
 * lock); paths are configurable and `health: false` leaves them to the host.
 */
import { expect } from 'chai';
import { serveApi, serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { lockableDatabase, type LockableDatabase } from '../support/held-lock.js';
import { repoRoot } from '../support/api.js';

for (const kind of testDatabaseKinds()) {
  describe(`health and readiness (${kind.name})`, () => {
    describe('with the default paths', () => {
      let served: ServedApi;
      before(async () => {
        served = await serveFixture(kind.client);
      });
      after(() => served.close());

      it('answers /_health with 200 {status:"ok"}, uncached', async () => {
        const response = await served.request.get('/_health');
        expect(response.status).to.equal(200);
        expect(response.body).to.deep.equal({ status: 'ok' });
        expect(response.headers['cache-control']).to.equal('no-store');
      });

      it('answers /_ready with 200 while the database answers', async () => {
        const response = await served.request.get('/_ready');
        expect(response.status).to.equal(200);
        expect(response.body).to.deep.equal({ status: 'ok' });
      });

      it('answers HEAD on both, and leaves other methods and paths to the host', async () => {
        expect((await served.request.head('/_ready')).status).to.equal(200);
        expect((await served.request.post('/_health')).status).to.equal(404);
        expect((await served.request.get('/_healthz')).status).to.equal(404);
        expect((await served.request.get('/api/_health')).status).to.equal(404);
      });
    });

    describe('while the database does not answer', () => {
      let database: LockableDatabase;
      let served: ServedApi;
      before(async () => {
        database = await lockableDatabase(kind.client);
        served = await serveApi({ root: repoRoot, database: database.url, sync: false, timeout: 5_000, maxConcurrentStatements: 1, sqliteReadWorkers: 1 });
      });
      after(async () => {
        await database?.unlock();
        await served?.close();
        await database?.close();
      });

      it('is alive, not ready (503 in the envelope within about a second), then ready again', async () => {
        await database.lock();
        const stuck = served.request.get('/api/articles?fields[0]=title').then((response) => response);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const started = Date.now();
        const notReady = await served.request.get('/_ready');
        expect(Date.now() - started).to.be.below(2_500);
        expect(notReady.status, notReady.text).to.equal(503);
        expect(notReady.body).to.deep.equal({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'The database did not answer within 1 s', details: {} } });
        expect((await served.request.get('/_health')).status).to.equal(200);
        await database.unlock();
        expect((await stuck).status).to.equal(200);
        expect((await served.request.get('/_ready')).status).to.equal(200);
      });
    });

    describe('configured', () => {
      it('serves the paths given, and none with health: false', async () => {
        const custom = await serveFixture(kind.client, 'small', { health: { live: '/livez', ready: '/readyz' }, notFound: false });
        try {
          expect((await custom.request.get('/livez')).body).to.deep.equal({ status: 'ok' });
          expect((await custom.request.get('/readyz')).status).to.equal(200);
          expect((await custom.request.get('/_health')).status).to.equal(404);
        } finally {
          await custom.close();
        }
        const off = await serveFixture(kind.client, 'small', { health: false });
        try {
          expect((await off.request.get('/_health')).status).to.equal(404);
          expect((await off.request.get('/_ready')).status).to.equal(404);
        } finally {
          await off.close();
        }
      });
    });
  });
}
