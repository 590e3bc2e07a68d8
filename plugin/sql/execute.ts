/**
 * Runs compiled statements: the only code that talks to the database on the request path.
 * It borrows a raw connection from knex's pool and keeps prepared statements per SQL text
 * (better-sqlite3 statements; named PostgreSQL prepared statements), so a query shape is
 * parsed and planned once. Results come back as the JSON text the database built.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { clientOf } from '../storage/database.js';
import type { Dialect } from './dialect/dialect.js';
import { postgresDialect } from './dialect/postgres.js';
import { sqliteDialect } from './dialect/sqlite.js';
import type { Statement } from './compile.js';

/** Time spent in the database and statements run, for the Server-Timing header. */
export interface ExecutionStats {
  statements: number;
  milliseconds: number;
}

export interface Executor {
  readonly dialect: Dialect;
  /** The first column of every row. */
  column(statement: Statement, stats: ExecutionStats): Promise<unknown[]>;
}

const MAX_CACHED_STATEMENTS = 500;

interface SqliteStatement {
  all(bindings: unknown): unknown[];
}
interface SqliteConnection {
  prepare(sql: string): { pluck(toggle?: boolean): SqliteStatement };
}
interface PostgresConnection {
  query(config: { text: string; values: readonly unknown[]; rowMode: 'array'; name?: string }): Promise<{ rows: unknown[][] }>;
  query(text: string): Promise<unknown>;
  /** pg's record of the statements prepared on this connection. */
  connection: { parsedStatements: Record<string, string> };
}

/**
 * Prepared statements a PostgreSQL connection keeps before they are all released: each distinct
 * query shape prepares one, and callers choose the shapes.
 */
const MAX_PREPARED_PER_CONNECTION = 200;

export function createExecutor(knex: Knex): Executor {
  return clientOf(knex) === 'postgres' ? postgresExecutor(knex) : sqliteExecutor(knex);
}

function sqliteExecutor(knex: Knex): Executor {
  const caches = new WeakMap<object, Map<string, SqliteStatement>>();
  return {
    dialect: sqliteDialect,
    async column(statement, stats) {
      const connection = (await knex.client.acquireConnection()) as SqliteConnection;
      try {
        let cache = caches.get(connection);
        if (!cache) caches.set(connection, (cache = new Map()));
        let prepared = cache.get(statement.sql);
        if (!prepared) {
          prepared = connection.prepare(statement.sql).pluck(true);
          if (cache.size >= MAX_CACHED_STATEMENTS) cache.delete(cache.keys().next().value as string);
          cache.set(statement.sql, prepared);
        }
        return timed(stats, () => prepared.all(sqliteDialect.bindings(statement.values)));
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
  };
}

function postgresExecutor(knex: Knex): Executor {
  return {
    dialect: postgresDialect,
    async column(statement, stats) {
      const connection = (await knex.client.acquireConnection()) as PostgresConnection;
      try {
        const name = `content_api_${createHash('sha1').update(statement.sql).digest('hex').slice(0, 20)}`;
        const prepared = connection.connection.parsedStatements;
        if (!(name in prepared) && Object.keys(prepared).length >= MAX_PREPARED_PER_CONNECTION) {
          await connection.query('DEALLOCATE ALL');
          connection.connection.parsedStatements = {};
        }
        const result = await timedAsync(stats, () =>
          connection.query({ text: statement.sql, values: statement.values, rowMode: 'array', name }),
        );
        return result.rows.map((row) => row[0]);
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
  };
}

function timed<T>(stats: ExecutionStats, run: () => T): T {
  const started = performance.now();
  try {
    return run();
  } finally {
    stats.statements += 1;
    stats.milliseconds += performance.now() - started;
  }
}

async function timedAsync<T>(stats: ExecutionStats, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    stats.statements += 1;
    stats.milliseconds += performance.now() - started;
  }
}
