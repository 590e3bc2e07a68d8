/**
 * One transaction per write. A write that loses a race for the database (see isConflict) is run
 * again from the start, a few times; its checks run again too, against what the winner wrote. On
 * PostgreSQL the link tables a write reorders are locked first, in name order: two writers
 * reordering one list take turns, so its order column stays a permutation.
 */
import type { Knex } from 'knex';
import { clientOf } from '../storage/database.js';
import { RowStore, type WriteSchema } from './row-store.js';

const ATTEMPTS = 5;

/**
 * A lost race: SQLite busy or a stale snapshot, a PostgreSQL serialization failure or deadlock, or
 * a unique index violated by a row committed after this write checked (its re-run's checks then
 * answer the 400).
 */
function isConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_CONSTRAINT_UNIQUE' || ['40001', '40P01', '23505'].includes(code));
}

/** Runs `work` in a transaction holding the locks on `lockNames` (PostgreSQL), again on a conflict. */
export async function inTransaction<T>(
  knex: Knex,
  schema: WriteSchema,
  now: () => number,
  lockNames: readonly string[],
  work: (store: RowStore) => Promise<T>,
): Promise<T> {
  const client = clientOf(knex);
  for (let attempt = 1; ; attempt++) {
    try {
      return await knex.transaction(async (trx) => {
        if (client === 'postgres') {
          for (const name of [...new Set(lockNames)].sort()) await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [name]);
        }
        return work(new RowStore(trx, schema, client, new Date(now())));
      });
    } catch (error) {
      if (attempt >= ATTEMPTS || !isConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt * Math.random() + attempt));
    }
  }
}
