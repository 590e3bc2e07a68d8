/**
 * One transaction per write. A write that loses a race for the database (see isConflict) is run
 * again from the start, a few times; its checks run again too, against what the winner wrote. On
 * PostgreSQL and MariaDB the link tables a write reorders are locked first, in name order: two
 * writers reordering one list take turns, so its order column stays a permutation.
 */
import type { Knex } from 'knex';
import { ServiceUnavailableError } from '../errors.js';
import { clientOf } from '../storage/database.js';
import { isSqliteBusy } from '../storage/sqlite-busy.js';
import { RowStore, type WriteSchema } from './row-store.js';
import type { WriteAccess } from '../access/write-access.js';
import { isMysqlConflict, isMysqlPastDeadline, lockMysqlNames, mysqlTransaction } from './mysql-transaction.js';

/** What a write's transaction needs of the API. */
export interface TransactionContext {
  readonly knex: Knex;
  readonly schema: WriteSchema;
  readonly now: () => number;
}

export interface TransactionOptions {
  /** The tables whose rows or lists the write changes: locked first, in name order (PostgreSQL, MariaDB). */
  readonly locks: readonly string[];
  /** When the request must be answered by (epoch ms): a PostgreSQL statement still waiting then is cancelled, and the answer is a 503. */
  readonly deadline: number;
  /** What the caller may change (access/write-access.ts). */
  readonly access: WriteAccess;
}

const ATTEMPTS = 5;

/**
 * A lost race: SQLite busy or a stale snapshot, a PostgreSQL serialization failure or deadlock, or
 * a unique index violated by a row committed after this write checked (its re-run's checks then
 * answer the 400).
 */
function isConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isSqliteBusy(error) || isMysqlConflict(error) || (typeof code === 'string' && (code === 'SQLITE_CONSTRAINT_UNIQUE' || ['40001', '40P01', '23505'].includes(code)));
}

/** The busy timeout the SQLite connection is opened with (storage/database.ts). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** PostgreSQL's codes for a statement cancelled by statement_timeout or a lock not had in time. */
const PAST_DEADLINE = new Set(['57014', '55P03']);

/**
 * Locks more tables inside a write's transaction (the lists a hook relates): a PostgreSQL advisory
 * or MariaDB named lock per table, in name order; nothing on SQLite, whose writer holds the database.
 */
export async function lockMore(store: RowStore, names: readonly string[]): Promise<void> {
  if (store.client === 'mysql') await lockMysqlNames(store.trx, names);
  if (store.client !== 'postgres') return;
  for (const name of [...new Set(names)].sort()) await store.trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [name]);
}

/** Runs `work` in a transaction holding its locks (PostgreSQL), again on a conflict, within the deadline. */
export async function inTransaction<T>(context: TransactionContext, options: TransactionOptions, work: (store: RowStore) => Promise<T>): Promise<T> {
  const { knex, schema, now } = context;
  const client = clientOf(knex);
  for (let attempt = 1; ; attempt++) {
    try {
      if (client === 'mysql') {
        return await mysqlTransaction(knex, options.deadline, async (trx) => {
          await lockMysqlNames(trx, options.locks);
          return work(new RowStore(trx, schema, client, new Date(now()), options.access));
        });
      }
      return await knex.transaction(async (trx) => {
        const left = Math.max(1, Math.floor(options.deadline - Date.now()));
        if (client === 'postgres') {
          await trx.raw(`SET LOCAL statement_timeout = ${left}`);
          for (const name of [...new Set(options.locks)].sort()) await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [name]);
        } else {
          // The connection is this write's until it commits: it waits for another writer no longer than the request may.
          await trx.raw(`PRAGMA busy_timeout = ${Math.min(left, SQLITE_BUSY_TIMEOUT_MS)}`);
        }
        return work(new RowStore(trx, schema, client, new Date(now()), options.access));
      });
    } catch (error) {
      if (PAST_DEADLINE.has(String((error as { code?: unknown } | null)?.code)) || isMysqlPastDeadline(error)) throw new ServiceUnavailableError('Service Unavailable: the write did not finish in time', 1);
      if (!isConflict(error)) throw error;
      // Still losing after a few runs, or out of time: the database is busy, try again later.
      if (attempt >= ATTEMPTS || Date.now() >= options.deadline) throw new ServiceUnavailableError('Service Unavailable: the database is busy', 1);
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt * Math.random() + attempt));
    }
  }
}
