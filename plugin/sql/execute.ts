/**
 * Runs compiled statements: the only code that talks to the database on the request path. Every
 * statement passes admission control (admission.ts) and carries its request's deadline. SQLite
 * reads run in worker threads (sqlite-pool.ts) when the database is a file; PostgreSQL statements
 * are named prepared statements on knex's pool, with `statement_timeout` as the deadline. Entries
 * come back as bytes, joined with commas, ready for the envelope.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Knex } from 'knex';
import { ServiceUnavailableError } from '../errors.js';
import { clientOf } from '../storage/database.js';
import { registerSqlFunctions, type SqliteConnection } from '../storage/sql-functions.js';
import { AdmissionQueue } from './admission.js';
import type { Dialect } from './dialect/dialect.js';
import { postgresDialect } from './dialect/postgres.js';
import { sqliteDialect } from './dialect/sqlite.js';
import type { Statement } from './compile.js';
import { SqlitePool } from './sqlite-pool.js';
import { StatementCosts } from './statement-costs.js';
import { SqliteStatements, type JoinedRows, type SqliteReadConnection } from './sqlite-statements.js';

export type { JoinedRows } from './sqlite-statements.js';

/** Time spent in the database and statements run, for the Server-Timing header. */
export interface ExecutionStats {
  statements: number;
  milliseconds: number;
}

export interface Executor {
  readonly dialect: Dialect;
  /** The first column of every row. */
  column(statement: Statement, stats: ExecutionStats, deadline: number): Promise<unknown[]>;
  /** The first column of every row as UTF-8 bytes, joined with commas; nothing is joined when they measure more than `maxBytes`. */
  joined(statement: Statement, stats: ExecutionStats, deadline: number, maxBytes?: number): Promise<JoinedRows>;
  /** Settles once the executor can run statements (the read workers have opened the database). */
  ready(): Promise<void>;
  /** Stops the read workers. */
  close(): Promise<void>;
}

