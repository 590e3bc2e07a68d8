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
import { countStatement, DEFAULT_TIMEOUT_MS, queueFor, type ExecutionOptions, type ExecutionStats, type Executor, type JoinedRows } from './executor.js';
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
   * The first `width` columns of every row (the first column alone when `width` is 1). `shape` is
   * the statement whose cost this run counts for (a wrapped statement counts for the one it wraps).
   */
  const column = async (statement: Statement, stats: ExecutionStats, deadline: number, width = 1, shape = statement.sql): Promise<unknown[]> => {
    const release = await admission.acquire(deadline, costs.isHeavy(shape));
    try {
      let lastFailure: unknown = null;
      for (const target of targets.order()) {
        if (lastFailure !== null && Date.now() >= deadline) break;
        try {
          const { rows, milliseconds } = await runOn(target, statement);
          targets.answered(target);
          countStatement(stats, admission, milliseconds);
          costs.record(shape, milliseconds);
          return width === 1 ? rows.map((row) => row[0]) : rows;
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
    column,
    async joined(statement, stats, deadline, maxBytes = Infinity) {
      // Light shapes take the faster way, a string per entry; heavy and new ones are joined and
      // measured by the database, so that no oversized result reaches this process.
      if (!costs.isHeavy(statement.sql)) return joinStrings((await column(statement, stats, deadline)) as string[], maxBytes);
      const [row] = (await column(joinedInDatabase(statement, maxBytes), stats, deadline, 3, statement.sql)) as [string | null, string, number][];
      const [body, size, rows] = row!;
      return { bytes: body === null ? Buffer.alloc(0) : Buffer.from(body), rows: Number(rows), size: Number(size) };
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
}

/** Joins the entries as UTF-8 with commas, measuring first: above `maxBytes`, nothing is encoded. */
function joinStrings(rows: readonly string[], maxBytes: number): JoinedRows {
  let size = Math.max(0, rows.length - 1);
  for (const row of rows) size += Buffer.byteLength(row);
  if (size > maxBytes) return { bytes: Buffer.alloc(0), rows: rows.length, size };
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  rows.forEach((row, index) => {
    if (index) bytes[offset++] = 0x2c;
    offset += bytes.write(row, offset);
  });
  return { bytes, rows: rows.length, size };
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
 * The entries joined by PostgreSQL itself into one value, with their byte length and count: the
 * driver then decodes one string instead of a string per entry, and a result above the budget
 * comes back as its size alone, so that a stranger's 49 MB populate never lands in this process's
 * memory (where its strings cost collection pauses to every request beside it). The aggregate
 * reads the entries in the order of their sorted subquery, as PostgreSQL does when nothing is
 * joined at the outer level.
 */
export function joinedInDatabase(statement: Statement, maxBytes: number): Statement {
  const budget = `$${statement.values.length + 1}::bigint`;
  return {
    sql:
      `SELECT CASE WHEN octet_length(joined) > ${budget} THEN NULL ELSE joined END, coalesce(octet_length(joined), 0), entries ` +
      `FROM (SELECT string_agg(entry::text, ',') AS joined, count(*) AS entries FROM (${statement.sql}) AS listed(entry)) AS counted`,
    values: [...statement.values, Number.isFinite(maxBytes) ? maxBytes : Number.MAX_SAFE_INTEGER],
  };
}
