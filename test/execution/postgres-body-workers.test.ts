/**
 * PostgreSQL heavy bodies are read by worker threads with connections of their own
 * (sql/postgres-body-pool.ts), so that the event loop receives bytes: the same bytes and ETag as
 * when the event loop reads a body itself, from threads at the lowest priority, whose connections
 * close with the API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { openDatabase } from '../../plugin/storage/database.js';
import { fixtureDatabase, repoRoot, serveApi, statementsOf, type ServedApi } from '../support/api.js';
import { postgresServerUrl } from '../support/databases.js';

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));
}

(postgresServerUrl() ? describe : describe.skip)('PostgreSQL body workers', function () {
  this.timeout(120_000);
  let url: string;
  let observer: Knex;
  before(async () => {
    url = await fixtureDatabase('postgres', 'large');
    observer = openDatabase(url, { poolSize: 1 });
  });
  after(() => observer?.destroy());

  /** Connections to the fixture's database other than the observer's own. */
  const otherConnections = async () =>
    Number((await observer.raw('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows[0].n);

  it('answers a heavy body from a worker thread, byte for byte as the event loop answers it', async () => {
    const served: ServedApi = await serveApi({ root: repoRoot, database: url, sync: false });
    const before = threadNiceValues().filter((nice) => nice === 19).length;
    try {
      // A new shape counts as heavy: a body worker reads it. Once it has run fast, the event loop does.
      const path = '/api/articles?populate=*&pagination[pageSize]=10';
      const first = await served.request.get(path);
      expect(threadNiceValues().filter((nice) => nice === 19).length, 'a body worker at nice 19').to.equal(before + 1);
      const second = await served.request.get(path);
      expect(first.status).to.equal(200);
      expect(second.status).to.equal(200);
      expect(statementsOf(first)).to.equal(1);
      expect(Buffer.from(first.text)).to.deep.equal(Buffer.from(second.text));
      expect(first.headers.etag).to.be.a('string').and.equal(second.headers.etag);
      expect(JSON.parse(first.text).data).to.have.length(10);
    } finally {
      await served.close();
    }
  });

  it("keeps the heavy bodies of a host's own knex on the event loop: its sessions may need what only its pool does", async () => {
    const hostKnex = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 2 } });
    const served = await serveApi({ root: repoRoot, database: hostKnex, sync: false });
    const before = threadNiceValues().filter((nice) => nice === 19).length;
    try {
      const response = await served.request.get('/api/articles?populate=*&pagination[pageSize]=9');
      expect(response.status).to.equal(200);
      expect(JSON.parse(response.text).data).to.have.length(9);
      expect(threadNiceValues().filter((nice) => nice === 19).length).to.equal(before);
    } finally {
      await served.close();
      await hostKnex.destroy();
    }
  });

  it("refuses a body above the budget from a worker, and closes the workers' connections with the API", async () => {
    const baseline = await otherConnections();
    const served = await serveApi({ root: repoRoot, database: url, sync: false, maxResponseBytes: 100_000 });
    try {
      const refused = await served.request.get('/api/categories?populate[articles][populate]=*');
      expect(refused.status).to.equal(400);
      expect(refused.body.error.message).to.match(/populate/);
      expect(await otherConnections()).to.be.above(baseline);
    } finally {
      await served.close();
    }
    expect(await otherConnections()).to.equal(baseline);
  });
});
