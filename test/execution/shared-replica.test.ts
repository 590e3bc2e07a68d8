/**
 * The API over the test server with its streaming replica as a read replica (`.ci/run` makes the
 * replica, a second Debian cluster made with pg_basebackup -R, and names it in TEST_REPLICA_URL):
 * the fixture copied into the primary reaches the replica, the reads are served from the replica,
 * and they answer what the primary alone answers.
 */
import { expect } from 'chai';
import pg from 'pg';
import { fixtureDatabase, repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { postgresServerUrl, withDatabaseName } from '../support/databases.js';
import { startServer } from '../support/server.js';

const replicaServer = process.env.TEST_REPLICA_URL ?? null;
const skipped = !postgresServerUrl() ? 'TEST_DATABASE_URL unset' : !replicaServer ? 'TEST_REPLICA_URL unset; .ci/run makes a replica and sets it' : null;

const QUERIES = [
  '/api/articles?populate=*&pagination[pageSize]=100',
  '/api/categories?populate[articles][fields][0]=title&sort=name:desc',
  '/api/articles/3?populate[blocks][populate]=*',
];

async function scalar(url: string, sql: string): Promise<number> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return Number(Object.values((await client.query(sql)).rows[0] as object)[0]);
  } finally {
    await client.end();
  }
}

(skipped ? describe.skip : describe)(`a streaming replica as read replica${skipped ? ` (skipped: ${skipped})` : ''}`, function () {
  this.timeout(120_000);
  let primaryOnly: ServedApi;
  let withReplica: ServedApi;
  let replicaUrl: string;
  let primaryUrl: string;

  before(async () => {
    primaryUrl = await fixtureDatabase('postgres', 'small');
    replicaUrl = withDatabaseName(replicaServer!, new URL(primaryUrl).pathname.slice(1));
    // The copy reaches the replica once it has replayed the primary's log this far.
    const target = await scalar(primaryUrl, 'SELECT count(*) FROM articles');
    const deadline = Date.now() + 30_000;
    for (;;) {
      const replicated = await scalar(replicaUrl, 'SELECT count(*) FROM articles').catch(() => -1);
      if (replicated === target) break;
      if (Date.now() > deadline) throw new Error(`the replica has ${replicated} articles after 30 s, the primary ${target}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    primaryOnly = await serveApi({ root: repoRoot, database: primaryUrl, sync: false });
    withReplica = await serveApi({ root: repoRoot, database: primaryUrl, replicas: [replicaUrl], sync: false });
  });
  after(async () => {
    await primaryOnly?.close();
    await withReplica?.close();
  });

  it('answers from the replica what the primary answers', async () => {
    const connectionsOnReplica = `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`;
    expect(await scalar(replicaUrl, connectionsOnReplica)).to.equal(0);
    for (const query of QUERIES) {
      const fromReplica = await withReplica.request.get(query);
      const fromPrimary = await primaryOnly.request.get(query);
      expect(fromReplica.status, query).to.equal(200);
      expect(fromReplica.text, query).to.equal(fromPrimary.text);
    }
    expect(await scalar(replicaUrl, connectionsOnReplica)).to.be.at.least(1);
  });

  it('is what serve --replica reads from', async () => {
    const server = await startServer({ database: primaryUrl, args: ['--no-sync', '--replica', replicaUrl] });
    try {
      const response = await fetch(`${server.baseUrl}${QUERIES[0]}`);
      expect(response.status).to.equal(200);
      expect(await response.text()).to.equal((await primaryOnly.request.get(QUERIES[0]!)).text);
    } finally {
      await server.stop();
    }
  });
});
