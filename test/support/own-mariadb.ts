/**
 * MariaDB servers of the test's own (mariadb-install-db into a temporary folder, mariadbd on a
 * spare loopback port), and replicas of them, which the test may stop and start without touching
 * the shared server the other suites use. The server runs without grant tables (any user, no
 * password), since it only ever listens on 127.0.0.1 for the length of one suite; when running
 * as root it runs as the `mysql` user, since mariadbd refuses to run as root.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server.js';

const SERVER = '/usr/sbin/mariadbd';
const INSTALL = '/usr/bin/mariadb-install-db';
const CLIENT = '/usr/bin/mariadb';

export interface OwnMariadb {
  /** `mysql://root@127.0.0.1:<port>/test` (the `test` database is created empty). */
  readonly url: string;
  readonly port: number;
  /** The server's own tmpdir, where its internal temporary tables' files are. */
  readonly tmpdir: string;
  start(): Promise<void>;
  /** A normal shutdown (SIGTERM): open connections are closed by the server. */
  stop(): Promise<void>;
  /** Runs SQL with the command-line client, as root, over TCP. */
  sql(statements: string): Promise<string>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/** Why an own server cannot be made here, or null when it can. */
export function ownMariadbUnavailable(): string | null {
  for (const program of [SERVER, INSTALL, CLIENT]) {
    if (!existsSync(program)) return `${program} is not installed`;
  }
  if (userInfo().uid === 0) {
    try {
      execFileSync('id', ['mysql'], { stdio: 'ignore' });
    } catch {
      return 'running as root without a mysql user to run the server as';
    }
  }
  return null;
}

export interface OwnMariadbOptions {
  /** Writes a binary log, so that a replica can follow it (server ids must differ). */
  readonly binlog?: boolean;
  readonly serverId?: number;
  /** Refuses writes from clients (a replica). */
  readonly readOnly?: boolean;
}

/** A new server with an empty data folder of its own, started. */
export async function createOwnMariadb(options: OwnMariadbOptions = {}): Promise<OwnMariadb> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'content-api-mariadb-'));
  const data = join(dir, 'data');
  mkdirSync(data);
  const asRoot = userInfo().uid === 0;
  const userArgs = asRoot ? ['--user=mysql'] : [];
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'mysql']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'mysql']).toString().trim());
    chownSync(dir, uid, gid);
    chownSync(data, uid, gid);
  }
  try {
    // The bootstrap server deletes every `#sql…` file of its tmpdir when it starts: with the
    // default (/tmp) that is the shared server's internal temporary tables under way, and
    // MariaDB 10.11 crashes (signal 11) when it cannot open one it has just created.
    await promisify(execFile)(INSTALL, ['--no-defaults', `--datadir=${data}`, `--tmpdir=${dir}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...userArgs], {
      timeout: 120_000,
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed: ${String((error as { stderr?: unknown }).stderr ?? '').trim() || (error as Error).message}`);
  }
  const serverArgs = [
    '--no-defaults',
    ...userArgs,
    `--datadir=${data}`,
    `--socket=${join(dir, 'mysqld.sock')}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`,
    `--log-error=${join(dir, 'error.log')}`,
    // Its own temporary files, apart from every other server's in /tmp.
    `--tmpdir=${dir}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    '--skip-grant-tables',
    '--skip-name-resolve',
    '--innodb-buffer-pool-size=32M',
    '--innodb-flush-log-at-trx-commit=0',
    `--server-id=${options.serverId ?? 1}`,
    ...(options.binlog ? [`--log-bin=${join(data, 'binlog')}`, '--binlog-format=ROW'] : []),
    ...(options.readOnly ? ['--read-only'] : []),
  ];
  let child: ChildProcess | null = null;
  const sql = async (statements: string): Promise<string> => {
    const { stdout } = await promisify(execFile)(CLIENT, ['--no-defaults', '-h', '127.0.0.1', '-P', String(port), '-u', 'root', '-N', '-B', '-e', statements], { timeout: 30_000 });
    return stdout;
  };
  const start = async () => {
    const started = spawn(SERVER, serverArgs, { stdio: 'ignore' });
    child = started;
    const deadline = Date.now() + 60_000;
    while (!(await accepts(port))) {
      if (started.exitCode !== null) throw new Error(`mariadbd exited with code ${started.exitCode} (see ${join(dir, 'error.log')})`);
      if (Date.now() > deadline) throw new Error(`mariadbd did not listen on 127.0.0.1:${port} within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  await sql('CREATE DATABASE test');
  return {
    url: `mysql://root@127.0.0.1:${port}/test`,
    port,
    tmpdir: dir,
    start,
    stop,
    sql,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A replica of `primary` (which must write a binary log), following its changes from the start,
 * read-only for clients.
 */
export async function createOwnMariadbReplica(primary: OwnMariadb, serverId = 2): Promise<OwnMariadb> {
  const replica = await createOwnMariadb({ serverId, readOnly: true });
  // The replica's own `test` database would clash with the primary's, which the binary log creates.
  await replica.sql('DROP DATABASE test');
  await replica.sql(
    `CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = ${primary.port}, MASTER_USER = 'root', MASTER_PASSWORD = '', MASTER_USE_GTID = no; START SLAVE`,
  );
  return replica;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
