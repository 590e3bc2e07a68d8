/**
 * The first statement on a database, run before anything else is built: a missing, unreadable or
 * corrupt SQLite file, or a PostgreSQL or MariaDB server that cannot be reached, becomes one readable error
 * naming the database, instead of a failure inside whatever statement happened to come first.
 */
import type { Knex } from 'knex';
import { clientOf, DatabaseUnavailable, rawRows } from './database.js';

/** Where the database is, for messages: the SQLite file, or the server's host and port or socket, and database (never the password). */
export function describeDatabase(knex: Knex): string {
  const connection = knex.client.config.connection as { filename?: string; connectionString?: string; host?: string; port?: number; database?: string; socketPath?: string } | string | undefined;
  if (clientOf(knex) === 'sqlite') return `SQLite database ${typeof connection === 'object' ? connection.filename : '?'}`;
  if (clientOf(knex) === 'mysql') {
    // mysql2 takes its connection as fields (see mysql-session.ts), not as a URL.
    if (typeof connection !== 'object') return 'MariaDB';
    if (connection.socketPath) return `MariaDB at ${connection.socketPath}, database ${connection.database ?? ''}`;
    return `MariaDB at ${connection.host ?? 'localhost'}:${connection.port ?? 3306}/${connection.database ?? ''}`;
  }
  const url = typeof connection === 'string' ? connection : connection?.connectionString;
  try {
    // pg's URL forms: the host, a socket folder as the host (percent-encoded), or `?host=<folder>`.
    const parsed = new URL(url ?? '');
    const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
    const port = parsed.searchParams.get('port') ?? (parsed.port || 5432);
    if (host.startsWith('/')) return `PostgreSQL at ${host}/.s.PGSQL.${port}, database ${parsed.pathname.slice(1)}`;
    return `PostgreSQL at ${host || 'localhost'}:${port}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

export async function checkDatabase(knex: Knex): Promise<void> {
  let problem: string | null;
  try {
    // Reading the schema table makes SQLite read the file's header: a file that is not a database fails here.
    if (clientOf(knex) === 'sqlite') await knex.raw('SELECT count(*) FROM sqlite_master');
    if (clientOf(knex) === 'postgres') await knex.raw('SELECT 1');
    problem = clientOf(knex) === 'mysql' ? mysqlServerProblem(await mysqlVersion(knex)) : null;
  } catch (error) {
    throw new DatabaseUnavailable(`cannot use the ${describeDatabase(knex)}: ${reason(error)}`);
  }
  if (problem) throw new DatabaseUnavailable(`cannot use the ${describeDatabase(knex)}: ${problem}`);
}

async function mysqlVersion(knex: Knex): Promise<string> {
  const [row] = rawRows<{ version: string }>(knex, await knex.raw('SELECT VERSION() AS version'));
  return String(row?.version ?? '');
}

/** The lowest MariaDB served: the first whose JSON_ARRAYAGG takes ORDER BY (and LIMIT). */
const OLDEST_MARIADB: readonly [number, number] = [10, 5];

/**
 * Why a server of the mysql2 client cannot be served, from its `VERSION()`, or null. MySQL's
 * JSON_ARRAYAGG cannot order its elements, and the statements build every list with it: served
 * anyway, lists would come out in no defined order, so MySQL is refused at start.
 */
export function mysqlServerProblem(version: string): string | null {
  if (!/mariadb/i.test(version)) return `the server is MySQL ${version.split('-')[0]}, which is not supported yet (its JSON_ARRAYAGG cannot order); MariaDB ${OLDEST_MARIADB.join('.')} or later is`;
  const [major = 0, minor = 0] = version.split(/[.-]/).map(Number);
  const [oldestMajor, oldestMinor] = OLDEST_MARIADB;
  if (major < oldestMajor || (major === oldestMajor && minor < oldestMinor)) return `MariaDB ${major}.${minor} is too old: ${OLDEST_MARIADB.join('.')} or later is needed (JSON_ARRAYAGG with ORDER BY)`;
  return null;
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'SQLITE_CANTOPEN') return 'the file does not exist or cannot be opened (it is created only when the schema is synced)';
  if (code === 'SQLITE_NOTADB') return 'the file is not a SQLite database';
  if (code === 'SQLITE_CORRUPT') return 'the file is corrupt';
  // knex prefixes its errors with the statement; the driver's reason is what helps.
  return String(message ?? error).replace(/^SELECT [^-]* - /, '');
}