export interface ExecutionOptions {
  /** A request's time budget, in ms (default 10 s). */
  readonly timeout?: number;
  /** Statements running at once (default 4 per core; on SQLite, one per read worker). */
  readonly maxConcurrentStatements?: number;
  /** Statements waiting their turn before new ones are refused (default 64 per running one). */
  readonly maxQueuedStatements?: number;
  /** SQLite read worker threads (default: one per core and one for light statements; 0 runs statements on the event loop). */
  readonly sqliteReadWorkers?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Prepared statements a PostgreSQL connection keeps before they are all released: each distinct
 * query shape prepares one, and callers choose the shapes.
 */
const MAX_PREPARED_PER_CONNECTION = 200;

export function createExecutor(knex: Knex, options: ExecutionOptions = {}): Executor {
  return clientOf(knex) === 'postgres' ? postgresExecutor(knex, options) : sqliteExecutor(knex, options);
}

function queueFor(limit: number, heavyLimit: number, options: ExecutionOptions): AdmissionQueue {
  return new AdmissionQueue(limit, options.maxQueuedStatements ?? limit * 64, Math.max(1, Math.min(limit, heavyLimit)));
}

/** The file a SQLite knex instance opens; null for in-memory databases, which workers cannot share. */
function sqliteFile(knex: Knex): string | null {
  const connection = knex.client.config.connection as { filename?: string } | undefined;
  const filename = connection?.filename;
  return filename && filename !== ':memory:' && !filename.startsWith('file::memory:') ? filename : null;
}

function sqliteExecutor(knex: Knex, options: ExecutionOptions): Executor {
  // One thread per core for heavy statements, and one more that only light ones may take.
  const workers = options.sqliteReadWorkers ?? availableParallelism() + 1;
  const file = sqliteFile(knex);
  if (!file || workers <= 0) return inProcessSqliteExecutor(knex, options);
  const pool = new SqlitePool({ filename: file }, workers);
  const admission = queueFor(pool.size, pool.size - 1, options);
  const costs = new StatementCosts();
  const run = async <T>(statement: Statement, stats: ExecutionStats, deadline: number, work: () => Promise<{ value: T; milliseconds: number }>): Promise<T> => {
    const release = await admission.acquire(deadline, costs.isHeavy(statement.sql));
    try {
      const { value, milliseconds } = await work();
      admission.record(milliseconds);
      costs.record(statement.sql, milliseconds);
      stats.statements += 1;
      stats.milliseconds += milliseconds;
      return value;
    } catch (error) {
      throw unavailableOnBusy(error);
    } finally {
      release();
    }
  };
  return {
    dialect: sqliteDialect,
    column: (statement, stats, deadline) => run(statement, stats, deadline, () => pool.column(statement.sql, statement.values, deadline)),
    joined: (statement, stats, deadline, maxBytes = Infinity) => run(statement, stats, deadline, () => pool.joined(statement.sql, statement.values, deadline, maxBytes)),
    ready: () => pool.ready,
    close: () => pool.close(),
  };
}

/** On the event loop, through knex's connection: for in-memory databases, or when asked. No deadline can stop a statement here. */
function inProcessSqliteExecutor(knex: Knex, options: ExecutionOptions): Executor {
  const runners = new WeakMap<object, SqliteStatements>();
  const admission = queueFor(1, 1, options);
  const run = async <T>(stats: ExecutionStats, deadline: number, work: (statements: SqliteStatements) => T): Promise<T> => {
    const release = await admission.acquire(deadline);
    const connection = (await knex.client.acquireConnection()) as SqliteReadConnection;
    try {
      let statements = runners.get(connection);
      if (!statements) {
        // A host's own knex connections lack the plugin's SQL functions until now.
        registerSqlFunctions(connection as unknown as SqliteConnection);
        runners.set(connection, (statements = new SqliteStatements(connection)));
      }
      const started = performance.now();
      const value = work(statements);
      const milliseconds = performance.now() - started;
      admission.record(milliseconds);
      stats.statements += 1;
      stats.milliseconds += milliseconds;
      return value;
    } catch (error) {
      throw unavailableOnBusy(error);
    } finally {
      await knex.client.releaseConnection(connection);
      release();
    }
  };
  return {
    dialect: sqliteDialect,
    column: (statement, stats, deadline) => run(stats, deadline, (statements) => statements.column(statement.sql, statement.values)),
    joined: (statement, stats, deadline, maxBytes = Infinity) => run(stats, deadline, (statements) => statements.joined(statement.sql, statement.values, maxBytes)),
    ready: async () => undefined,
    close: async () => undefined,
  };
}

/** Another connection held the write lock past the busy timeout: the request may be retried. */
function unavailableOnBusy(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' ? new ServiceUnavailableError('The database is busy; retry later', 1) : error;
}

/** The server is unreachable, or no pooled connection came within the connect timeout. */
function databaseUnavailable(error: unknown): ServiceUnavailableError {
  return Object.assign(new ServiceUnavailableError('The database is unavailable; retry later', 2), { cause: error });
}

/**
 * The connection broke under the statement: the server shut down or restarted (57P01–57P03),
 * the connection failed (class 08), or the socket closed. pg marks such a connection and knex's
 * pool discards it; the next request connects afresh.
 */
function connectionLost(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (/^57P0[1-3]$/.test(code) || code.startsWith('08') || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
  return typeof message === 'string' && /Connection terminated|connection is closed|not queryable/i.test(message);
}

/**
 * The entries joined by PostgreSQL itself into one value, with their byte length and count: the
 * driver then decodes one string instead of a string per entry, and a result above the budget
 * comes back as its size alone, so that a stranger's 49 MB populate never lands in this process's
 * memory (where its strings cost collection pauses to every request beside it). The aggregate
 * reads the entries in the order of their sorted subquery, as PostgreSQL does when nothing is
 * joined at the outer level.
 */
function joinedInDatabase(statement: Statement, maxBytes: number): Statement {
  const budget = `$${statement.values.length + 1}::bigint`;
  return {
    sql:
      `SELECT CASE WHEN octet_length(joined) > ${budget} THEN NULL ELSE joined END, coalesce(octet_length(joined), 0), entries ` +
      `FROM (SELECT string_agg(entry::text, ',') AS joined, count(*) AS entries FROM (${statement.sql}) AS listed(entry)) AS counted`,
    values: [...statement.values, Number.isFinite(maxBytes) ? maxBytes : Number.MAX_SAFE_INTEGER],
  };
}

interface PostgresConnection {
  query(config: { text: string; values: readonly unknown[]; rowMode: 'array'; name?: string }): Promise<{ rows: unknown[][] }>;
  query(text: string): Promise<unknown>;
  /** pg's record of the statements prepared on this connection. */
  connection: { parsedStatements: Record<string, string> };
}

function postgresExecutor(knex: Knex, options: ExecutionOptions): Executor {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  // Heavy statements at most one per core: the server's processes then leave room for light ones.
  const admission = queueFor(options.maxConcurrentStatements ?? 4 * availableParallelism(), availableParallelism(), options);
  const costs = new StatementCosts();
  // The deadline is the connection's statement_timeout, set once per connection the plugin uses.
  const timed = new WeakSet<object>();
  /** The first `width` columns of every row (the first column alone when `width` is 1). */
  const column = async (statement: Statement, stats: ExecutionStats, deadline: number, width = 1): Promise<unknown[]> => {
    const release = await admission.acquire(deadline, costs.isHeavy(statement.sql));
    let connection: PostgresConnection;
    try {
      connection = (await knex.client.acquireConnection()) as PostgresConnection;
    } catch (error) {
      release();
      throw databaseUnavailable(error);
    }
    try {
      if (!timed.has(connection)) {
        await connection.query(`SET statement_timeout = ${Math.max(1, Math.floor(timeout))}`);
        timed.add(connection);
      }
      const name = `content_api_${createHash('sha1').update(statement.sql).digest('hex').slice(0, 20)}`;
      const prepared = connection.connection.parsedStatements;
      if (!(name in prepared) && Object.keys(prepared).length >= MAX_PREPARED_PER_CONNECTION) {
        await connection.query('DEALLOCATE ALL');
        connection.connection.parsedStatements = {};
      }
      const started = performance.now();
      const result = await connection.query({ text: statement.sql, values: statement.values, rowMode: 'array', name });
      const milliseconds = performance.now() - started;
      admission.record(milliseconds);
      costs.record(statement.sql, milliseconds);
      stats.statements += 1;
      stats.milliseconds += milliseconds;
      return width === 1 ? result.rows.map((row) => row[0]) : result.rows;
    } catch (error) {
      // 57014: canceled by statement_timeout.
      if ((error as { code?: unknown }).code === '57014') throw new ServiceUnavailableError('The request did not complete in time', 1);
      throw connectionLost(error) ? databaseUnavailable(error) : error;
    } finally {
      await knex.client.releaseConnection(connection);
      release();
    }
  };
  return {
    dialect: postgresDialect,
    column,
    async joined(statement, stats, deadline, maxBytes = Infinity) {
      const [row] = (await column(joinedInDatabase(statement, maxBytes), stats, deadline, 3)) as [string | null, string, number][];
      const [body, size, rows] = row!;
      return { bytes: body === null ? Buffer.alloc(0) : Buffer.from(body), rows: Number(rows), size: Number(size) };
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
}
