/**
 * PostgreSQL servers of the test's own (initdb in a temporary folder, on a spare loopback port),
 * and streaming replicas of them, which the test may stop and start without touching the shared
 * server the other suites use.
 * Debian's server binaries are found under /usr/lib/postgresql/<version>/bin; when running as
 * root, the server runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server.js';

export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** The folder of the server's Unix socket (`.s.PGSQL.<port>`). */
  readonly socketDir: string;
  start(): Promise<void>;
  /** A fast shutdown: open connections are closed by the server. */
  stop(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of Debian's newest PostgreSQL server binaries, or null when none is installed. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** Why an own server cannot be made here, or null when it can. */
export function ownPostgresUnavailable(): string | null {
  if (!postgresBinaries()) return 'PostgreSQL server binaries (/usr/lib/postgresql/*/bin) are not installed';
  if (userInfo().uid === 0) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root without a postgres user to run the server as';
    }
  }
  return null;
}

export interface OwnPostgresOptions {
  /**
   * Every role but `postgres` logs in with a password, checked with scram-sha-256 over TCP and
   * over the socket (`postgres` itself stays trusted, for the test's own statements).
   */
  readonly passwords?: boolean;
}

/** Only `postgres` is trusted; every other role gives its password (scram-sha-256). */
const PASSWORD_HBA = `local all postgres trust
host all postgres 127.0.0.1/32 trust
local all all scram-sha-256
host all all 127.0.0.1/32 scram-sha-256
`;

/** A new server: an empty cluster of its own. */
export function createOwnPostgres(options: OwnPostgresOptions = {}): Promise<OwnPostgres> {
  return createServer(
    async (run, data) => {
      await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
      // Written as the server's user (runuser's cat), since the data folder is its own.
      if (options.passwords) await run('sh', ['-c', `printf '%s' "$1" > "$2/pg_hba.conf"`, 'sh', PASSWORD_HBA, data]);
    },
    options.passwords ? ' -c password_encryption=scram-sha-256' : '',
  );
}

/** A streaming replica of `primary` (pg_basebackup -R), read-only, following the primary's changes. */
export function createOwnReplica(primary: OwnPostgres): Promise<OwnPostgres> {
  const { port } = new URL(primary.url);
  return createServer((run, data) => run('pg_basebackup', ['-h', '127.0.0.1', '-p', port, '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '--checkpoint=fast']));
}

type Run = (program: string, args: string[]) => Promise<void>;

async function createServer(createData: (run: Run, data: string) => Promise<void>, settings = ''): Promise<OwnPostgres> {
  const bin = postgresBinaries()!;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'content-api-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  // Asynchronous, so that requests under test keep being sent while the server stops and starts.
  const run: Run = async (program, args) => {
    const executable = program === 'sh' ? '/bin/sh' : join(bin, program);
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', executable, ...args]] : [executable, args];
    try {
      await promisify(execFile)(command as string, argv as string[], { timeout: 60_000 });
    } catch (error) {
      throw new Error(`${program} failed: ${String((error as { stderr?: unknown }).stderr ?? '').trim() || (error as Error).message}`);
    }
  };
  await createData(run, data);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off${settings}`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    socketDir: dir,
    start,
    stop,
    async destroy() {
      try {
        await stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
