/**
 * A `PUT` whose query populates `localizations` copies the entry's attributes that are not
 * localized onto the other entries of its group, as Strapi 4.26.2 does (its i18n plugin syncs the
 * entry it answers, localizations included); without that populate nothing is copied, as in
 * Strapi. Every shared scalar is copied whatever `fields` selects, as a new entry's are (W20);
 * components are not.
 */
import type { Model } from '../schema/registry.js';
import { authorizeGroup } from '../access/authorize-write.js';
import { currentTargets } from './apply-relation.js';
import { localizationsOf, sharedColumns } from './localization-group.js';
import type { RowStore } from './row-store.js';

const OFF = new Set(['false', 'f', '0', '']);

/** Whether the request's `populate` names `localizations`, in any form (`*` included). */
export function populatesLocalizations(query: Readonly<Record<string, unknown>>): boolean {
  const { populate } = query;
  const named = (item: unknown) =>
    typeof item === 'string' && item.split(',').some((part) => part.trim() === '*' || part.trim().split('.')[0] === 'localizations');
  if (Array.isArray(populate)) return populate.some(named);
  if (populate && typeof populate === 'object') {
    const value = (populate as Record<string, unknown>).localizations;
    return value !== undefined && !(typeof value === 'string' && OFF.has(value.toLowerCase()));
  }
  return named(populate);
}

/** Copies the entry's shared values onto the other entries of its group (each needs `update`). */
export async function shareWithLocalizations(store: RowStore, model: Model, id: number): Promise<void> {
  const members = await currentTargets(store, { attribute: localizationsOf(model) }, id);
  if (!members.length) return;
  const entry = (await store.trx(model.tableName).where({ id }).first()) as Record<string, unknown>;
  const shared = sharedColumns(store, model, entry);
  if (!Object.keys(shared).length) return;
  await authorizeGroup(store, model, members);
  for (const member of members) await store.update(model.tableName, member, { ...shared, updated_at: store.now });
}
