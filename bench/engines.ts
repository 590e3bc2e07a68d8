/**
 * The databases the bench measures — a copy of strapi-large.db, and the same data copied into a
 * fresh PostgreSQL database when one is configured (and into a MariaDB database when asked for
 * and TEST_MYSQL_URL is set) — and `content-api serve` on each of them.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchema } from '../plugin/schema/load.js';
import { installChangeTriggers } from '../plugin/storage/change-triggers.js';
import { copyDatabase } from '../plugin/storage/copy.js';
import { openDatabase } from '../plugin/storage/database.js';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { createTestDatabase, mysqlServerUrl, postgresServerUrl } from '../test/support/databases.js';
import { startServer } from '../test/support/server.js';
import { PostgresSession } from './postgres-session.js';
import { mergeReadings, processTreeCpu, type CpuReading } from './proc-cpu.js';

export interface BenchDatabase {
  name: 'sqlite' | 'postgres' | 'mysql';
  description: string;
  /** `sqlite:<file>`, `postgres://…` or `mysql://…`, as `serve --database` takes it. */
  url: string;
  /** PostgreSQL: the bench's own connection (the floor's, and the one that finds the server's backends). */
  session: PostgresSession | null;
  drop(): Promise<void>;
}

export interface BenchServer {
  baseUrl: string;
  /** The serve process (the primary when it forked workers). */
  pid: number;
  /** The CPU the server has used so far: its processes, and on PostgreSQL the backends serving it. */
  cpu(): Promise<CpuReading>;
  /** What the server printed lately: its errors first, then its request log. */
  output(): string;
  stop(): Promise<void>;
}

/** A database with a server running on it, for the scripts that need one of each (load.ts, beside-strapi.ts). */
export interface BenchEngine {
  name: string;
  description: string;
  baseUrl: string;
  /** What the server printed lately: its errors first, then its request log. */
  output(): string;
  stop(): Promise<void>;
}

export const repoRoot = resolve(fileURLToPath(new URL('../../', import.meta.url)));

export interface PrepareOptions {
  /**
   * Also MariaDB, when TEST_MYSQL_URL names a server: only for the scripts that measure through
   * HTTP (beside-strapi.ts); the others read statements with SQLite's or PostgreSQL's own driver.
   */
  readonly mysql?: boolean;
  /**
   * Also a server with the response cache of this size per database (`<name> warm`), measured
   * once its answers are kept (beside-strapi.ts).
   */
  readonly cache?: string;
  /** The schema folder served and copied (default: the package's own). */
  readonly root?: string;
}

export async function prepareDatabases(options: PrepareOptions = {}): Promise<BenchDatabase[]> {
  const dir = mkdtempSync(join(tmpdir(), 'content-api-bench-'));
  const file = join(dir, 'strapi-large.db');
  copyFileSync(join(conformanceKitDir(), 'db', 'strapi-large.db'), file);
  const removeDir = async () => rmSync(dir, { recursive: true, force: true });
  const databases: BenchDatabase[] = [{ name: 'sqlite', description: 'better-sqlite3, copy of strapi-large.db', url: `sqlite:${file}`, session: null, drop: removeDir }];
  const copied = async (client: 'postgres' | 'mysql') => {
    const target = await createTestDatabase(client);
    try {
      const source = openDatabase(`sqlite:${file}`);
      await copyDatabase({ from: source, to: target.knex, registry: await loadSchema(options.root ?? repoRoot) });
      await source.destroy();
      return target;
    } catch (error) {
      await target.drop();
      throw error;
    }
  };
  try {
    if (process.env.BENCH_DATABASE_URL || postgresServerUrl()) {
      const target = await copied('postgres');
      const session = await PostgresSession.connect(target.url).catch(async (error: unknown) => {
        await target.drop();
        throw error;
      });
      databases.push({
        name: 'postgres',
        description: 'pg, strapi-large.db copied with content-api copy',
        url: target.url,
        session,
        drop: async () => {
          await session.close();
          await target.drop();
        },
      });
    }
    if (options.mysql && mysqlServerUrl()) {
      const target = await copied('mysql');
      // The change triggers, as `content-api sync --change-triggers` installs them: lists keep their totals (sql/mysql-known-totals.ts).
      await installChangeTriggers(target.knex, await loadSchema(options.root ?? repoRoot)).catch(async (error: unknown) => (await target.drop(), Promise.reject(error)));
      databases.push({ name: 'mysql', description: 'MariaDB through mysql2, strapi-large.db copied with content-api copy, with the change triggers', url: target.url, session: null, drop: () => target.drop() });
    }
    return databases;
  } catch (error) {
    for (const database of databases) await database.drop();
    throw error;
  }
}

/** `content-api serve --workers N` on the database (which it syncs, as a first start would), for the schema folder `root`, with `args` more. */
export async function serve(database: BenchDatabase, workers: number, root = repoRoot, args: readonly string[] = []): Promise<BenchServer> {
  // As a user starts it: through the package's command, which sets glibc's mmap threshold (bin/content-api.js).
  const server = await startServer({ root, database: database.url, args: ['--workers', String(workers), ...args], viaCommand: true });
  const pid = server.child.pid!;
  return {
    baseUrl: server.baseUrl,
    pid,
    cpu: async () => mergeReadings(processTreeCpu(pid), database.session ? await database.session.otherBackendsCpu() : new Map()),
    output: server.output,
    stop: () => server.stop(),
  };
}

/** One server (one process) per database, all running; `stop()` also drops the database. */
export async function prepareEngines(options: PrepareOptions = {}): Promise<BenchEngine[]> {
  const engines: BenchEngine[] = [];
  for (const database of await prepareDatabases(options)) {
    const server = await serve(database, 1, options.root);
    const warm = options.cache ? await serve(database, 1, options.root, ['--cache', options.cache, '--quiet']).catch(async (error: unknown) => (await server.stop(), await database.drop(), Promise.reject(error))) : null;
    engines.push({
      name: database.name,
      description: database.description,
      baseUrl: server.baseUrl,
      output: server.output,
      stop: async () => {
        await server.stop();
        await warm?.stop();
        await database.drop();
      },
    });
    if (warm) engines.push({ name: `${database.name} warm`, description: `${database.description}, response cache of ${options.cache}`, baseUrl: warm.baseUrl, output: warm.output, stop: async () => undefined });
  }
  return engines;
}
