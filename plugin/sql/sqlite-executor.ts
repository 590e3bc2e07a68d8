/**
 * SQLite statements: in worker threads (sqlite-pool.ts) when the database is a file, each stopped
 * at its request's deadline; on the event loop, through knex's connection, for in-memory
 * databases or when asked. Entries come back as bytes, joined with commas in the worker.
 */
import { availableParallelism } from 'node:os';
import type { Knex } from 'knex';
import { ServiceUnavailableError } from '../errors.js';
import { registerSqlFunctions, type SqliteConnection } from '../storage/sql-functions.js';
import type { Statement } from './compile.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { countStatement, queueFor, type ExecutionOptions, type ExecutionStats, type Executor } from './executor.js';
import { SqlitePool, type PooledResult } from './sqlite-pool.js';
import { StatementCosts } from './statement-costs.js';
import { SqliteStatements, type JoinedRows, type SqliteReadConnection } from './sqlite-statements.js';

/** The file a SQLite knex instance opens; null for in-memory databases, which workers cannot share. */
function sqliteFile(knex: Knex): string | null {
  const connection = knex.client.config.connection as { filename?: string } | undefined;
  const filename = connection?.filename;
  return filename && filename !== ':memory:' && !filename.startsWith('file::memory:') ? filename : null;
}

export function sqliteExecutor(knex: Knex, options: ExecutionOptions): Executor {
  // One thread per core for heavy statements, and one more that only light ones may take.
  const workers = options.sqliteReadWorkers ?? availableParallelism() + 1;
  const file = sqliteFile(knex);
  if (!file || workers <= 0) return inProcessSqliteExecutor(knex, options);
  const pool = new SqlitePool(file, workers);
  const admission = queueFor(pool.size, pool.size - 1, options);
  const costs = new StatementCosts();
  /** One job for one worker, running `statements` (heavy when one of them is), each counted with its own time. */
  const run = async <T>(statements: readonly Statement[], stats: ExecutionStats, deadline: number, work: () => Promise<{ value: T; milliseconds: readonly number[] }>): Promise<T> => {
    const release = await admission.acquire(deadline, statements.some((statement) => costs.isHeavy(statement.sql)));
    try {
      const { value, milliseconds } = await work();
      statements.forEach((statement, index) => {
        countStatement(stats, admission, milliseconds[index]!);
        costs.record(statement.sql, milliseconds[index]!);
      });
      return value;
    } catch (error) {
      throw unavailableOnBusy(error);
    } finally {
      release();
    }
  };
  return {
    dialect: sqliteDialect,
    column: (statement, stats, deadline) => run([statement], stats, deadline, () => alone(pool.column(statement.sql, statement.values, deadline))),
    joined: (statement, stats, deadline, maxBytes = Infinity) => run([statement], stats, deadline, () => alone(pool.joined(statement.sql, statement.values, deadline, maxBytes))),
    list: (entries, count, stats, deadline, maxBytes = Infinity) =>
      run([entries, count], stats, deadline, async () => {
        const ran = await pool.list(entries, count, deadline, maxBytes);
        return { value: [ran.entries.value, ran.count.value] as [JoinedRows, unknown[]], milliseconds: [ran.entries.milliseconds, ran.count.milliseconds] };
      }),
    ready: () => pool.ready,
    close: () => pool.close(),
  };
}

/** A job that ran one statement, as `run` counts them. */
async function alone<T>(result: Promise<PooledResult<T>>): Promise<{ value: T; milliseconds: readonly number[] }> {
  const { value, milliseconds } = await result;
  return { value, milliseconds: [milliseconds] };
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
      countStatement(stats, admission, performance.now() - started);
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
