/**
 * The reference Strapi 4.26.2 served on MariaDB for a benchmark: a private copy of the oracle app
 * whose config/database.js names a fresh database on the TEST_MYSQL_URL server, filled by
 * `copy` from a fixture. The oracle install has no MariaDB driver; it finds this package's own
 * mysql2 through NODE_PATH, so nothing is installed into it. A database filled by `copy` has the
 * content tables only: the reference boots once to create its own, and is started again after
 * the fixture's public permissions and locales are copied in (else every route is a 403).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { loadSchema } from '../plugin/schema/load.js';
import { copyDatabase } from '../plugin/storage/copy.js';
import { openDatabase } from '../plugin/storage/database.js';
import { createTestDatabase } from '../test/support/databases.js';
import { freePort } from '../test/support/server.js';
import type { BenchIndex } from './declared-index.js';
import { repoRoot } from './engines.js';
import type { StrapiServer } from './strapi-server.js';

/** Strapi's own rows the public routes need, which `copy` leaves out (they are not the schema's). */
const STRAPI_ROWS: readonly { table: string; columns: readonly string[] }[] = [
  { table: 'up_permissions', columns: ['id', 'action', 'created_at', 'updated_at'] },
  { table: 'up_permissions_role_links', columns: ['id', 'permission_id', 'role_id', 'permission_order'] },
  { table: 'i18n_locale', columns: ['id', 'name', 'code', 'created_at', 'updated_at'] },
];

const DATABASE_CONFIG = `module.exports = ({ env }) => {
  const url = new URL(env('DATABASE_URL'));
  return { connection: { client: 'mysql2', connection: {
    host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password), database: url.pathname.slice(1),
    ...(url.searchParams.get('socketPath') ? { socketPath: url.searchParams.get('socketPath') } : {}) } } };
};
`;

/** Starts the reference on the fixture `file` (SQLite, read only) copied into MariaDB, with `index` when given (declared-index.ts). */
export async function startStrapiOnMariadb(file: string, fixedPort?: number, index?: BenchIndex): Promise<StrapiServer> {
  const installed = join(process.env.ORACLE_DIR ?? join(homedir(), '.cache', 'strapi-oracle'), 'strapi-app');
  if (!existsSync(join(installed, 'node_modules', '@strapi', 'strapi'))) throw new Error(`the reference is not installed at ${installed}`);
  const database = await createTestDatabase('mysql');
  const app = mkdtempSync(join(tmpdir(), 'content-api-strapi-mariadb-'));
  let child: ChildProcess | null = null;
  const stopChild = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  const cleanUp = async () => {
    await stopChild();
    await database.drop();
    rmSync(app, { recursive: true, force: true });
  };
  try {
    const source = openDatabase(`sqlite:${file}`, { mustExist: true });
    try {
      await copyDatabase({ from: source, to: database.knex, registry: await loadSchema(repoRoot) });
      for (const name of ['config', 'src', 'database', 'public', 'package.json', '.env']) cpSync(join(installed, name), join(app, name), { recursive: true });
      symlinkSync(join(installed, 'node_modules'), join(app, 'node_modules'));
      writeFileSync(join(app, 'config', 'database.js'), DATABASE_CONFIG);
      const port = fixedPort ?? (await freePort());
      const baseUrl = `http://127.0.0.1:${port}`;
      const boot = async (): Promise<number> => {
        child = spawn(process.execPath, [join(installed, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'start'], {
          cwd: app,
          stdio: 'ignore',
          env: {
            ...process.env,
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            DATABASE_URL: database.url,
            NODE_PATH: join(repoRoot, 'node_modules'),
            STRAPI_TELEMETRY_DISABLED: 'true',
            STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true',
          },
        });
        return waitForAnswer(baseUrl, child);
      };
      await boot();
      await stopChild();
      await copyStrapiRows(source, database.knex);
      await index?.create(database.knex);
      const status = await boot();
      if (status !== 200) throw new Error(`the reference on MariaDB answers ${status} to GET /api/articles`);
      await index?.verify(database.knex);
      return { name: 'strapi', baseUrl, pid: child!.pid!, stop: cleanUp };
    } finally {
      await source.destroy();
    }
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Waits until Strapi answers anything on /api/articles (10–30 s to boot); returns the status. */
async function waitForAnswer(baseUrl: string, child: ChildProcess): Promise<number> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the reference on MariaDB exited with code ${child.exitCode} while booting`);
    try {
      return (await fetch(`${baseUrl}/api/articles`, { signal: AbortSignal.timeout(2_000) })).status;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error('the reference on MariaDB did not answer within 180 s');
}

/** Replaces the rows Strapi created at its first boot with the fixture's (SQLite datetimes are epoch ms). */
async function copyStrapiRows(source: Knex, target: Knex): Promise<void> {
  for (const { table, columns } of STRAPI_ROWS) {
    const rows = (await source(table).select(columns)) as Record<string, unknown>[];
    const converted = rows.map((row) => Object.fromEntries(columns.map((column) => [column, column.endsWith('_at') && row[column] !== null ? new Date(Number(row[column])) : row[column]])));
    await target.transaction(async (trx) => {
      await trx(table).delete();
      if (converted.length) await trx(table).insert(converted);
    });
  }
}
