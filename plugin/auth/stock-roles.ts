/**
 * Strapi's two default roles of users-permissions, Authenticated and Public: a Strapi app creates
 * them at its first start, when its roles table is empty, and registration gives new users the
 * Authenticated one. The plugin does the same when it serves end users on a database it syncs,
 * so a fresh database can register users at once; a table that already holds any role is left
 * as it is (an existing Strapi database has them, or chose otherwise).
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import { ROLE_UID } from '../schema/users-permissions.js';
import { buildModels } from '../storage/models.js';

/** Name, type and description, as Strapi 4.26.2 writes them. */
export const STOCK_ROLES: readonly { readonly name: string; readonly type: string; readonly description: string }[] = [
  { name: 'Authenticated', type: 'authenticated', description: 'Default role given to authenticated user.' },
  { name: 'Public', type: 'public', description: 'Default role given to unauthenticated user.' },
];

/** Inserts the stock roles when the role table has no row; returns the number inserted. */
export async function seedStockRoles(knex: Knex, registry: Registry, now: Date): Promise<number> {
  const role = registry.models.get(ROLE_UID);
  if (!role) return 0;
  const model = buildModels(registry, knex).model(ROLE_UID);
  return knex.transaction(async (trx) => {
    const present = (await trx(role.tableName).count({ rows: '*' }).first()) as { rows: number | string } | undefined;
    if (Number(present?.rows ?? 0) > 0) return 0;
    const timestamps = role.attributes.has('createdAt') ? { created_at: now, updated_at: now } : {};
    for (const stock of STOCK_ROLES) await model.query(trx).insert({ ...stock, ...timestamps });
    return STOCK_ROLES.length;
  });
}
