/**
 * What runs compiled statements, whatever the engine: the interface the read path uses, the
 * options every executor shares, and the admission queue they build from them.
 */
import type { Knex } from 'knex';
import { AdmissionQueue } from './admission.js';
import type { Statement } from './compile.js';
import type { Dialect } from './dialect/dialect.js';
import { LIGHT_WORK } from './estimate.js';
import type { BuiltBody } from './sqlite-statements.js';

export type { BuiltBody } from './sqlite-statements.js';

/** Time spent in the database and statements run, for the Server-Timing header. */
export interface ExecutionStats {
  statements: number;
  milliseconds: number;
  /** Statements run on the event loop rather than by a read worker (SQLite's tiny ones: sqlite-executor.ts). */
  onEventLoop?: number;
  /** Lists built with their total known, not counted (sqlite-known-totals.ts, mysql-known-totals.ts). */
  totalsKnown?: number;
}

/** What the request knows of a statement before it runs, for admission. */
export interface StatementHints {
  /** Who asks (access/caller.ts `key`): heavy slots are shared among callers (admission.ts). */
  readonly caller?: string;
  /** The request's estimated work (estimate.ts), when the data's figures are known. */
  readonly work?: number;
}

/** A shape never run before is admitted as light when its request's estimate is small (statement-costs.ts). */
export function estimatedLight(hints: StatementHints): boolean {
  return hints.work !== undefined && hints.work < LIGHT_WORK;
}

export interface Executor {
  readonly dialect: Dialect;
  /** The first column of every row. */
  column(statement: Statement, stats: ExecutionStats, deadline: number, hints?: StatementHints): Promise<unknown[]>;
  /** The response body a body statement builds (compile-body.ts), as bytes; above `maxBytes`, only its size. */
  body(statement: Statement, stats: ExecutionStats, deadline: number, maxBytes?: number, hints?: StatementHints): Promise<BuiltBody>;
  /** Settles once the executor can run statements (the read workers have opened the database). */
  ready(): Promise<void>;
  /** Stops the read workers. */
  close(): Promise<void>;
}

export interface ExecutionOptions {
  /** A request's time budget, in ms (default 10 s). */
  readonly timeout?: number;
  /** Statements running at once (default 4 per core; on SQLite, one per read worker). */
  readonly maxConcurrentStatements?: number;
  /** Statements waiting their turn before new ones are refused (default 64 per running one). */
  readonly maxQueuedStatements?: number;
  /** SQLite read worker threads (default: one per core and one for light statements; 0 runs statements on the event loop). */
  readonly sqliteReadWorkers?: number;
  /** PostgreSQL or MariaDB read replicas: reads are spread over them, and the primary serves reads only when none answers. */
  readonly replicas?: readonly Knex[];
  /** How long a replica that failed is set aside before it is tried again (ms; default 5000). */
  readonly replicaSetAside?: number;
  /**
   * MariaDB: the database keeps a version per table (the change triggers), by which lists' totals
   * are known while their tables are unchanged (mysql-known-totals.ts).
   */
  readonly tableVersions?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export function queueFor(limit: number, heavyLimit: number, options: ExecutionOptions): AdmissionQueue {
  return new AdmissionQueue(limit, options.maxQueuedStatements ?? limit * 64, Math.max(1, Math.min(limit, heavyLimit)));
}

/** Counts a statement that ran: in its request's stats, and in the admission queue's wait estimate. */
export function countStatement(stats: ExecutionStats, admission: AdmissionQueue, milliseconds: number): void {
  admission.record(milliseconds);
  stats.statements += 1;
  stats.milliseconds += milliseconds;
}
