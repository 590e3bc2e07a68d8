/**
 * Faults around the database. At start, `serve` refuses a database it cannot use with one line and
 * a nonzero code, before listening. While serving: a PostgreSQL or MariaDB server that stops answers 503s
 * in the envelope within the connect timeout, and the service recovers by itself when the server
 * is back; a SQLite file locked by another writer is waited for within the deadline, then a 503.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { serveApi, type ServedApi } from '../support/api.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { createOwnPostgres, ownPostgresUnavailable } from '../support/own-postgres.js';
import { cliPath, freePort, repoRoot } from '../support/server.js';
import { mysqlServerUrl, postgresServerUrl } from '../support/databases.js';
import { createOwnMariadb, ownMariadbUnavailable } from '../support/own-mariadb.js';

interface Exited {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `content-api serve` with these arguments and waits for it to exit (it must not listen). */
function serveExpectingExit(args: string[]): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not exit within 20 s:\n${stdout}${stderr}`));
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectOneLineRefusal(result: Exited, reason: RegExp): void {
  expect(result.code, result.stderr).to.equal(1);
  expect(result.stdout).not.to.include('listening');
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).to.have.length(1);
  expect(lines[0]).to.match(/^content-api serve: /);
  expect(lines[0]).to.match(reason);
  expect(lines[0]).not.to.match(/\bat .*\.js:\d+/);
}

describe('faults: serve refuses a database it cannot use, before listening', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'content-api-faults-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing SQLite file with --no-sync, which it does not create', async () => {
    const file = join(dir, 'absent', 'content.db');
    expectOneLineRefusal(await serveExpectingExit(['--database', `sqlite:${file}`, '--no-sync']), /does not exist/);
    expect(existsSync(join(dir, 'absent'))).to.equal(false);
  });

  it('a file that is not a SQLite database', async () => {
    const file = join(dir, 'garbage.db');
    writeFileSync(file, Buffer.alloc(8192, 'not a database '));
    expectOneLineRefusal(await serveExpectingExit(['--database', `sqlite:${file}`, '--no-sync']), /is not a SQLite database/);
  });

  it('a path that cannot be opened as a file', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    expectOneLineRefusal(await serveExpectingExit(['--database', `sqlite:${folder}`]), /cannot be opened/);
  });

  it('a PostgreSQL server that does not answer', async () => {
    const port = await freePort();
    expectOneLineRefusal(await serveExpectingExit(['--database', `postgres://postgres@127.0.0.1:${port}/test`]), new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${port}/test: .*ECONNREFUSED`));
  });

  it('a MariaDB server that does not answer', async () => {
    const port = await freePort();
    expectOneLineRefusal(await serveExpectingExit(['--database', `mysql://root@127.0.0.1:${port}/test`]), new RegExp(`MariaDB at 127\\.0\\.0\\.1:${port}/test: .*ECONNREFUSED`));
  });

  it('a permissions.yaml that does not load, with every problem located', async () => {
    const root = join(dir, 'schema');
    mkdirSync(root);
    for (const folder of ['content-types', 'components']) {
      const { cpSync } = await import('node:fs');
      cpSync(join(repoRoot, folder), join(root, folder), { recursive: true });
    }
    writeFileSync(join(root, 'permissions.yaml'), 'roles:\n  public:\n    api::nope.nope: [find]\n    api::article.article: [fly]\n');
    const result = await serveExpectingExit(['--root', root, '--database', `sqlite:${join(dir, 'p.db')}`]);
    expect(result.code).to.equal(1);
    expect(result.stdout).not.to.include('listening');
    expect(result.stderr).to.match(/permissions\.yaml:3:\d+/);
    expect(result.stderr).to.match(/permissions\.yaml:4:\d+/);
  });
});

