/**
 * The first statement on a database, run before anything else is built: a missing, unreadable or
 * corrupt SQLite file, or a PostgreSQL or MariaDB server that cannot be reached, becomes one readable error
 * naming the database, instead of a failure inside whatever statement happened to come first.
 */
import type { Knex } from 'knex';
import { clientOf, DatabaseUnavailable } from './database.js';

/** Where the database is, for messages: the SQLite file, or the server's host, port and database (never the password). */
export function describeDatabase(knex: Knex): string {
  const connection = knex.client.config.connection as { filename?: string; connectionString?: string; host?: string; port?: number; database?: string } | string | undefined;
  if (clientOf(knex) === 'sqlite') return `SQLite database ${typeof connection === 'object' ? connection.filename : '?'}`;
  if (clientOf(knex) === 'mysql') {
    // mysql2 takes its connection as fields (see mysql-session.ts), not as a URL.
    if (typeof connection !== 'object') return 'MariaDB';
    return `MariaDB at ${connection.host ?? 'localhost'}:${connection.port ?? 3306}/${connection.database ?? ''}`;
  }
  const url = typeof connection === 'string' ? connection : connection?.connectionString;
  try {
    const parsed = new URL(url ?? '');
    return `PostgreSQL at ${parsed.hostname || 'localhost'}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

export async function checkDatabase(knex: Knex): Promise<void> {
  try {
    // Reading the schema table makes SQLite read the file's header: a file that is not a database fails here.
    await knex.raw(clientOf(knex) === 'sqlite' ? 'SELECT count(*) FROM sqlite_master' : 'SELECT 1');
  } catch (error) {
    throw new DatabaseUnavailable(`cannot use the ${describeDatabase(knex)}: ${reason(error)}`);
  }
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'SQLITE_CANTOPEN') return 'the file does not exist or cannot be opened (it is created only when the schema is synced)';
  if (code === 'SQLITE_NOTADB') return 'the file is not a SQLite database';
  if (code === 'SQLITE_CORRUPT') return 'the file is corrupt';
  // knex prefixes its errors with the statement; the driver's reason is what helps.
  return String(message ?? error).replace(/^SELECT [^-]* - /, '');
}
