/**
 * The checks of a write that need the database, run in its transaction before anything is written
 * (so a refused write leaves even PostgreSQL's sequences untouched): related entries and files
 * exist and are the caller's to `find` (one statement per target type), files match the attribute's allowed types, positions name
 * entries of the list, component ids belong to the row, unique values are free.
 */
import type { Knex } from 'knex';
import { ApplicationError, DataValidationError, type DataPath, type DataProblem } from '../errors.js';
import { FILE_UID, modelOf, type MediaAttribute } from '../schema/registry.js';
import type { RowWrite } from './input.js';
import { currentTargets } from './apply-relation.js';
import { splitLinks } from '../access/authorize-write.js';
import { orderRelations } from './order-relations.js';
import { labelOf } from './scalar-values.js';
import type { RowStore } from './row-store.js';

interface Reference {
  readonly uid: string;
  readonly ids: readonly number[];
  readonly path: DataPath;
  readonly media: MediaAttribute | null;
}

/** Checks a row's writes and those of its components; `rowId` is null for a row to be created. Throws the 400 that explains the first kind of problem found. */
export async function checkReferences(store: RowStore, write: RowWrite, rowId: number | null): Promise<void> {
  const references: Reference[] = [];
  const problems: DataProblem[] = [];
  await walk(store, write, rowId, references, problems);
  problems.push(...(await missingReferences(store, references)));
  if (problems.length) throw new DataValidationError(problems);
}

async function walk(store: RowStore, write: RowWrite, rowId: number | null, references: Reference[], problems: DataProblem[]): Promise<void> {
  for (const change of write.relations) {
    const ids = [...(change.set ?? []), ...change.connect].map((item) => item.id);
    references.push({ uid: change.attribute.target, ids, path: change.path, media: null });
    // Ordering throws a 400 when a position names an entry that is not in the list; only a
    // `before`/`after` position can, so only then is the row's list read here.
    const anchored = change.connect.some((item) => item.position?.kind === 'before' || item.position?.kind === 'after');
    if (anchored) orderRelations(rowId === null ? [] : (await splitLinks(store, change.attribute, await currentTargets(store, change, rowId))).visible, change, change.attribute.toMany, change.path);
  }
  for (const change of write.media) references.push({ uid: FILE_UID, ids: change.fileIds, path: change.path, media: change.attribute });
  if (write.model.modelType === 'contentType') problems.push(...(await takenValues(store, write, rowId)));
  for (const change of write.components) {
    const ids = change.items.flatMap((item) => (item.id === null ? [] : [`${item.component.uid}#${item.id}`]));
    if (ids.length) await checkOwnComponents(store, write, rowId, change.attribute.name, ids);
    for (const item of change.items) await walk(store, item.row, item.id, references, problems);
  }
}

/** A component named by id must be one this row already holds in that attribute. */
async function checkOwnComponents(store: RowStore, write: RowWrite, rowId: number | null, field: string, ids: readonly string[]): Promise<void> {
  const owned = rowId === null ? [] : ((await store.trx(write.model.componentJoinTable!).where({ entity_id: rowId, field }).select('component_id', 'component_type')) as { component_id: number | bigint; component_type: string }[]);
  const ownedKeys = new Set(owned.map((row) => `${row.component_type}#${Number(row.component_id)}`));
  if (ids.some((id) => !ownedKeys.has(id)) || new Set(ids).size !== ids.length) {
    throw new ApplicationError(`Some of the provided components in ${field} are not related to the entity`);
  }
}

/**
 * Problems for ids that name no row the caller may `find` (a hidden row is answered as a missing
 * one), and for files of a type the media attribute does not take.
 */
async function missingReferences(store: RowStore, references: readonly Reference[]): Promise<DataProblem[]> {
  const byUid = new Map<string, Set<number>>();
  for (const reference of references) for (const id of reference.ids) byUid.set(reference.uid, (byUid.get(reference.uid) ?? new Set()).add(id));
  const found = new Map<string, Map<number, string | null>>();
  for (const [uid, ids] of byUid) {
    const model = modelOf(store.registry, uid);
    const rows = await store.access.reachableRows(store.trx, model, [...ids], 'find', uid === FILE_UID ? ['mime'] : []);
    found.set(uid, new Map([...rows].map(([id, row]) => [id, (row.mime as string | null | undefined) ?? null])));
  }
  const problems: DataProblem[] = [];
  for (const reference of references) {
    const rows = found.get(reference.uid)!;
    const missing = reference.ids.filter((id) => !rows.has(id)).length;
    if (missing) problems.push({ path: reference.path, message: `${missing} relation(s) of type ${reference.uid} associated with this entity do not exist` });
    const refused = reference.media ? reference.ids.filter((id) => rows.has(id) && !fileAllowed(reference.media!, rows.get(id) ?? null)) : [];
    if (refused.length) problems.push({ path: reference.path, message: `${labelOf(reference.path)} takes ${reference.media!.allowedTypes!.join(', ')}; file ${refused.join(', ')} is not one` });
  }
  return problems;
}

/** Strapi's media kinds: images, videos and audios by MIME type, files for everything else. */
export function fileAllowed(attribute: MediaAttribute, mime: string | null): boolean {
  if (!attribute.allowedTypes) return true;
  const kind = mime?.startsWith('image/') ? 'images' : mime?.startsWith('video/') ? 'videos' : mime?.startsWith('audio/') ? 'audios' : 'files';
  return attribute.allowedTypes.includes(kind);
}

/** Unique attributes (uids among them) whose new value another entry already has, in any locale and state. */
async function takenValues(store: RowStore, write: RowWrite, rowId: number | null): Promise<DataProblem[]> {
  const problems: DataProblem[] = [];
  for (const [name, value] of Object.entries(write.values)) {
    const attribute = write.model.attributes.get(name);
    if (attribute?.kind !== 'scalar' || !attribute.unique || value === null || value === undefined) continue;
    const query = store.trx(write.model.tableName).where(attribute.column, store.stored(write.model.tableName, attribute.column, value) as Knex.Value);
    if (rowId !== null) query.whereNot('id', rowId);
    if (await query.first('id')) problems.push({ path: [name], message: 'This attribute must be unique' });
  }
  return problems;
}