describe('faults: SQLite locked by another writer', function () {
  this.timeout(30_000);
  let dir: string;
  let served: ServedApi;
  let writer: Database.Database;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'content-api-locked-'));
    const file = join(dir, 'strapi-small.db');
    copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), file);
    // Served as an existing Strapi database (sync off): its rollback journal, where a writer blocks readers.
    served = await serveApi({ root: repoRoot, database: `sqlite:${file}`, sync: false, timeout: 800 });
    writer = new Database(file);
  });
  after(async () => {
    writer.close();
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits within the deadline, answers 503 past it, and serves once the lock is released', async () => {
    writer.exec('BEGIN EXCLUSIVE');
    const started = Date.now();
    const locked = await served.request.get('/api/articles/1');
    const waited = Date.now() - started;
    expect(locked.status, locked.text).to.equal(503);
    expect(locked.body.error.name).to.equal('ServiceUnavailableError');
    expect(waited).to.be.within(500, 3_000);
    const released = served.request.get('/api/articles/1');
    setTimeout(() => writer.exec('COMMIT'), 200);
    const answer = await released;
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body.data.id).to.equal(1);
  });
});

/**
 * Sends a request every 100 ms while the server is stopped for 6 s and started again: before,
 * only 200s; while it is down, only 503s in the envelope, none waiting past the connect timeout;
 * from 3 s after it is back, only 200s again, without a restart of the service.
 */
async function expectOutageAnsweredAndRecovered(served: ServedApi, server: { stop(): Promise<void>; start(): Promise<void> }): Promise<void> {
  const answers: { status: number; name: string | null; milliseconds: number; at: number }[] = [];
  let sending = true;
  const load = (async () => {
    while (sending) {
      const started = Date.now();
      const response = await served.request.get('/api/articles?pagination[pageSize]=5');
      answers.push({ status: response.status, name: response.body?.error?.name ?? null, milliseconds: Date.now() - started, at: started });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(1_500);
  const stoppedAt = Date.now();
  await server.stop();
  await sleep(6_000);
  await server.start();
  const startedAt = Date.now();
  await sleep(5_000);
  sending = false;
  await load;

  const before = answers.filter((answer) => answer.at < stoppedAt);
  const down = answers.filter((answer) => answer.at > stoppedAt + 1_000 && answer.at < startedAt - 1_000);
  const after = answers.filter((answer) => answer.at > startedAt + 3_000);
  expect(before.length).to.be.above(3);
  expect(before.every((answer) => answer.status === 200)).to.equal(true);
  expect(down.length).to.be.above(3);
  for (const answer of down) {
    expect(answer.status).to.equal(503);
    expect(answer.name).to.equal('ServiceUnavailableError');
  }
  for (const answer of answers) {
    expect([200, 503]).to.include(answer.status);
    expect(answer.milliseconds, 'no answer waits past the connect timeout').to.be.below(3_000);
  }
  expect(after.length).to.be.above(3);
  expect(after.every((answer) => answer.status === 200), JSON.stringify(after)).to.equal(true);
}

/** A database server of the test's own that it may stop and start without touching the shared ones. */
interface OwnServer {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

const ownServers: { name: string; unavailable: string | null; timeout: number; create: () => Promise<OwnServer> }[] = [
  { name: 'PostgreSQL', unavailable: postgresServerUrl() ? ownPostgresUnavailable() : 'no PostgreSQL (TEST_DATABASE_URL unset)', timeout: 120_000, create: createOwnPostgres },
  { name: 'MariaDB', unavailable: mysqlServerUrl() ? ownMariadbUnavailable() : 'no MariaDB (TEST_MYSQL_URL unset)', timeout: 180_000, create: () => createOwnMariadb() },
];

for (const { name, unavailable, timeout, create } of ownServers) {
  (unavailable ? describe.skip : describe)(`faults: a ${name} server that stops and starts again${unavailable ? ` (skipped: ${unavailable})` : ''}`, function () {
    this.timeout(timeout);
    let server: OwnServer;
    let served: ServedApi;
    before(async () => {
      server = await create();
      served = await serveApi({ root: repoRoot, database: server.url, timeout: 5_000, connectTimeout: 2_000 });
    });
    after(async () => {
      await served?.close();
      await server?.destroy();
    });

    it('answers only 503s in the envelope within the connect timeout while it is down, and 200s once it is back, without a restart', async () => {
      await expectOutageAnsweredAndRecovered(served, server);
    });
  });
}
