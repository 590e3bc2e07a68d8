/**
 * A user's password written as Strapi's user service edits it: through the write pipeline, so
 * the user type's checks apply (`password must be at least 6 characters`) and the value is stored
 * as a bcrypt hash, with the row's `updatedAt`, in one transaction.
 */
import type { Knex } from 'knex';
import type { Grants } from '../access/permissions.js';
import { WriteAccess } from '../access/write-access.js';
import { DataValidationError, type DataProblem } from '../errors.js';
import { updateRow } from '../write/apply-row.js';
import { inTransaction } from '../write/transaction.js';
import { parseData, type WriteEngine } from '../write/write.js';
import type { UserStore } from './user-store.js';

/** The users-permissions plugin writes the user type whatever permissions.yaml grants: these are not content writes of the caller. */
export const USERS_PLUGIN_GRANTS: Grants = { role: 'users-permissions', can: () => true, rule: () => null };

/** PostgreSQL refuses a NUL in text: a 400 naming the fields, rather than a failed statement. */
export function refuseNul(values: Record<string, unknown>): void {
  const withNul = Object.entries(values).filter(([, value]) => typeof value === 'string' && value.includes('\u0000'));
  if (withNul.length) throw new DataValidationError(withNul.map(([name]) => ({ path: [name], message: `${name} must not contain the NUL character` })));
}

/**
 * Sets user `id`'s password; `spend` runs first in the same transaction (a reset spends its
 * code there) and may decline the write. Answers whether the password was written.
 */
export async function writePassword(engine: WriteEngine, store: UserStore, id: number, password: string, deadline: number, spend?: (trx: Knex) => Promise<boolean>): Promise<boolean> {
  const model = store.userModel;
  const problems: DataProblem[] = [];
  const write = parseData(engine, USERS_PLUGIN_GRANTS, model, { password }, { partial: true, path: [], draft: false }, problems);
  if (problems.length) throw new DataValidationError(problems);
  return inTransaction(engine, { locks: [model.tableName], deadline, access: WriteAccess.unrestricted(engine.executor.dialect) }, async (rows) => {
    if (spend && !(await spend(rows.trx))) return false;
    await updateRow(rows, write, id, { updated_at: rows.now });
    return true;
  });
}
