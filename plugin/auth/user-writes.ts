/**
 * The users-permissions plugin's own writes of users, through the write pipeline, so the user
 * type's checks apply (`password must be at least 6 characters`) and a password is stored as a
 * bcrypt hash: a new user (registration, third-party login) and a password set, each in one
 * transaction. The plugin chose the values: no role's rule applies.
 */
import type { Knex } from 'knex';
import type { Grants } from '../access/permissions.js';
import { WriteAccess } from '../access/write-access.js';
import { ApplicationError, DataValidationError, type DataProblem } from '../errors.js';
import { insertRow, updateRow } from '../write/apply-row.js';
import { checkReferences } from '../write/check-references.js';
import { inTransaction } from '../write/transaction.js';
import { lockNamesOf, newEntryColumns, parseData, type WriteEngine } from '../write/write.js';
import type { EndUsers } from './end-users.js';
import type { StoredUser, UserStore } from './user-store.js';

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

/** Inserts a user with `data` (its role by id among them); answers it as stored. */
export async function insertUser(engine: WriteEngine, store: UserStore, data: Record<string, unknown>, deadline: number): Promise<StoredUser> {
  const model = store.userModel;
  const problems: DataProblem[] = [];
  const write = parseData(engine, USERS_PLUGIN_GRANTS, model, data, { partial: false, path: [], draft: false }, problems);
  if (problems.length) throw new DataValidationError(problems);
  const id = await inTransaction(engine, { locks: lockNamesOf(engine, write), deadline, access: WriteAccess.unrestricted(engine.executor.dialect) }, async (rows) => {
    await checkReferences(rows, write, null);
    return insertRow(rows, write, newEntryColumns(rows, model, write, null));
  });
  const user = await store.findById(id);
  if (!user) throw new Error(`the new user ${id} was not found after its insert`);
  return user;
}

/**
 * A user of a third-party provider at its first login, as Strapi creates one: the profile's
 * username and email, confirmed, with the default role (`defaultRole`); no password.
 */
export async function insertProviderUser(engine: WriteEngine, users: EndUsers, profile: { readonly username: string; readonly email: string; readonly provider: string }, defaultRole: string, deadline: number): Promise<StoredUser> {
  const roleId = await users.store.roleIdOfType(defaultRole);
  if (roleId === null) throw new ApplicationError('Impossible to find the default role');
  refuseNul(profile);
  try {
    return await insertUser(engine, users.store, { ...profile, confirmed: true, role: roleId }, deadline);
  } catch (error) {
    // As Strapi answers a profile the user type refuses (a username taken, too short): its words.
    if (error instanceof DataValidationError) throw new ApplicationError(error.message);
    throw error;
  }
}
