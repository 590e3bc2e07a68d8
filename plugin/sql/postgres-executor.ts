/**
 * PostgreSQL statements: named prepared statements on knex's pools, with `statement_timeout` as
 * the request's deadline, spread over read replicas when there are some (read-targets.ts). A
 * server that cannot be reached, or that drops the connection under a statement, is a 503 — after
 * the statement was tried on every other target the deadline allows: reading twice is harmless.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Knex } from 'knex';
import { ServiceUnavailableError } from '../errors.js';
import type { Statement } from './compile.js';
import { postgresDialect } from './dialect/postgres.js';
import { countStatement, DEFAULT_TIMEOUT_MS, queueFor, type ExecutionOptions, type ExecutionStats, type Executor } from './executor.js';
import { ReadTargets } from './read-targets.js';
import { StatementCosts } from './statement-costs.js';

/**
 * Prepared statements a connection keeps before they are all released: each distinct query shape
 * prepares one, and callers choose the shapes.
 */
const MAX_PREPARED_PER_CONNECTION = 200;

interface PostgresConnection {
  query(config: { text: string; values: readonly unknown[]; rowMode: 'array'; name?: string }): Promise<{ rows: unknown[][] }>;
  query(text: string): Promise<unknown>;
  /** pg's record of the statements prepared on this connection. */
  connection: { parsedStatements: Record<string, string> };
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
  const targets = new ReadTargets(primary, options.replicas ?? []);
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
      const name = `content_api_${createHash('sha1').update(statement.sql).digest('hex').slice(0, 20)}`;
      const prepared = connection.connection.parsedStatements;
      if (!(name in prepared) && Object.keys(prepared).length >= MAX_PREPARED_PER_CONNECTION) {
        await connection.query('DEALLOCATE ALL');
        connection.connection.parsedStatements = {};
      }
      const started = performance.now();
      const result = await connection.query({ text: statement.sql, values: statement.values, rowMode: 'array', name });
      return { rows: result.rows, milliseconds: performance.now() - started };
    } catch (error) {
      // 57014: canceled by statement_timeout.
      if ((error as { code?: unknown }).code === '57014') throw new ServiceUnavailableError('The request did not complete in time', 1);
      throw connectionLost(error) ? new TargetUnavailable(error) : error;
    } finally {
      await knex.client.releaseConnection(connection);
    }
  };

  /**
   * Every row. `shape` is the statement whose cost this run counts for (a wrapped statement counts
   * for the one it wraps).
   */
  const rows = async (statement: Statement, stats: ExecutionStats, deadline: number, shape = statement.sql): Promise<unknown[][]> => {
    const release = await admission.acquire(deadline, costs.isHeavy(shape));
    try {
      let lastFailure: unknown = null;
      for (const target of targets.order()) {
        if (lastFailure !== null && Date.now() >= deadline) break;
        try {
          const ran = await runOn(target, statement);
          targets.answered(target);
          countStatement(stats, admission, ran.milliseconds);
          costs.record(shape, ran.milliseconds);
          return ran.rows;
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

  return {
    dialect: postgresDialect,
    column: async (statement, stats, deadline) => (await rows(statement, stats, deadline)).map((row) => row[0]),
    async body(statement, stats, deadline, maxBytes = Infinity) {
      // pg decodes every value into a string (its protocol parser has no binary path), so the
      // body is encoded back once here: one string per response, not one per entry.
      const [row] = (await rows(withinBudget(statement, maxBytes), stats, deadline, statement.sql)) as [string | null, number, number][];
      const [body, size, entries] = row!;
      return { bytes: body === null ? Buffer.alloc(0) : Buffer.from(body), rows: entries, size };
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * The connection broke under the statement: the server shut down or restarted (57P01–57P03),
 * the connection failed (class 08), or the socket closed. pg marks such a connection and knex's
 * pool discards it; the next statement connects afresh.
 */
function connectionLost(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (/^57P0[1-3]$/.test(code) || code.startsWith('08') || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
  return typeof message === 'string' && /Connection terminated|connection is closed|not queryable/i.test(message);
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
