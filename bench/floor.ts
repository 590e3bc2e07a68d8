/**
 * The floor of a query: its statements (floor-plan.ts) run by the driver directly in a loop, with
 * no HTTP and no Koa, as the server's executor runs them — what no server can go below. Measured
 * as CPU per request, like the served figure it divides: the bench process's CPU
 * (process.cpuUsage, every thread) and, on PostgreSQL, the CPU of the backend that ran them.
 *
 * - SQLite: a better-sqlite3 connection of its own on the benched file, set up as a read worker's
 *   (sqlite-worker.ts: query-only, the plugin's SQL functions), each statement prepared once and
 *   run with `.pluck()` and the dialect's named bindings (sqlite-statements.ts). The worker's
 *   joining of the rows into one buffer is the server's work, not the floor's.
 * - PostgreSQL: one pg connection with the plugin's session settings (postgres-session.ts), named
 *   prepared statements in array row mode, as postgres-executor.ts sends them. A heavy entries
 *   statement (its fastest of eight runs above HEAVY_STATEMENT_MS) is sent wrapped, joined by the
 *   database, as the executor sends heavy shapes; the executor's joining of light rows into one
 *   buffer is again the server's work.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Statement } from '../plugin/sql/compile.js';
import { sqliteDialect } from '../plugin/sql/dialect/sqlite.js';
import { joinedInDatabase } from '../plugin/sql/postgres-executor.js';
import { HEAVY_STATEMENT_MS } from '../plugin/sql/statement-costs.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../plugin/response-budget.js';
import { registerSqlFunctions, type SqliteConnection } from '../plugin/storage/sql-functions.js';
import type { BenchDatabase } from './engines.js';
import type { FloorStatements } from './floor-plan.js';
import type { PostgresSession } from './postgres-session.js';
import { cpuSpent, type CpuReading } from './proc-cpu.js';

export interface FloorFigures {
  /** CPU ms per request: the bench process's, plus the PostgreSQL backend's. */
  cpuMsPerRequest: number;
  /** Wall ms per request, one request at a time. */
  msPerRequest: number;
  /** PostgreSQL: the entries statement was heavy and sent joined by the database. */
  wrapped: boolean;
}

/** Runs one request's statements once. */
type Run = () => unknown;

interface FloorDriver {
  /** The request's statements, ready to run; `wrapped` when the entries statement was sent as the executor sends heavy ones. */
  prepare(statements: FloorStatements): Promise<{ run: Run; wrapped: boolean }>;
  /** CPU of the database's own processes (the PostgreSQL backend); empty for SQLite, which runs in this process. */
  databaseCpu(): CpuReading;
  close(): void;
}

/** Runs to warm the caches (and, on PostgreSQL, to judge the statement heavy or light, as StatementCosts does from its last eight). */
const WARM_RUNS = 8;

/** A driver for the floors of one database, to be closed after the last. */
export function floorDriver(database: BenchDatabase): FloorDriver {
  if (database.session) return postgresDriver(database.session);
  return sqliteDriver(database.url.slice('sqlite:'.length));
}

export async function measureFloor(driver: FloorDriver, statements: FloorStatements, seconds: number): Promise<FloorFigures> {
  const { run, wrapped } = await driver.prepare(statements);
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
  return { cpuMsPerRequest: cpu / runs, msPerRequest: elapsed / runs, wrapped };
}

function sqliteDriver(file: string): FloorDriver {
  const database = new Database(file, { fileMustExist: true, timeout: 0 });
  database.pragma('query_only = ON');
  registerSqlFunctions(database as unknown as SqliteConnection);
  const prepare = (statement: Statement) => {
    const prepared = database.prepare(statement.sql).pluck(true);
    const bindings = sqliteDialect.bindings(statement.values);
    return () => prepared.all(bindings);
  };
  return {
    async prepare({ entries, count }) {
      const runEntries = prepare(entries);
      const runCount = count ? prepare(count) : () => null;
      return { run: () => [runEntries(), runCount()], wrapped: false };
    },
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
    async prepare({ entries, count }) {
      const plain = send(entries);
      let fastest = Infinity;
      for (let index = 0; index < WARM_RUNS; index += 1) {
        const started = performance.now();
        await plain();
        fastest = Math.min(fastest, performance.now() - started);
      }
      const wrapped = fastest > HEAVY_STATEMENT_MS;
      const runEntries = wrapped ? send(joinedInDatabase(entries, DEFAULT_MAX_RESPONSE_BYTES)) : plain;
      const runCount = count ? send(count) : async () => null;
      return { run: async () => [await runEntries(), await runCount()], wrapped };
    },
    databaseCpu: () => session.ownCpu(),
    close: () => undefined,
  };
}
