/**
 * PostgreSQL statements: named prepared statements on knex's pools, with `statement_timeout` as
 * the request's deadline, spread over read replicas when there are some (read-targets.ts). A
 * server that cannot be reached, or that drops the connection under a statement, is a 503 — after
 * the statement was tried on every other target the deadline allows: reading twice is harmless.
 * Heavy bodies are read by body workers on connections of their own (postgres-body-pool.ts), so
 * that the event loop receives their bytes, not megabytes of string to decode and encode.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Knex } from 'knex';
import { ServiceUnavailableError } from '../errors.js';
import type { Statement } from './compile.js';
import { postgresDialect } from './dialect/postgres.js';
import { countStatement, DEFAULT_TIMEOUT_MS, estimatedLight, queueFor, type ExecutionOptions, type ExecutionStats, type Executor, type StatementHints } from './executor.js';
import { ReadTargets } from './read-targets.js';
import { BodyWorkerFailure, PostgresBodyPool } from './postgres-body-pool.js';
import { connectionLost, makeRoomToPrepare, timedOut, type PreparingConnection } from './postgres-connections.js';
import { StatementCosts } from './statement-costs.js';

interface PostgresConnection extends PreparingConnection {
  query(config: { text: string; values: readonly unknown[]; rowMode: 'array'; name?: string }): Promise<{ rows: unknown[][] }>;
  query(text: string): Promise<unknown>;
}

/** A target could not run the statement for reasons of its own: another target may. */
class TargetUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super('database unavailable');
  }
}

export function postgresExecutor(primary: Knex, options: ExecutionOptions): Executor {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  // Heavy statements at most one per core: the server's processes then leave room for light ones.
  const admission = queueFor(options.maxConcurrentStatements ?? 4 * availableParallelism(), availableParallelism(), options);
  const costs = new StatementCosts();
  const targets = new ReadTargets(primary, options.replicas ?? [], options.replicaSetAside);
  const databases = [primary, ...(options.replicas ?? [])];
  // One body worker per heavy statement admission lets run at once.
  const bodies = PostgresBodyPool.for(databases, { size: availableParallelism(), statementTimeout: timeout });
  // The deadline is the connection's statement_timeout, set once per connection the plugin uses.
  const timed = new WeakSet<object>();

  const runOn = async (knex: Knex, statement: Statement): Promise<{ rows: unknown[][]; milliseconds: number }> => {
    let connection: PostgresConnection;
    try {
      connection = (await knex.client.acquireConnection()) as PostgresConnection;
    } catch (error) {
      throw new TargetUnavailable(error);
    }
    try {
      if (!timed.has(connection)) {
        await connection.query(`SET statement_timeout = ${Math.max(1, Math.floor(timeout))}`);
        timed.add(connection);
      }
      const name = statementName(statement);
      await makeRoomToPrepare(connection, name);
      const started = performance.now();
      const result = await connection.query({ text: statement.sql, values: statement.values, rowMode: 'array', name });
      return { rows: result.rows, milliseconds: performance.now() - started };
    } catch (error) {
      throw failed(error, connectionLost(error));
    } finally {
      await knex.client.releaseConnection(connection);
    }
  };

  /**
   * `run` on the first target that answers, within admission. `shape` is the statement whose cost
   * this run counts for (a wrapped statement counts for the one it wraps).
   */
  const onATarget = async <T>(shape: string, stats: ExecutionStats, deadline: number, run: (target: Knex, heavy: boolean) => Promise<{ value: T; milliseconds: number }>, hints: StatementHints = {}): Promise<T> => {
    const heavy = costs.isHeavy(shape, estimatedLight(hints));
    const release = await admission.acquire(deadline, heavy, hints.caller);
    try {
      let lastFailure: unknown = null;
      for (const target of targets.order()) {
        if (lastFailure !== null && Date.now() >= deadline) break;
        try {
          const ran = await run(target, heavy);
          targets.answered(target);
          countStatement(stats, admission, ran.milliseconds);
          costs.record(shape, ran.milliseconds);
          return ran.value;
        } catch (error) {
          if (!(error instanceof TargetUnavailable)) throw error;
          targets.failed(target);
          lastFailure = error.reason;
        }
      }
      throw Object.assign(new ServiceUnavailableError('The database is unavailable; retry later', 2), { cause: lastFailure });
    } finally {
      release();
    }
  };

  const rowsOn = async (target: Knex, statement: Statement) => {
    const ran = await runOn(target, statement);
    return { value: ran.rows, milliseconds: ran.milliseconds };
  };

  /** A heavy body, read by a body worker (postgres-body-pool.ts) so that the event loop only receives its bytes. */
  const bodyByWorker = async (pool: PostgresBodyPool, target: Knex, statement: Statement) => {
    try {
      const ran = await pool.body(databases.indexOf(target), statement.sql, statement.values, statementName(statement));
      return { value: ran.body, milliseconds: ran.milliseconds };
    } catch (error) {
      throw error instanceof BodyWorkerFailure ? failed(error, error.lost) : error;
    }
  };

  return {
    dialect: postgresDialect,
    column: async (statement, stats, deadline, hints) =>
      (await onATarget(statement.sql, stats, deadline, (target) => rowsOn(target, statement), hints)).map((row) => row[0]),
    async body(statement, stats, deadline, maxBytes = Infinity, hints) {
      const wrapped = withinBudget(statement, maxBytes);
      return onATarget(statement.sql, stats, deadline, async (target, heavy) => {
        if (heavy && bodies) return bodyByWorker(bodies, target, wrapped);
        // pg decodes every value into a string (its protocol parser has no binary path), so the
        // body is encoded back once here: one string per response, not one per entry.
        const ran = await rowsOn(target, wrapped);
        const [body, size, entries] = ran.value[0] as [string | null, number, number];
        return { value: { bytes: body === null ? Buffer.alloc(0) : Buffer.from(body), rows: entries, size }, milliseconds: ran.milliseconds };
      }, hints);
    },
    ready: async () => undefined,
    close: async () => {
      await bodies?.close();
    },
  };
}

/** The prepared statement's name: each shape is prepared once per connection. */
function statementName(statement: Statement): string {
  return `content_api_${createHash('sha1').update(statement.sql).digest('hex').slice(0, 20)}`;
}

/** A statement's failure as the executor answers it: past the deadline a 503, on a lost connection another target's turn. */
function failed(error: unknown, lost: boolean): unknown {
  if (timedOut(error)) return new ServiceUnavailableError('The request did not complete in time', 1);
  return lost ? new TargetUnavailable(error) : error;
}

/**
 * A body statement whose body comes back only within the budget: above it, as its size alone, so
 * that a stranger's 49 MB populate never lands in this process's memory. (The subquery is an
 * aggregate, which PostgreSQL does not merge into this query: the body is built once.)
 */
export function withinBudget(statement: Statement, maxBytes: number): Statement {
  const budget = `$${statement.values.length + 1}::bigint`;
  return {
    sql: `SELECT CASE WHEN octet_length(body) > ${budget} THEN NULL ELSE body END, octet_length(body), entries::integer FROM (${statement.sql}) AS built`,
    values: [...statement.values, Number.isFinite(maxBytes) ? maxBytes : Number.MAX_SAFE_INTEGER],
  };
}
