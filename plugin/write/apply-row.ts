/**
 * Carries out the writes of a row (write/input.ts) once they have been checked: its own columns,
 * then its media, relations and components, components recursively. Runs inside the write's
 * transaction; every statement goes through the RowStore.
 */
import { MORPH_TABLE, type Model } from '../schema/registry.js';
import type { ComponentChange, MediaChange, RowWrite } from './input.js';
import { applyRelation } from './apply-relation.js';
import { deleteComponent } from './delete-rows.js';
import type { RowStore } from './row-store.js';

/** Inserts the row with `extra` columns (timestamps, locale) and everything it holds; answers its id. */
export async function insertRow(store: RowStore, write: RowWrite, extra: Record<string, unknown> = {}): Promise<number> {
  const values = { ...defaultsOf(write.model), ...write.values };
  const id = await store.insert(write.model.tableName, { ...(await store.columnsOf(write.model, values)), ...extra });
  await applyHeld(store, write, id);
  return id;
}

/** Updates the row's given columns with `extra` and replaces what the write names of what it holds. */
export async function updateRow(store: RowStore, write: RowWrite, id: number, extra: Record<string, unknown> = {}): Promise<void> {
  await store.update(write.model.tableName, id, { ...(await store.columnsOf(write.model, write.values)), ...extra });
  await applyHeld(store, write, id);
}

/** The schema's default of each attribute that has one: what a new row holds where the body is silent. */
function defaultsOf(model: Model): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const attribute of model.attributes.values()) {
    if (attribute.kind === 'scalar' && !attribute.implicit && attribute.default !== null && attribute.default !== undefined) defaults[attribute.name] = attribute.default;
  }
  return defaults;
}

async function applyHeld(store: RowStore, write: RowWrite, id: number): Promise<void> {
  for (const change of write.media) await applyMedia(store, write.model, id, change);
  for (const change of write.relations) await applyRelation(store, write.model, id, change);
  for (const change of write.components) await applyComponents(store, write.model, id, change);
}

async function applyMedia(store: RowStore, model: Model, id: number, change: MediaChange): Promise<void> {
  const owner = { related_id: id, related_type: model.uid, field: change.attribute.name };
  await store.trx(MORPH_TABLE).where(owner).delete();
  await store.insertMany(
    MORPH_TABLE,
    change.fileIds.map((fileId, index) => ({ file_id: fileId, ...owner, order: index + 1 })),
  );
}

/**
 * The attribute's components become the items, in order: listed ones with an id are updated in
 * place, the others created; the join rows are written anew; components no longer listed are
 * deleted with everything they hold.
 */
async function applyComponents(store: RowStore, model: Model, id: number, change: ComponentChange): Promise<void> {
  const joinTable = model.componentJoinTable!;
  const owner = { entity_id: id, field: change.attribute.name };
  const existing = (await store.trx(joinTable).where(owner).select('component_id', 'component_type')) as { component_id: number | bigint; component_type: string }[];
  const kept: { id: number; type: string }[] = [];
  for (const item of change.items) {
    if (item.id !== null) await updateRow(store, item.row, item.id);
    kept.push({ id: item.id ?? (await insertRow(store, item.row)), type: item.component.uid });
  }
  await store.trx(joinTable).where(owner).delete();
  await store.insertMany(
    joinTable,
    kept.map((component, index) => ({ ...owner, component_id: component.id, component_type: component.type, order: index + 1 })),
  );
  const keptKeys = new Set(kept.map((component) => `${component.type}#${component.id}`));
  for (const row of existing) {
    if (!keptKeys.has(`${row.component_type}#${Number(row.component_id)}`)) await deleteComponent(store, row.component_type, Number(row.component_id));
  }
}
