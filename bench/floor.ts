/**
 * The floor of a query: its statement (floor-plan.ts) run by the driver directly in a loop, with
 * no HTTP and no Koa, as the server's executor runs it — what no server can go below. Measured
 * as CPU per request, like the served figure it divides: the bench process's CPU
 * (process.cpuUsage, every thread) and, on PostgreSQL, the CPU of the backend that ran it.
 *
 * - SQLite: a better-sqlite3 connection of its own on the benched file, set up as a read worker's
 *   (sqlite-worker.ts: query-only, the plugin's SQL functions), the statement prepared once and
 *   run with `.raw()` and the dialect's named bindings (sqlite-statements.ts).
 * - PostgreSQL: one pg connection with the plugin's session settings (postgres-session.ts), a named
 *   prepared statement in array row mode, wrapped with the response budget as postgres-executor.ts
 *   sends it. The server's encoding of the body string into bytes is the server's work.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Statement } from '../plugin/sql/compile.js';
import { withinBudget } from '../plugin/sql/postgres-executor.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../plugin/response-budget.js';
import { registerSqlFunctions, type SqliteConnection } from '../plugin/storage/sql-functions.js';
import type { BenchDatabase } from './engines.js';
import type { FloorStatements } from './floor-plan.js';
import type { PostgresSession } from './postgres-session.js';
import { warmStatement } from './warm-statement.js';
import { cpuSpent, type CpuReading } from './proc-cpu.js';

export interface FloorFigures {
  /** CPU ms per request: the bench process's, plus the PostgreSQL backend's. */
  cpuMsPerRequest: number;
  /** Wall ms per request, one request at a time. */
  msPerRequest: number;
}

/** Runs one request's statements once. */
type Run = () => unknown;

interface FloorDriver {
  /** The request's statement, ready to run. */
  prepare(statements: FloorStatements): Promise<Run>;
  /** CPU of the database's own processes (the PostgreSQL backend); empty for SQLite, which runs in this process. */
  databaseCpu(): CpuReading;
  close(): void;
}

/** Runs to warm the caches. */
const WARM_RUNS = 8;

/** A driver for the floors of one database, to be closed after the last. */
export function floorDriver(database: BenchDatabase): FloorDriver {
  if (database.session) return postgresDriver(database.session);
  return sqliteDriver(database.url.slice('sqlite:'.length));
}

export async function measureFloor(driver: FloorDriver, statements: FloorStatements, seconds: number): Promise<FloorFigures> {
  const run = await driver.prepare(statements);
  for (let index = 0; index < WARM_RUNS; index += 1) await run();
  const cpuBefore = process.cpuUsage();
  const databaseBefore = driver.databaseCpu();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let runs = 0;
  while (performance.now() < deadline) {
    await run();
    runs += 1;
  }
  const elapsed = performance.now() - started;
  const own = process.cpuUsage(cpuBefore);
  const cpu = (own.user + own.system) / 1000 + cpuSpent(databaseBefore, driver.databaseCpu());
  return { cpuMsPerRequest: cpu / runs, msPerRequest: elapsed / runs };
}

function sqliteDriver(file: string): FloorDriver {
  const database = new Database(file, { fileMustExist: true, timeout: 0 });
  database.pragma('query_only = ON');
  registerSqlFunctions(database as unknown as SqliteConnection);
  return {
    prepare: async ({ body }) => warmStatement(database, body),
    databaseCpu: () => new Map(),
    close: () => database.close(),
  };
}

function postgresDriver(session: PostgresSession): FloorDriver {
  const send = (statement: Statement) => {
    // The executor's name for the statement: each shape is prepared once per connection.
    const name = `content_api_${createHash('sha1').update(statement.sql).digest('hex').slice(0, 20)}`;
    return () => session.client.query({ text: statement.sql, values: statement.values as unknown[], rowMode: 'array', name });
  };
  return {
    prepare: async ({ body }) => send(withinBudget(body, DEFAULT_MAX_RESPONSE_BYTES)),
    databaseCpu: () => session.ownCpu(),
    close: () => undefined,
  };
}
