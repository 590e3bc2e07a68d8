/**
 * The groups of localizations, as Strapi 4.26.2's i18n plugin keeps them when an entry is created:
 * the entries of a group list one another (link rows in both directions), and the attributes that
 * are not localized hold the same values in every entry of the group — the new entry's values,
 * copied onto the others (their `updatedAt` moves). Runs inside the write's transaction.
 */
import { parseColumnValue } from '../storage/model-values.js';
import type { Model, RelationAttribute, ScalarAttribute } from '../schema/registry.js';
import { authorizeGroup } from '../access/authorize-write.js';
import { currentTargets } from './apply-relation.js';
import { relationLinks } from './relation-links.js';
import type { RowStore } from './row-store.js';

export function localizationsOf(model: Model): RelationAttribute {
  return model.attributes.get('localizations') as RelationAttribute;
}

/** The scalar attributes shared by every locale of an entry: those that are not localized. */
function sharedScalars(model: Model): ScalarAttribute[] {
  return [...model.attributes.values()].filter((attribute): attribute is ScalarAttribute => attribute.kind === 'scalar' && !attribute.implicit && !attribute.localized);
}

/** The names of the scalar attributes shared by every locale of an entry. */
export function sharedAttributeNames(model: Model): ReadonlySet<string> {
  return new Set(sharedScalars(model).map((attribute) => attribute.name));
}

/** The values of the scalar attributes shared by every locale of `row`, as the models hold them. */
export function sharedColumns(store: RowStore, model: Model, row: Record<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const attribute of sharedScalars(model)) {
    const type = store.schema.columnTypes.get(model.tableName)!.get(attribute.column)!;
    columns[attribute.column] = parseColumnValue(store.client, type, row[attribute.column]);
  }
  return columns;
}

/** Copies the entry's shared values onto `members` (nothing when the type has none). */
async function shareValues(store: RowStore, model: Model, id: number, members: readonly number[]): Promise<void> {
  const entry = (await store.trx(model.tableName).where({ id }).first()) as Record<string, unknown>;
  const shared = sharedColumns(store, model, entry);
  if (!Object.keys(shared).length) return;
  for (const member of members) await store.update(model.tableName, member, { ...shared, updated_at: store.now });
}

/** Replaces `member`'s list of localizations with `ids`, in that order. */
async function setLocalizations(store: RowStore, model: Model, member: number, ids: readonly number[]): Promise<void> {
  const links = relationLinks(store.registry, localizationsOf(model));
  await store.trx(links.table).where(links.sourceColumn, member).delete();
  await store.insertMany(
    links.table,
    ids.map((id, index) => ({ [links.sourceColumn]: member, [links.targetColumn]: id, ...(links.orderColumn ? { [links.orderColumn]: index + 1 } : {}) })),
  );
}

/**
 * A new localization (`POST …/localizations`) joins its source's group: it lists the source and
 * the source's localizations, each of them lists it, and they take its shared values.
 */
export async function joinLocalizationGroup(store: RowStore, model: Model, id: number, sourceId: number): Promise<void> {
  const attribute = localizationsOf(model);
  const group = [sourceId, ...(await currentTargets(store, { attribute }, sourceId))].filter((member) => member !== id);
  await authorizeGroup(store, model, group);
  const links = relationLinks(store.registry, attribute);
  const link = (from: number, to: number, order: number) => ({ [links.sourceColumn]: from, [links.targetColumn]: to, ...(links.orderColumn ? { [links.orderColumn]: order } : {}) });
  const rows = group.map((member, index) => link(id, member, index + 1));
  for (const member of group) rows.push(link(member, id, (await currentTargets(store, { attribute }, member)).length + 1));
  await store.insertMany(links.table, rows);
  await shareValues(store, model, id, group);
}

/**
 * A new entry created with `localizations` in its `data`: each entry it lists now lists the new
 * entry and the others it lists (its former list is replaced, as Strapi replaces it), and takes
 * the new entry's shared values.
 */
export async function linkListedLocalizations(store: RowStore, model: Model, id: number): Promise<void> {
  const listed = await currentTargets(store, { attribute: localizationsOf(model) }, id);
  // Each listed entry's own list is replaced: the entries it listed lose their link from it too.
  const former = (await Promise.all(listed.map((member) => currentTargets(store, { attribute: localizationsOf(model) }, member)))).flat();
  await authorizeGroup(store, model, [...new Set([...listed, ...former])].filter((member) => member !== id));
  const group = [id, ...listed];
  for (const member of listed) await setLocalizations(store, model, member, group.filter((other) => other !== member));
  await shareValues(store, model, id, listed);
}
