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
  /** How long a statement waits for another connection's write lock (ms). */
  readonly busyTimeout: number;
}

export interface WorkerRequest {
  readonly id: number;
  readonly mode: 'column' | 'joined';
  readonly sql: string;
  readonly values: readonly unknown[];
}

export type WorkerResponse =
  | { readonly id: number; readonly ok: true; readonly column?: unknown[]; readonly bytes?: Buffer; readonly rows?: number; readonly milliseconds: number }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly code: string | null };

const setup = workerData as WorkerSetup;
const database = new Database(setup.filename, { fileMustExist: true, timeout: setup.busyTimeout });
database.pragma('query_only = ON');
registerSqlFunctions(database as unknown as SqliteConnection);
const statements = new SqliteStatements(database);
parentPort!.postMessage('ready');

parentPort!.on('message', (request: WorkerRequest) => {
  const started = performance.now();
  try {
    if (request.mode === 'column') {
      const column = statements.column(request.sql, request.values);
      parentPort!.postMessage({ id: request.id, ok: true, column, milliseconds: performance.now() - started } satisfies WorkerResponse);
    } else {
      const { bytes, rows } = statements.joined(request.sql, request.values);
      const response: WorkerResponse = { id: request.id, ok: true, bytes, rows, milliseconds: performance.now() - started };
      parentPort!.postMessage(response, [bytes.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const failure = error as { message?: string; code?: string };
    parentPort!.postMessage({ id: request.id, ok: false, message: String(failure.message ?? error), code: failure.code ?? null } satisfies WorkerResponse);
  }
});
