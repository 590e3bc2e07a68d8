/**
 * MariaDB as production reaches it: a user of its own with a password, on the server
 * TEST_MYSQL_URL names, over TCP and over the server's Unix socket (`?socketPath=`). Every
 * connection the package opens — knex's pool, the executor's pools, a replica's pool, the CLI's —
 * must carry the URL's password and socket. The user and its database are dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase, rawRows } from '../../plugin/storage/database.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { mysqlServerUrl } from '../support/databases.js';
import { copySmallFixture } from '../support/replica-load.js';
import { startServer } from '../support/server.js';
import { onUrlAndItsReplica, writesAndReadsBack } from '../support/credentials.js';

(mysqlServerUrl() ? describe : describe.skip)('MariaDB with a user that has a password', function () {
  this.timeout(180_000);
  let admin: Knex;
  const suffix = randomBytes(5).toString('hex');
  const user = `content_api_test_${suffix}`;
  const database = `content_api_test_${suffix}`;
  // Characters a URL must percent-encode, so that the password's decoding is tested too.
  const password = `p@ss:/#${randomBytes(8).toString('hex')}`;
  let tcpUrl: string;
  let socket: string;

  const sql = async (statement: string, values: readonly unknown[] = []) => rawRows<Record<string, unknown>>(admin, await admin.raw(statement, values as never[]));

  before(async () => {
    const server = new URL(mysqlServerUrl()!);
    admin = openDatabase(mysqlServerUrl()!, { poolSize: 1 });
    await sql(`CREATE DATABASE "${database}" CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    // 127.0.0.1 for TCP, localhost for the socket: MariaDB tells the two apart.
    for (const host of ['127.0.0.1', 'localhost']) {
      await sql(`CREATE USER ?@? IDENTIFIED BY ?`, [user, host, password]);
      await sql(`GRANT ALL PRIVILEGES ON "${database}".* TO ?@?`, [user, host]);
    }
    tcpUrl = `mysql://${user}:${encodeURIComponent(password)}@127.0.0.1:${server.port || 3306}/${database}`;
    socket = String((await sql('SELECT @@socket AS socket'))[0]!.socket ?? '');
    await copySmallFixture(tcpUrl);
  });
  after(async () => {
    if (!admin) return;
    await sql(`DROP DATABASE IF EXISTS "${database}"`);
    for (const host of ['127.0.0.1', 'localhost']) await sql('DROP USER IF EXISTS ?@?', [user, host]);
    await admin.destroy();
  });

  it('refuses the user without its password: the server does check it', async () => {
    const without = openDatabase(`mysql://${user}@127.0.0.1:${new URL(tcpUrl).port}/${database}`, { poolSize: 1 });
    try {
      const failure = await without.raw('SELECT 1').then(() => null, (error: Error) => error);
      expect(failure?.message).to.match(/Access denied/);
    } finally {
      await without.destroy();
    }
  });

  /** Readiness, reads, a write and its answer (read after the commit), a read of what was written. */
  async function readsAndWrites(served: ServedApi, name: string): Promise<void> {
    const ready = await served.request.get('/_ready');
    expect(ready.status, ready.text).to.equal(200);
    const list = await served.request.get('/api/articles?populate=*&pagination[pageSize]=3');
    expect(list.status, list.text).to.equal(200);
    expect(list.body.data).to.have.length(3);
    await writesAndReadsBack(served, name);
  }

  it('reads, writes and is ready over TCP with the password of the URL, also through a replica URL', async () => {
    await onUrlAndItsReplica(tcpUrl, readsAndWrites);
  });

  it('`content-api serve` reads with it', async () => {
    const served = await startServer({ database: tcpUrl });
    try {
      expect((await fetch(`${served.baseUrl}/_ready`)).status).to.equal(200);
      const response = await fetch(`${served.baseUrl}/api/articles?pagination[pageSize]=4`);
      expect(response.status, await response.clone().text()).to.equal(200);
      expect(((await response.json()) as { data: unknown[] }).data).to.have.length(4);
    } finally {
      await served.stop();
    }
  });

  it("reads, writes and is ready over the server's Unix socket (?socketPath=)", async function () {
    if (!socket || !existsSync(socket)) {
      console.log(`      skipped: the server's socket ${socket || '(none)'} is not a file on this machine`);
      this.skip();
    }
    // Port 1 listens nowhere: the connections can only have gone through the socket.
    const url = `mysql://${user}:${encodeURIComponent(password)}@localhost:1/${database}?socketPath=${encodeURIComponent(socket)}`;
    const served = await serveApi({ root: repoRoot, database: url, replicas: [url], sync: false, connectTimeout: 2_000 });
    try {
      await readsAndWrites(served, `socket-${randomBytes(3).toString('hex')}`);
      const sessions = await sql("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = ? AND HOST = 'localhost'", [user]);
      expect(Number(sessions[0]!.n)).to.be.above(0);
    } finally {
      await served.close();
    }
  });

  it('refuses a URL parameter it does not know, rather than ignoring it', async () => {
    const failure = await serveApi({ root: repoRoot, database: `${tcpUrl}?socket=/run/mysqld/mysqld.sock`, sync: false }).then(
      (served) => (served.close(), null),
      (error: Error) => error,
    );
    expect(failure?.message).to.match(/unknown parameter "socket".*socketPath/);
    expect(failure?.message).not.to.contain(password);
  });
});
