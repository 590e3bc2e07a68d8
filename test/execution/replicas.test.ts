/**
 * Read replicas, against real streaming replicas (pg_basebackup -R) of a PostgreSQL server of the
 * test's own: reads are spread over the replicas, a replica that goes away under load hands its
 * share to the others without a request failing, the primary serves reads when no replica
 * answers, and a replica that comes back gets its share back.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { loadSchema } from '../../plugin/schema/load.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { postgresServerUrl } from '../support/databases.js';
import { createOwnPostgres, createOwnReplica, ownPostgresUnavailable, type OwnPostgres } from '../support/own-postgres.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    const dir = mkdtempSync(join(tmpdir(), 'content-api-replicas-'));
    const file = join(dir, 'strapi-small.db');
    copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), file);
    const source = openDatabase(`sqlite:${file}`);
    const target = openDatabase(primary.url);
    try {
      await copyDatabase({ from: source, to: target, registry: await loadSchema(repoRoot) });
    } finally {
      await source.destroy();
      await target.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
    replicas = [await createOwnReplica(primary), await createOwnReplica(primary)];
    served = await serveApi({ root: repoRoot, database: primary.url, replicas: replicas.map((replica) => replica.url), sync: false, connectTimeout: 1_000 });
  });
  after(async () => {
    await served?.close();
    for (const server of [...replicas, primary]) await server?.destroy();
  });

  /** Sends light reads on 4 connections until `done` settles; every answer must be a 200. */
  async function underLoad(done: Promise<unknown>): Promise<number[]> {
    const statuses: number[] = [];
    let sending = true;
    void done.finally(() => (sending = false));
    await Promise.all(
      Array.from({ length: 4 }, async (_, connection) => {
        while (sending) {
          const response = await served.request.get(`/api/articles/${1 + (statuses.length % 3)}?populate[category][fields][0]=name&c=${connection}`);
          statuses.push(response.status);
          await sleep(20);
        }
      }),
    );
    await done;
    return statuses;
  }

  it('spreads reads over the replicas', async () => {
    for (const replica of replicas) expect(await clientConnections(replica.url)).to.equal(0);
    for (let index = 0; index < 40; index += 1) expect((await served.request.get('/api/articles?pagination[pageSize]=2')).status).to.equal(200);
    for (const [index, replica] of replicas.entries()) expect(await clientConnections(replica.url), `replica ${index}`).to.be.at.least(1);
  });

  it('loses no request while a replica goes away, the primary too, and they come back', async () => {
    const statuses = await underLoad(
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
    // Set aside for a few seconds after failing, then tried again.
    await sleep(5_500);
    for (let index = 0; index < 40; index += 1) expect((await served.request.get('/api/articles?pagination[pageSize]=2')).status).to.equal(200);
    expect(await clientConnections(replicas[1]!.url)).to.be.at.least(1);
  });
});
