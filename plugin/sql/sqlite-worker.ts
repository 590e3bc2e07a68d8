/**
 * A read worker: its own better-sqlite3 connection on the database file, in query-only mode, with
 * the same SQL functions as the plugin's connections. It answers one statement at a time; a
 * statement past its deadline is stopped by terminating the worker (sqlite-pool.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { registerSqlFunctions, type SqliteConnection } from '../storage/sql-functions.js';
import { SqliteStatements } from './sqlite-statements.js';

export interface WorkerSetup {
  readonly filename: string;
}

export interface WorkerRequest {
  readonly id: number;
  readonly mode: 'column' | 'joined';
  readonly sql: string;
  readonly values: readonly unknown[];
  /** When the request must be answered by (epoch ms). */
  readonly deadline: number;
  /** `joined`: the largest result worth joining, in bytes. */
  readonly maxBytes: number;
}

export type WorkerResponse =
  | { readonly id: number; readonly ok: true; readonly column?: unknown[]; readonly bytes?: Buffer; readonly rows?: number; readonly size?: number; readonly milliseconds: number }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly code: string | null };

const setup = workerData as WorkerSetup;
// No busy timeout in SQLite itself: a thread terminated while SQLite sleeps in its busy handler
// aborts the whole process when the wait ends in an error. Waits for another connection's write
// lock happen here instead, in short pauses, and end before the request's deadline.
const database = new Database(setup.filename, { fileMustExist: true, timeout: 0 });
database.pragma('query_only = ON');
registerSqlFunctions(database as unknown as SqliteConnection);
const statements = new SqliteStatements(database);
parentPort!.postMessage('ready');

const BUSY_PAUSE_MS = 5;
/** A busy worker gives up this long before the deadline, before the pool stops its thread. */
const GIVE_UP_BEFORE_DEADLINE_MS = 25;
const pause = new Int32Array(new SharedArrayBuffer(4));

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** Runs `work`, retried while another connection holds the lock and the deadline allows. */
function whenUnlocked<T>(request: WorkerRequest, work: () => T): T {
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || Date.now() + BUSY_PAUSE_MS >= request.deadline - GIVE_UP_BEFORE_DEADLINE_MS) throw error;
      Atomics.wait(pause, 0, 0, BUSY_PAUSE_MS);
    }
  }
}

parentPort!.on('message', (request: WorkerRequest) => {
  const started = performance.now();
  try {
    if (request.mode === 'column') {
      const column = whenUnlocked(request, () => statements.column(request.sql, request.values));
      parentPort!.postMessage({ id: request.id, ok: true, column, milliseconds: performance.now() - started } satisfies WorkerResponse);
    } else {
      const { bytes, rows, size } = whenUnlocked(request, () => statements.joined(request.sql, request.values, request.maxBytes));
      const response: WorkerResponse = { id: request.id, ok: true, bytes, rows, size, milliseconds: performance.now() - started };
      parentPort!.postMessage(response, [bytes.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const failure = error as { message?: string; code?: string };
    parentPort!.postMessage({ id: request.id, ok: false, message: String(failure.message ?? error), code: failure.code ?? null } satisfies WorkerResponse);
  }
});
