/**
 * Read replicas, against real streaming replicas (pg_basebackup -R) of a PostgreSQL server of the
 * test's own: reads are spread over the replicas, a replica that goes away under load hands its
 * share to the others without a request failing, the primary serves reads when no replica
 * answers, and a replica that comes back gets its share back.
 */
import { expect } from 'chai';
import pg from 'pg';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { copySmallFixture, readsUntil, sleep } from '../support/replica-load.js';
import { postgresServerUrl } from '../support/databases.js';
import { createOwnPostgres, createOwnReplica, ownPostgresUnavailable, type OwnPostgres } from '../support/own-postgres.js';

/** How long a replica that failed is set aside (the default, 5 s, would only make the suite wait). */
const SET_ASIDE_MS = 1_000;

/** The client connections open on a server, other than this one: the plugin's pool connects to a server when it reads from it. */
async function clientConnections(url: string): Promise<number> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const result = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
    return (result.rows[0] as { n: number }).n;
  } finally {
    await client.end();
  }
}

const unavailable = postgresServerUrl() ? ownPostgresUnavailable() : 'no PostgreSQL (TEST_DATABASE_URL unset)';
(unavailable ? describe.skip : describe)(`read replicas${unavailable ? ` (skipped: ${unavailable})` : ''}`, function () {
  this.timeout(180_000);
  let primary: OwnPostgres;
  let replicas: OwnPostgres[] = [];
  let served: ServedApi;

  before(async () => {
    primary = await createOwnPostgres();
    await copySmallFixture(primary.url);
    replicas = [await createOwnReplica(primary), await createOwnReplica(primary)];
    served = await serveApi({ root: repoRoot, database: primary.url, replicas: replicas.map((replica) => replica.url), sync: false, connectTimeout: 1_000, replicaSetAside: SET_ASIDE_MS });
  });
  after(async () => {
    await served?.close();
    for (const server of [...replicas, primary]) await server?.destroy();
  });

  it('spreads reads over the replicas', async () => {
    for (const replica of replicas) expect(await clientConnections(replica.url)).to.equal(0);
    for (let index = 0; index < 40; index += 1) expect((await served.request.get('/api/articles?pagination[pageSize]=2')).status).to.equal(200);
    for (const [index, replica] of replicas.entries()) expect(await clientConnections(replica.url), `replica ${index}`).to.be.at.least(1);
  });

  it('loses no request while a replica goes away, the primary too, and they come back', async () => {
    const statuses = await readsUntil(
      served,
      (async () => {
        await sleep(500);
        await replicas[0]!.stop();
        await sleep(1_500);
        await primary.stop();
        await sleep(1_500);
        await primary.start();
        await replicas[0]!.start();
        await replicas[1]!.stop();
        await sleep(1_500);
        await replicas[0]!.stop();
        // Only the primary is left: it serves the reads.
        await sleep(1_500);
        await replicas[0]!.start();
        await replicas[1]!.start();
        await sleep(500);
      })(),
    );
    expect(statuses.length).to.be.greaterThan(100);
    expect(statuses.filter((status) => status !== 200)).to.deep.equal([]);
  });

  it('gives a replica that came back its share again', async () => {
    await replicas[1]!.stop();
    await replicas[1]!.start();
    expect(await clientConnections(replicas[1]!.url)).to.equal(0);
    // Set aside for a while after failing, then tried again.
    await sleep(SET_ASIDE_MS + 500);
    for (let index = 0; index < 40; index += 1) expect((await served.request.get('/api/articles?pagination[pageSize]=2')).status).to.equal(200);
    expect(await clientConnections(replicas[1]!.url)).to.be.at.least(1);
  });
});
