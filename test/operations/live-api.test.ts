/**
 * The swap behind `serve --watch`, in-process: a request that started on the old API finishes on
 * it, with 200, while new requests already get the new one; the old API is closed only once its
 * last request has ended. The request is held in the database by a lock on PostgreSQL, where
 * building the new API does not need the locked table (on SQLite a writer's lock would also
 * stop the new API from opening the file).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { liveApi, type LiveApi } from '../../plugin/cli/live-api.js';
import { repoRoot } from '../support/api.js';
import { postgresServerUrl } from '../support/databases.js';
import { lockableDatabase, type LockableDatabase } from '../support/held-lock.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

(postgresServerUrl() ? describe : describe.skip)(`the live API swap (postgres)${postgresServerUrl() ? '' : ' (skipped: TEST_DATABASE_URL unset)'}`, function () {
  this.timeout(60_000);
  let root: string;
  let database: LockableDatabase;
  let live: LiveApi;
  const failures: unknown[] = [];
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'content-api-swap-'));
    for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    database = await lockableDatabase('postgres');
    live = await liveApi({ root, database: database.url, sync: false, timeout: 10_000 }, { reloaded: () => undefined, failed: (error) => failures.push(error) });
  });
  after(async () => {
    await database?.unlock();
    await live?.close();
    await database?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lets a request in flight finish on the old API, serves new ones from the new API, then closes the old one', async () => {
    const app = new Koa();
    app.use(live.middleware);
    const request = supertest(app.callback());
    const old = live.current();

    await database.lock();
    const inFlight = request.get('/api/articles?fields[0]=title&pagination[pageSize]=1').then((response) => response);
    await sleep(200);
    // An edit that removes categories from the public role; reload() is what the watcher calls.
    const permissions = join(root, 'permissions.yaml');
    writeFileSync(permissions, readFileSync(permissions, 'utf8').replace('    category: [find, findOne]\n    restaurant: [findOne]', '    restaurant: [findOne]'));
    await live.reload();
    expect(failures).to.deep.equal([]);
    expect(live.current()).to.not.equal(old);
    expect((await request.get('/api/categories')).status, 'a new request sees the new API').to.equal(403);
    expect((await old.knex.raw('SELECT 1 AS one')).rows[0].one, 'the old API is still open for its request').to.equal(1);

    await database.unlock();
    const answer = await inFlight;
    expect(answer.status).to.equal(200);
    expect(answer.body.data).to.have.length(1);
    await sleep(200);
    let closed = false;
    try {
      await old.knex.raw('SELECT 1');
    } catch {
      closed = true;
    }
    expect(closed, 'the old API is closed once its last request ended').to.equal(true);
  });
});
