/**
 * A write's transaction on MariaDB (and MySQL): on a connection held beyond the commit, so that
 * the named locks that keep a list's order column a permutation (GET_LOCK, which belongs to the
 * session, not to the transaction) are released only once the write is committed. The deadline is
 * the session's max_statement_time and innodb_lock_wait_timeout for the transaction, reset after.
 */
import type { Knex } from 'knex';

/** ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT, ER_DUP_ENTRY: a lost race, run again (transaction.ts). */
const CONFLICTS = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'ER_DUP_ENTRY']);
/** 1969: max_statement_time (MariaDB); 3024: max_execution_time (MySQL). */
const PAST_DEADLINE = new Set([1969, 3024]);

export function isMysqlConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICTS.has(code);
}

export function isMysqlPastDeadline(error: unknown): boolean {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' && PAST_DEADLINE.has(errno);
}

export async function mysqlTransaction<T>(knex: Knex, deadline: number, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const connection = await knex.client.acquireConnection();
  const onConnection = (sql: string) => knex.raw(sql).connection(connection);
  try {
    const seconds = Math.max(0.001, (deadline - Date.now()) / 1000);
    await onConnection(`SET SESSION max_statement_time = ${seconds.toFixed(3)}, innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(seconds))}`);
    return await knex.transaction(work, { connection });
  } finally {
    try {
      await onConnection('SET SESSION max_statement_time = DEFAULT, innodb_lock_wait_timeout = DEFAULT');
      await onConnection('DO RELEASE_ALL_LOCKS()');
    } finally {
      await knex.client.releaseConnection(connection);
    }
  }
}

/**
 * One named lock per table, in name order. Names are server-wide, so each is the table's name in
 * this database, hashed to fit the 64 characters of a lock name. The wait is bounded by the
 * session's max_statement_time (the request's deadline).
 */
export async function lockMysqlNames(trx: Knex.Transaction, names: readonly string[]): Promise<void> {
  for (const name of [...new Set(names)].sort()) {
    await trx.raw(`SELECT GET_LOCK(SHA1(CONCAT(DATABASE(), '/', ?)), 31536000)`, [name]);
  }
}
