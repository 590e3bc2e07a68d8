/**
 * MariaDB and MySQL statements: prepared statements on a mysql2 pool of the executor's own, whose
 * sessions read the shared SQL (double-quoted identifiers, `||`, plain backslashes: see
 * storage/mysql-session.ts) and carry the deadline as `max_statement_time`. A body comes as its
 * pieces, binary strings that mysql2 hands over as Buffers without decoding them (mysql-body.ts).
 *
 * The pool is the executor's own (not knex's) because those session settings would change how
 * knex's own queries are read: knex escapes values into the text with backslashes. With read
 * replicas there is one such pool per server, and reads are spread over them (read-targets.ts).
 */
import { availableParallelism } from 'node:os';
import type { Knex } from 'knex';
import { createPool, type Pool, type PoolOptions } from 'mysql2/promise';
import { ServiceUnavailableError } from '../errors.js';
import { connectionSettingsOf, DEFAULT_CONNECT_TIMEOUT_MS } from '../storage/database.js';
import { mysqlConnectionConfig, mysqlReadSession } from '../storage/mysql-session.js';
import type { Statement } from './compile.js';
import { mysqlDialect, mysqlVersionedDialect } from './dialect/mysql.js';
import { readBodyPieces } from './mysql-body.js';
import { MysqlKnownTotals } from './mysql-known-totals.js';
import { positionalStatement } from './positional.js';
import { ReadTargets } from './read-targets.js';
import { countStatement, DEFAULT_TIMEOUT_MS, estimatedLight, queueFor, type ExecutionOptions, type ExecutionStats, type Executor, type StatementHints } from './executor.js';
import { StatementCosts } from './statement-costs.js';

export function mysqlExecutor(knex: Knex, options: ExecutionOptions): Executor {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const limit = options.maxConcurrentStatements ?? 4 * availableParallelism();
  const admission = queueFor(limit, availableParallelism(), options);
  const costs = new StatementCosts();
  const openPool = (database: Knex): Pool => {
    const pool = createPool({ ...poolOptionsOf(database), connectionLimit: limit, maxIdle: limit });
    // Every new connection of the pool gets the read session before its first statement.
    (pool as unknown as { pool: { on(event: 'connection', listener: (connection: { query(sql: string): void }) => void): void } }).pool.on(
      'connection',
      (connection) => connection.query(mysqlReadSession(timeout)),
    );
    return pool;
  };
  const primary = openPool(knex);
  const replicas = (options.replicas ?? []).map(openPool);
  const targets = new ReadTargets(primary, replicas, options.replicaSetAside);
  const totals = options.tableVersions ? new MysqlKnownTotals(knex) : null;

  /** Runs `statement` under admission on the first target that answers, with `read` reading its result there. */
  const run = async <T>(statement: Statement, stats: ExecutionStats, deadline: number, hints: StatementHints, read: (target: Pool, sql: string, values: unknown[]) => Promise<T>): Promise<T> => {
    const heavy = costs.isHeavy(statement.sql, estimatedLight(hints));
    const release = await admission.acquire(deadline, heavy, hints.caller);
    try {
      const { sql, values } = positionalStatement(statement.sql, statement.values);
      let lastFailure: unknown = null;
      for (const target of targets.order()) {
        if (lastFailure !== null && Date.now() >= deadline) break;
        try {
          const started = performance.now();
          const result = await read(target, sql, values);
          const milliseconds = performance.now() - started;
          targets.answered(target);
          countStatement(stats, admission, milliseconds);
          costs.record(statement.sql, milliseconds);
          return result;
        } catch (error) {
          // A server that cannot be reached hands the statement to the next; any other error is the statement's.
          if (!isConnectionLost(error)) throw failed(error);
          targets.failed(target);
          lastFailure = error;
        }
      }
      throw failed(lastFailure);
    } finally {
      release();
    }
  };

  return {
    dialect: totals ? mysqlVersionedDialect : mysqlDialect,
    column: async (statement, stats, deadline, hints = {}) => {
      const rows = await run(statement, stats, deadline, hints, async (target, sql, values) => (await target.execute({ sql, values: values as never[], rowsAsArray: true }))[0]);
      return (rows as unknown[][]).map((row) => row[0]);
    },
    // The body statement's rows are the body's pieces (Dialect.bodyPieces), joined as they are read.
    body: async (statement, stats, deadline, maxBytes = Infinity, hints = {}) => {
      const { versionedTotal } = statement;
      if (!totals || !versionedTotal) return run(statement, stats, deadline, hints, (target, sql, values) => readBodyPieces(target.pool, sql, values, maxBytes));
      // A list's total, known while the versions of the tables its count reads are those it was counted at.
      const known = totals.prepare({ values: statement.values, versionedTotal });
      const { pair, ...body } = await run({ ...statement, values: known.values }, stats, deadline, hints, (target, sql, values) => readBodyPieces(target.pool, sql, values, maxBytes, true));
      if (known.keep(pair ?? null)) stats.totalsKnown = (stats.totalsKnown ?? 0) + 1;
      return body;
    },
    ready: async () => undefined,
    close: async () => {
      totals?.close();
      await Promise.all([primary, ...replicas].map((pool) => pool.end()));
    },
  };
}

/** The connection options of the knex instance, for a pool of the executor's own. */
function poolOptionsOf(knex: Knex): PoolOptions {
  const connection = knex.client.config.connection as unknown;
  const base = typeof connection === 'string' ? mysqlConnectionConfig(connection, DEFAULT_CONNECT_TIMEOUT_MS) : connectionSettingsOf(knex);
  return { ...base, charset: 'utf8mb4', supportBigNumbers: true, bigNumberStrings: false, waitForConnections: true } as PoolOptions;
}

/** 1969 (MariaDB max_statement_time), 3024 (MySQL max_execution_time): past the deadline. */
const TIMED_OUT = new Set([1969, 3024]);
const LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ER_SERVER_SHUTDOWN', 'ER_CON_COUNT_ERROR']);

/**
 * Errors of a server going away rather than of the statement: a lost connection, a connection
 * killed by a shutdown, or an error of the server's own files (MariaDB's global errors, numbered
 * below 1000: a temporary table it can no longer delete while it shuts down).
 */
/** 1053 ER_SERVER_SHUTDOWN, 1317 ER_QUERY_INTERRUPTED, 1927 ER_CONNECTION_KILLED (MariaDB). */
const GOING_AWAY = new Set([1053, 1317, 1927]);

function isConnectionLost(error: unknown): boolean {
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  if (typeof code === 'string' && LOST.has(code)) return true;
  return typeof errno === 'number' && (GOING_AWAY.has(errno) || (errno > 0 && errno < 1000));
}

function failed(error: unknown): unknown {
  const { errno } = error as { errno?: unknown };
  if (typeof errno === 'number' && TIMED_OUT.has(errno)) return new ServiceUnavailableError('The request did not complete in time', 1);
  if (isConnectionLost(error)) {
    return Object.assign(new ServiceUnavailableError('The database is unavailable; retry later', 2), { cause: error });
  }
  return error;
}
