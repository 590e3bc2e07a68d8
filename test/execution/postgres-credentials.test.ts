/**
 * PostgreSQL as production reaches it: a role that logs in with a password (scram-sha-256), on a
 * server of the test's own whose pg_hba.conf trusts nobody else, over TCP and over the server's
 * Unix socket. Every connection the package opens — knex's pool, the body workers' connections
 * (heavy bodies), a replica's — must carry the URL's password and socket.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../plugin/storage/database.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { postgresServerUrl } from '../support/databases.js';
import { createOwnPostgres, ownPostgresUnavailable, type OwnPostgres } from '../support/own-postgres.js';
import { copySmallFixture } from '../support/replica-load.js';
import { startServer } from '../support/server.js';
import { onUrlAndItsReplica, writesAndReadsBack } from '../support/credentials.js';

const unavailable = postgresServerUrl() ? ownPostgresUnavailable() : 'no PostgreSQL (TEST_DATABASE_URL unset)';
(unavailable ? describe.skip : describe)(`PostgreSQL with a role that has a password${unavailable ? ` (skipped: ${unavailable})` : ''}`, function () {
  this.timeout(180_000);
  let server: OwnPostgres;
  let admin: Knex;
  const role = `content_api_test_${randomBytes(4).toString('hex')}`;
  // Characters a URL must percent-encode, so that the password's decoding is tested too.
  const password = `p@ss:/#${randomBytes(8).toString('hex')}`;
  const database = 'content';
  let tcpUrl: string;
  let socketUrl: string;

  before(async () => {
    server = await createOwnPostgres({ passwords: true });
    admin = openDatabase(server.url, { poolSize: 1 });
    await admin.raw(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}'`);
    await admin.raw(`CREATE DATABASE "${database}" OWNER "${role}"`);
    const secret = encodeURIComponent(password);
    tcpUrl = `postgres://${role}:${secret}@127.0.0.1:${server.port}/${database}`;
    socketUrl = `postgres://${role}:${secret}@${encodeURIComponent(server.socketDir)}:${server.port}/${database}`;
    await copySmallFixture(tcpUrl);
  });
  after(async () => {
    await admin?.destroy();
    await server?.destroy();
  });

  it('refuses the role without its password: the server does check it', async () => {
    const without = openDatabase(`postgres://${role}@127.0.0.1:${server.port}/${database}`, { poolSize: 1 });
    try {
      const failure = await without.raw('SELECT 1').then(() => null, (error: Error) => error);
      expect(failure?.message).to.match(/password/);
    } finally {
      await without.destroy();
    }
  });

  /** Readiness, a light read, a heavy body (read by a body worker), a write and its answer, a read of what was written. */
  async function readsAndWrites(served: ServedApi, name: string): Promise<void> {
    expect((await served.request.get('/_ready')).status).to.equal(200);
    // A shape not seen yet counts as heavy: a body worker reads it, on a connection of its own
    // (one that lost the URL's password would make this a 503). Whether a worker thread was started
    // for it is not asserted: the count of threads changed with the suites run before.
    const heavy = await served.request.get(`/api/articles?populate=*&pagination[pageSize]=3&filters[title][$ne]=${name}`);
    expect(heavy.status, heavy.text).to.equal(200);
    expect(heavy.body.data).to.have.length(3);
    await writesAndReadsBack(served, name);
  }

  it('reads, writes and is ready over TCP with the password of the URL, also through a replica URL', async () => {
    await onUrlAndItsReplica(tcpUrl, readsAndWrites);
  });

  it("reads, writes and is ready over the server's Unix socket (its folder, percent-encoded, as host)", async () => {
    const served = await serveApi({ root: repoRoot, database: socketUrl, sync: false, connectTimeout: 2_000 });
    try {
      await readsAndWrites(served, `socket-${randomBytes(3).toString('hex')}`);
      // Over the socket the server sees no client address.
      const sessions = await admin.raw('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = ? AND client_addr IS NULL', [role]);
      expect(sessions.rows[0].n).to.be.above(0);
    } finally {
      await served.close();
    }
  });

  it('takes the socket folder from a host= query parameter, and `content-api serve` answers with it', async () => {
    const url = `postgres://${role}:${encodeURIComponent(password)}@/${database}?host=${encodeURIComponent(server.socketDir)}&port=${server.port}`;
    const served = await startServer({ database: url });
    try {
      expect((await fetch(`${served.baseUrl}/_ready`)).status).to.equal(200);
      const response = await fetch(`${served.baseUrl}/api/articles?populate=*&pagination[pageSize]=4`);
      expect(response.status, await response.clone().text()).to.equal(200);
      expect(((await response.json()) as { data: unknown[] }).data).to.have.length(4);
    } finally {
      await served.stop();
    }
  });
});
