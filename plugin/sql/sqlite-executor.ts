/**
 * SQLite statements: in worker threads (sqlite-pool.ts) when the database is a file, each stopped
 * at its request's deadline; on the event loop, through knex's connection, for in-memory
 * databases or when asked. The body comes back as the bytes the database built.
 *
 * Two lanes for a file database: a statement whose request is estimated tiny (estimate.ts
 * TINY_WORK) and whose shape's recent runs were tiny (statement-costs.ts) runs on the event
 * loop's own connection (sqlite-event-loop.ts), where it costs less than the hop to a worker
 * would; it takes no admission slot, since it holds the event loop for less than a request's
 * own parsing does. Every other statement goes to the workers through admission.
 */
import { availableParallelism } from 'node:os';
import type { Knex } from 'knex';
import { ServiceUnavailableError } from '../errors.js';
import { registerSqlFunctions, type SqliteConnection } from '../storage/sql-functions.js';
import { isSqliteBusy } from '../storage/sqlite-busy.js';
import type { Statement } from './compile.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { countStatement, estimatedLight, queueFor, type ExecutionOptions, type ExecutionStats, type Executor, type StatementHints } from './executor.js';
import { TINY_WORK } from './estimate.js';
import { EventLoopReads, type Ran } from './sqlite-event-loop.js';
import { SqlitePool, type PooledResult } from './sqlite-pool.js';
import { StatementCosts } from './statement-costs.js';
import { SqliteStatements, type SqliteReadConnection } from './sqlite-statements.js';

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
  const eventLoop = new EventLoopReads(file);
  /** The statement run on the event loop when it is tiny (and the database not locked by a writer), else null. */
  const onEventLoop = <T>(statement: Statement, stats: ExecutionStats, hints: StatementHints, work: () => Ran<T> | null): T | null => {
    if (hints.work === undefined || hints.work > TINY_WORK || !costs.isTiny(statement.sql)) return null;
    const ran = work();
    if (!ran) return null;
    stats.statements += 1;
    stats.milliseconds += ran.milliseconds;
    stats.onEventLoop = (stats.onEventLoop ?? 0) + 1;
    costs.record(statement.sql, ran.milliseconds);
    return ran.value;
  };
  /** One statement for one worker (heavy or light by its shape's recent runs), counted with its time. */
  const run = async <T>(statement: Statement, stats: ExecutionStats, deadline: number, work: (heavy: boolean) => Promise<PooledResult<T>>, hints: StatementHints = {}): Promise<T> => {
    const heavy = costs.isHeavy(statement.sql, estimatedLight(hints));
    const release = await admission.acquire(deadline, heavy, hints.caller);
    try {
      const { value, milliseconds } = await work(heavy);
      countStatement(stats, admission, milliseconds);
      costs.record(statement.sql, milliseconds);
      return value;
    } catch (error) {
      throw unavailableOnBusy(error);
    } finally {
      release();
    }
  };
  return {
    dialect: sqliteDialect,
    async column(statement, stats, deadline, hints = {}) {
      return (
        onEventLoop(statement, stats, hints, () => eventLoop.column(statement.sql, statement.values)) ??
        run(statement, stats, deadline, (heavy) => pool.column(statement.sql, statement.values, deadline, heavy), hints)
      );
    },
    async body(statement, stats, deadline, maxBytes = Infinity, hints = {}) {
      const body =
        onEventLoop(statement, stats, hints, () => eventLoop.body(statement, maxBytes)) ??
        (await run(statement, stats, deadline, (heavy) => pool.body(statement, deadline, maxBytes, heavy), hints));
      if (body.totalKnown) stats.totalsKnown = (stats.totalsKnown ?? 0) + 1;
      return body;
    },
    ready: () => pool.ready,
    close: async () => {
      eventLoop.close();
      await pool.close();
    },
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
    body: (statement, stats, deadline, maxBytes = Infinity) => run(stats, deadline, (statements) => statements.body(statement.sql, statement.values, maxBytes)),
    ready: async () => undefined,
    close: async () => undefined,
  };
}

/** Another connection held the write lock past the busy timeout: the request may be retried. */
function unavailableOnBusy(error: unknown): unknown {
  return isSqliteBusy(error) ? new ServiceUnavailableError('The database is busy; retry later', 1) : error;
}
