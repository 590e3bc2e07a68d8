/**
 * Read replicas on MariaDB, against real replicas (CHANGE MASTER TO, from the primary's binary
 * log) of a MariaDB server of the test's own: reads are spread over the replicas, a replica that
 * goes away under load hands its share to the others without a request failing, the primary
 * serves reads when no replica answers, and a replica that comes back gets its share back.
 */
import { expect } from 'chai';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { copySmallFixture, readsUntil, sleep } from '../support/replica-load.js';
import { mysqlServerUrl } from '../support/databases.js';
import { createOwnMariadb, createOwnMariadbReplica, ownMariadbUnavailable, type OwnMariadb } from '../support/own-mariadb.js';

/** How long a replica that failed is set aside (the default, 5 s, would only make the suite wait). */
const SET_ASIDE_MS = 1_000;

/** Client connections open on a server other than the one asking: the plugin's pool connects to a server when it reads from it. */
async function clientConnections(server: OwnMariadb): Promise<number> {
  const out = await server.sql("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER <> 'system user' AND COMMAND NOT IN ('Binlog Dump', 'Daemon') AND ID <> CONNECTION_ID()");
  return Number(out.trim());
}

/** Waits until the replica has applied the primary's copy of the fixture (50 articles). */
async function caughtUp(replica: OwnMariadb): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const count = await replica.sql('SELECT COUNT(*) FROM test.articles').catch(() => '0');
    if (Number(count.trim()) === 50) return;
    if (Date.now() > deadline) throw new Error(`replica on port ${replica.port} has not caught up: ${await replica.sql('SHOW SLAVE STATUS\\G')}`);
    await sleep(200);
  }
}

const unavailable = mysqlServerUrl() ? ownMariadbUnavailable() : 'no MariaDB (TEST_MYSQL_URL unset)';
(unavailable ? describe.skip : describe)(`read replicas on MariaDB${unavailable ? ` (skipped: ${unavailable})` : ''}`, function () {
  this.timeout(240_000);
  let primary: OwnMariadb;
  let replicas: OwnMariadb[] = [];
  let served: ServedApi;

  before(async () => {
    primary = await createOwnMariadb({ binlog: true, serverId: 1 });
    replicas = [await createOwnMariadbReplica(primary, 2), await createOwnMariadbReplica(primary, 3)];
    await copySmallFixture(primary.url);
    for (const replica of replicas) await caughtUp(replica);
    served = await serveApi({ root: repoRoot, database: primary.url, replicas: replicas.map((replica) => replica.url), sync: false, connectTimeout: 1_000, replicaSetAside: SET_ASIDE_MS });
  });
  after(async () => {
    await served?.close();
    for (const server of [...replicas, primary]) await server?.destroy();
  });

  it('serves the data the replicas received from the primary, from the replicas', async () => {
    for (const replica of replicas) expect(await clientConnections(replica)).to.equal(0);
    for (let index = 0; index < 40; index += 1) {
      const response = await served.request.get('/api/articles?pagination[pageSize]=2');
      expect(response.status).to.equal(200);
      expect(response.body.meta.pagination.total).to.be.above(0);
    }
    for (const [index, replica] of replicas.entries()) expect(await clientConnections(replica), `replica ${index}`).to.be.at.least(1);
  });

  it('loses no request while a replica goes away, then the other, and they come back', async () => {
    const statuses = await readsUntil(
      served,
      (async () => {
        await sleep(500);
        await replicas[0]!.stop();
        await sleep(1_500);
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
    expect(statuses.length).to.be.greaterThan(50);
    expect(statuses.filter((status) => status !== 200)).to.deep.equal([]);
  });

  it('gives a replica that came back its share again', async () => {
    await replicas[1]!.stop();
    await replicas[1]!.start();
    expect(await clientConnections(replicas[1]!)).to.equal(0);
    // Set aside for a while after failing, then tried again.
    await sleep(SET_ASIDE_MS + 500);
    for (let index = 0; index < 40; index += 1) expect((await served.request.get('/api/articles?pagination[pageSize]=2')).status).to.equal(200);
    expect(await clientConnections(replicas[1]!)).to.be.at.least(1);
  });
});
