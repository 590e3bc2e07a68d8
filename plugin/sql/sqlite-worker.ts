/**
 * A read worker: its own better-sqlite3 connection on the database file, in query-only mode, with
 * the same SQL functions as the plugin's connections. It answers one statement at a time. A
 * statement past its deadline is cancelled through a flag the pool shares with the worker: the
 * checkpoint function every built entry calls reads it and throws, and SQLite abandons the
 * statement. The thread itself is never stopped while it runs SQLite: a thread stopped there
 * aborts the whole process when SQLite returns an error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { CANCELLED, registerSqlFunctions, type SqliteConnection } from '../storage/sql-functions.js';
import { isSqliteBusy } from '../storage/sqlite-busy.js';
import { BodySlabs, type SlabBody } from './body-slabs.js';
import type { GivenTotal } from './compile.js';
import { SqliteStatements } from './sqlite-statements.js';
import { setThisThreadNice } from './thread-priority.js';

export interface WorkerSetup {
  readonly filename: string;
  /** One Int32: nonzero while the running statement is cancelled (set by the pool, cleared before the next). */
  readonly cancel: SharedArrayBuffer;
  /** This thread's scheduling priority (sqlite-pool.ts). */
  readonly nice: number;
  /** Which of this worker's body slabs the event loop still reads (body-slabs.ts). */
  readonly lent: SharedArrayBuffer;
}

export interface WorkerRequest {
  readonly id: number;
  /** `body`: a body statement's one row (compile-body.ts). */
  readonly mode: 'column' | 'body';
  readonly sql: string;
  readonly values: readonly unknown[];
  /** When the request must be answered by (epoch ms). */
  readonly deadline: number;
  /** `body`: the largest body worth handing over, in bytes. */
  readonly maxBytes: number;
  /** `body`: a list's twin statement, run when its total is known (sqlite-known-totals.ts). */
  readonly givenTotal?: GivenTotal;
}

export type WorkerResponse =
  | {
      readonly id: number;
      readonly ok: true;
      readonly column?: unknown[];
      /** The body, transferred; or, for a large one, `lent` in one of the worker's slabs. */
      readonly bytes?: Buffer;
      readonly lent?: SlabBody;
      readonly rows?: number;
      readonly size?: number;
      readonly etag?: string;
      readonly totalKnown?: boolean;
      readonly milliseconds: number;
    }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly code: string | null };

/**
 * Each read worker's SQLite page cache, in KB. better-sqlite3 builds SQLite with 16 MB per
 * connection, and every read worker filled its own copy of the same hot pages, which the kernel's
 * page cache already holds once for all of them. At 8 MB the statements of the bench cost the same
 * CPU alone (q14 9.6 ms, q17 34–36 ms at 8 MB and 16 MB); at 2 MB their system time grew (q17
 * +7 ms of pread). docs/performance.md#memory.
 */
const READ_WORKER_CACHE_KB = 8 * 1024;

const setup = workerData as WorkerSetup;
setThisThreadNice(setup.nice);
const cancel = new Int32Array(setup.cancel);
const cancelled = () => Atomics.load(cancel, 0) !== 0;
// No busy timeout in SQLite itself: waits for another connection's write lock happen here, in
// short pauses that notice a cancellation, and end before the request's deadline.
/**
 * Statements prepared after which the worker opens its connection afresh. A prepared statement
 * dropped from the cache keeps its SQLite memory (30–100 KB) until V8 collects its JavaScript
 * object, and this thread allocates so little JavaScript that it seldom collects: 3,000 new shapes
 * held 87 MB more each time, and none once the connection was closed in between (closing
 * finalizes every statement). An application's few dozen shapes never get here.
 */
const REOPEN_AFTER_PREPARES = 500;

/**
 * How long opening may wait for another connection's lock (ms): setting the page cache reads the
 * schema, which a writer changing the journal mode or the schema (sync, at start) holds locked.
 */
const OPEN_BUSY_TIMEOUT_MS = 5000;

function open(): { database: Database.Database; statements: SqliteStatements } {
  const database = new Database(setup.filename, { fileMustExist: true, timeout: OPEN_BUSY_TIMEOUT_MS });
  database.pragma('query_only = ON');
  database.pragma(`cache_size = -${READ_WORKER_CACHE_KB}`);
  database.pragma('busy_timeout = 0');
  registerSqlFunctions(database as unknown as SqliteConnection, cancelled);
  return { database, statements: new SqliteStatements(database, { readOnly: true }) };
}

let connection = open();
const slabs = new BodySlabs(new Int32Array(setup.lent));
parentPort!.postMessage('ready');

const BUSY_PAUSE_MS = 5;
/** A busy worker gives up this long before the deadline. */
const GIVE_UP_BEFORE_DEADLINE_MS = 25;


/** Runs `work`, retried while another connection holds the lock, the deadline allows and nobody cancelled. */
function whenUnlocked<T>(request: WorkerRequest, work: () => T): T {
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!isSqliteBusy(error) || cancelled() || Date.now() + BUSY_PAUSE_MS >= request.deadline - GIVE_UP_BEFORE_DEADLINE_MS) throw error;
      // Wakes early when the pool cancels (it notifies the flag).
      Atomics.wait(cancel, 0, 0, BUSY_PAUSE_MS);
    }
  }
}

parentPort!.on('message', (request: WorkerRequest) => {
  const started = performance.now();
  try {
    if (request.mode === 'column') {
      const column = whenUnlocked(request, () => connection.statements.column(request.sql, request.values));
      parentPort!.postMessage({ id: request.id, ok: true, column, milliseconds: performance.now() - started } satisfies WorkerResponse);
    } else {
      const { bytes, rows, size, etag, totalKnown } = whenUnlocked(request, () => connection.statements.body(request.sql, request.values, request.maxBytes, request.givenTotal));
      const lent = slabs.lend(bytes);
      const milliseconds = performance.now() - started;
      if (lent) parentPort!.postMessage({ id: request.id, ok: true, lent, rows, size, etag, totalKnown, milliseconds } satisfies WorkerResponse);
      else parentPort!.postMessage({ id: request.id, ok: true, bytes, rows, size, etag, totalKnown, milliseconds } satisfies WorkerResponse, [bytes.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const failure = error as { message?: string; code?: string };
    const code = cancelled() ? CANCELLED : (failure.code ?? null);
    parentPort!.postMessage({ id: request.id, ok: false, message: String(failure.message ?? error), code } satisfies WorkerResponse);
  }
  if (connection.statements.prepares >= REOPEN_AFTER_PREPARES) {
    connection.database.close();
    connection = open();
  }
});
