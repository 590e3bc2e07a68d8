/**
 * Writes checked test data through the generated models, in Strapi v4's layout: every entry's
 * row first (so relations can point anywhere in the file), then its relations, media, components
 * and zones. A relation written on its mappedBy side, and `localizations` (linked both ways), are
 * stored on the owning side, each owner's list in the order the file gives it.
 */
import type { Knex } from 'knex';
import { SeedWriter, type Row } from '../seed/writer.js';
import type { MediaAttribute, Model, Registry, RelationAttribute } from '../schema/registry.js';
import { fileAllowed } from '../write/check-references.js';
import { hashPassword, isPasswordHash } from '../write/password-hash.js';
import type { FileToUpload, UploadedFiles } from './upload-files.js';
import { modelOf } from '../schema/registry.js';
import { buildModels } from '../storage/models.js';
import type { TableModel } from '../storage/table-model.js';
import type { DataEntry, TestData, Values } from './data-file.js';

/** Entry ids by type uid and entry name. */
export type EntryIds = ReadonlyMap<string, ReadonlyMap<string, number>>;

interface OwningLink {
  readonly owner: TableModel;
  readonly attribute: string;
  readonly targets: number[];
}

/** `uploaded`: the files the data names by path (`{ file }`), already uploaded (upload-files.ts). */
export async function loadTestData(knex: Knex, registry: Registry, data: TestData, now: Date, uploaded: UploadedFiles = new Map()): Promise<EntryIds> {
  return knex.transaction(async (transaction) => {
    const writer = new SeedWriter(registry, buildModels(registry, { knex: transaction }));
    const instances = new Map<string, Map<string, TableModel>>();
    for (const entry of data.entries) {
      const instance = await naming(entry, async () => writer.create(entry.model.uid, { ...defaultRow(entry.model, registry, now), ...(await scalarRow(entry.model, entry.values)) }));
      if (!instances.has(entry.model.uid)) instances.set(entry.model.uid, new Map());
      instances.get(entry.model.uid)!.set(entry.name, instance);
    }
    const idOf = (uid: string, name: string): number => instances.get(uid)!.get(name)!.id as number;
    const links = new Map<string, OwningLink>();
    const addLink = (owner: TableModel, attribute: string, target: number): void => {
      const key = `${(owner.constructor as typeof TableModel).tableName}#${owner.id}#${attribute}`;
      const link = links.get(key) ?? { owner, attribute, targets: [] };
      if (!link.targets.includes(target)) link.targets.push(target);
      links.set(key, link);
    };
    const context: PartsContext = { registry, writer, idOf, addLink, existing: (uid, id) => writer.existing(uid, id), uploaded };
    for (const entry of data.entries) await naming(entry, () => writeParts(context, instances.get(entry.model.uid)!.get(entry.name)!, entry.model, entry.values));
    for (const link of links.values()) await writer.link(link.owner, link.attribute, link.targets);
    return new Map([...instances].map(([uid, byName]) => [uid, new Map([...byName].map(([name, instance]) => [name, instance.id as number]))]));
  });
}

/**
 * Runs one entry's writes; what the database still refuses (a value the schema checks cannot
 * see, such as a unique one) is reported at the entry's place in the file.
 */
async function naming<T>(entry: DataEntry, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const { file, line, column } = entry.position;
    throw new Error(`${file}:${line}:${column} ${entry.model.uid} entry "${entry.name}" could not be written: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

interface PartsContext {
  readonly registry: Registry;
  readonly writer: SeedWriter;
  idOf(uid: string, name: string): number;
  addLink(owner: TableModel, attribute: string, target: number): void;
  existing(uid: string, id: number): TableModel;
  readonly uploaded: UploadedFiles;
}

/** Relations, media, components and zones of one entry or component row. */
async function writeParts(context: PartsContext, owner: TableModel, model: Model, values: Values): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const attribute = model.attributes.get(key);
    if (!attribute || value === null || value === undefined) continue;
    if (attribute.kind === 'relation') {
      for (const name of names(value)) linkRelation(context, owner, model, attribute, context.idOf(attribute.target, name));
    } else if (attribute.kind === 'media') {
      await context.writer.attachMedia(owner, key, mediaItems(value).map((item) => (typeof item === 'string' ? context.idOf(context.registry.file.uid, item) : uploadedId(context, attribute, item))));
    } else if (attribute.kind === 'component') {
      const component = modelOf(context.registry, attribute.component);
      const items = (attribute.repeatable ? value : [value]) as Values[];
      const rows = await Promise.all(items.map((item) => scalarRow(component, item)));
      const created = attribute.repeatable ? await context.writer.addComponents(owner, key, rows) : [await context.writer.addComponent(owner, key, rows[0]!)];
      for (const [index, item] of items.entries()) await writeParts(context, created[index]!, component, item);
    } else if (attribute.kind === 'dynamiczone') {
      const items = value as Values[];
      const blocks = await Promise.all(items.map(async (item) => ({ component: item.__component as string, row: await scalarRow(modelOf(context.registry, item.__component as string), item) })));
      const created = await context.writer.fillZone(owner, key, blocks);
      for (const [index, item] of items.entries()) await writeParts(context, created[index]!, modelOf(context.registry, blocks[index]!.component), item);
    }
  }
}

/** Links are stored on the owning side; `localizations` both ways. */
function linkRelation(context: PartsContext, owner: TableModel, model: Model, attribute: RelationAttribute, targetId: number): void {
  if (attribute.linkTable) context.addLink(owner, attribute.name, targetId);
  else if (attribute.mappedBy) context.addLink(context.existing(attribute.target, targetId), attribute.mappedBy, owner.id as number);
  if (attribute.name === 'localizations' && attribute.target === model.uid) context.addLink(context.existing(model.uid, targetId), 'localizations', owner.id as number);
}

function mediaItems(value: unknown): (string | FileToUpload)[] {
  return Array.isArray(value) ? (value as (string | FileToUpload)[]) : [value as string | FileToUpload];
}

/** The id of a file the data uploaded, of a type the attribute takes. */
function uploadedId(context: PartsContext, attribute: MediaAttribute, file: FileToUpload): number {
  const uploaded = context.uploaded.get(file);
  if (!uploaded) throw new Error(`${file.path} was not uploaded: files named by path need the media library (createTestApi)`);
  if (!fileAllowed(attribute, uploaded.mime)) throw new Error(`${attribute.name} takes ${attribute.allowedTypes!.join(', ')}; ${file.path} is ${uploaded.mime}`);
  return uploaded.id;
}

function names(value: unknown): string[] {
  return typeof value === 'string' ? [value] : (value as string[]);
}

/** The scalar values written, by column; passwords hashed as the write API hashes them (a value already hashed is kept). */
async function scalarRow(model: Model, values: Values): Promise<Row> {
  const row: Row = {};
  for (const [key, value] of Object.entries(values)) {
    const attribute = model.attributes.get(key);
    if (attribute?.kind !== 'scalar') continue;
    const password = attribute.type === 'password' && typeof value === 'string' && !isPasswordHash(value);
    row[attribute.column] = password ? await hashPassword(value) : value;
  }
  return row;
}

/** Timestamps, publication (entries are published unless the file says `publishedAt: null`) and locale. */
function defaultRow(model: Model, registry: Registry, now: Date): Row {
  const row: Row = {};
  for (const attribute of model.attributes.values()) {
    if (attribute.kind !== 'scalar' || !attribute.implicit) continue;
    if (attribute.name === 'locale') row[attribute.column] = registry.i18n.defaultLocale;
    else row[attribute.column] = now;
  }
  return row;
}
