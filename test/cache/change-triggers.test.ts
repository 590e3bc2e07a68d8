/**
 * The change triggers of PostgreSQL and MariaDB (storage/change-triggers.ts): installed by
 * `content-api sync --change-triggers` on every table of the layout, once; a cache on a database
 * without them is refused at start unless a time bound is given, and then says so and keeps answers
 * no longer than the bound.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CacheWithoutTriggers, contentApi } from '../../plugin/index.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { tablesWithoutTriggers, watchedTables } from '../../plugin/storage/change-triggers.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { cliPath } from '../support/server.js';
import { RULES_APP, sleep } from './support.js';

const run = promisify(execFile);

for (const kind of testDatabaseKinds().filter((kind) => kind.client !== 'sqlite')) {
  describe(`change triggers (${kind.name})`, function () {
    this.timeout(60_000);
    let database: TestDatabase;

    beforeEach(async () => {
      database = await createTestDatabase(kind.client);
      await syncSchema(database.knex, await loadSchema(RULES_APP));
    });
    afterEach(() => database.drop());

    it('are installed by sync --change-triggers on every table, once', async () => {
      const tables = watchedTables(await loadSchema(RULES_APP));
      expect(await tablesWithoutTriggers(database.knex, tables)).to.have.members(tables);
      const first = await run(process.execPath, [cliPath, 'sync', '--root', RULES_APP, '--database', database.url, '--change-triggers']);
      expect(first.stdout).to.contain('added change triggers on notes');
      expect(await tablesWithoutTriggers(database.knex, tables)).to.deep.equal([]);
      const again = await run(process.execPath, [cliPath, 'sync', '--root', RULES_APP, '--database', database.url, '--change-triggers']);
      expect(again.stdout).to.contain('database is up to date');
    });

    it('are needed by a cache without a time bound, and the bound is said at start', async () => {
      const options = { root: RULES_APP, database: database.knex, sync: false, serverTiming: true, upload: false as const };
      let refused: unknown = null;
      await contentApi({ ...options, cache: { maxBytes: '1MB' } }).catch((error: unknown) => (refused = error));
      expect(refused).to.be.instanceOf(CacheWithoutTriggers);
      expect((refused as Error).message).to.contain('content-api sync --change-triggers');
      const api = await contentApi({ ...options, cache: { maxBytes: '1MB', maxAge: 200 } });
      try {
        expect(api.cache!.summary).to.match(/no change triggers, so an answer may be up to 200 ms older than a write from elsewhere/);
        const Koa = (await import('koa')).default;
        const app = new Koa();
        app.use(api.routes());
        const agent = (await import('supertest')).default.agent(app.callback());
        const outcome = async () => /cache;desc="(\w+)"/.exec((await agent.get('/api/members')).headers['server-timing'] ?? '')?.[1];
        expect([await outcome(), await outcome()]).to.deep.equal(['miss', 'hit']);
        await sleep(250);
        expect(await outcome()).to.equal('miss');
      } finally {
        await api.close();
      }
    });
  });
}
