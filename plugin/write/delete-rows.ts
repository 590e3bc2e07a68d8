/**
 * Deleting a row with everything it holds, as Strapi does: its components (recursively, with
 * their own components, media and links), its media links and its relation links. Link rows are
 * deleted explicitly rather than left to ON DELETE CASCADE, so a database without those foreign
 * keys is left as clean as one with them.
 */
import { MORPH_TABLE, type Model } from '../schema/registry.js';
import type { RowStore } from './row-store.js';

/** Deletes an entry or component row of `model` and what it holds. */
export async function deleteRow(store: RowStore, model: Model, id: number): Promise<void> {
  if (model.componentJoinTable) {
    const owned = (await store.trx(model.componentJoinTable).where({ entity_id: id }).select('component_id', 'component_type')) as {
      component_id: number | bigint;
      component_type: string;
    }[];
    await store.trx(model.componentJoinTable).where({ entity_id: id }).delete();
    for (const row of owned) await deleteComponent(store, row.component_type, Number(row.component_id));
  }
  await store.trx(MORPH_TABLE).where({ related_id: id, related_type: model.uid }).delete();
  for (const link of store.schema.linksTo.get(model.tableName) ?? []) await store.trx(link.table).where(link.column, id).delete();
  await store.trx(model.tableName).where({ id }).delete();
}

export async function deleteComponent(store: RowStore, uid: string, id: number): Promise<void> {
  const component = store.registry.models.get(uid);
  // A join row naming a component type the schema no longer has: nothing to delete it from.
  if (component) await deleteRow(store, component, id);
}
