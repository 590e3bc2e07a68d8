/**
 * The Strapi v4 table layout of a registry, as data: every table, column, index and foreign key,
 * named exactly as Strapi 4.26 names them. `sync` creates it, `copy` moves it, the models map it
 * and the tests compare it with a database Strapi wrote; none of them names a table on its own.
 */
import type { IndexKeys } from './index-marks.js';
import { FILE_UID, MORPH_TABLE, type LinkTable, type Model, type Registry, type StoredScalarType } from '../schema/registry.js';

/**
 * A column's type as the knex schema builder names it. SQLite declares `double` and `decimal` as
 * `float`, `jsonb` as `json` and `datetime` as `datetime`; PostgreSQL as `double precision`,
 * `numeric(10,2)`, `jsonb`, `timestamp(6) without time zone`, `time(3)`.
 */
export type ColumnType =
  | 'increments'
  | 'string'
  | 'text'
  | 'integer'
  | 'bigInteger'
  | 'double'
  | 'decimal'
  | 'boolean'
  | 'jsonb'
  | 'date'
  | 'time'
  | 'datetime';

/** A column: its name, its knex type and whether it may hold NULL. */
export interface ColumnLayout {
  readonly name: string;
  readonly type: ColumnType;
  /** Strapi declares every column but the id nullable; required attributes are checked by the application. */
  readonly nullable: boolean;
  /**
   * An id of another table kept in a model's own table (`created_by_id`): Strapi declares it
   * unsigned on MySQL and MariaDB, like the ids it points at, whereas a model's integer
   * attributes are signed.
   */
  readonly referencesId?: true;
}

/** An index by Strapi's name, over columns in order (a declared one's keys may descend; all of Strapi's ascend). */
export interface IndexLayout extends IndexKeys {
  readonly name: string;
  readonly unique: boolean;
  /**
   * `strapi`: part of Strapi's layout; `query`: added for this API's own queries (see
   * queryIndexes); `schema`: declared by a schema file (`index: true`, `indexes:`), created with a
   * mark that lets sync drop it once no file declares it (declared-indexes.ts).
   */
  readonly origin: 'strapi' | 'query' | 'schema';
}

/** A foreign key by Strapi's name; the layout only has cascading ones. */
export interface ForeignKeyLayout {
  readonly name: string;
  readonly columns: readonly string[];
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
  readonly onDelete: 'CASCADE';
}

/**
 * `model`: a content type's, component's or the media file's own table; `link`: a relation's link
 * table; `componentJoin`: `<table>_components`; `morph`: `files_related_morphs`.
 */
export type TableRole = 'model' | 'link' | 'componentJoin' | 'morph';

/** A table with everything sync creates for it. */
export interface TableLayout {
  readonly name: string;
  readonly role: TableRole;
  /** The uid of the model whose own table this is; null for link, join and morph tables. */
  readonly uid: string | null;
  readonly columns: readonly ColumnLayout[];
  readonly indexes: readonly IndexLayout[];
  readonly foreignKeys: readonly ForeignKeyLayout[];
}

/** The tables of a registry, as `describeLayout` derives them. */
export interface Layout {
  /** Every table, the referenced ones (models' own tables) before the tables that reference them. */
  readonly tables: readonly TableLayout[];
}

const SCALAR_COLUMN_TYPES: Record<StoredScalarType, ColumnType> = {
  string: 'string',
  email: 'string',
  uid: 'string',
  enumeration: 'string',
  password: 'string',
  text: 'text',
  richtext: 'text',
  integer: 'integer',
  biginteger: 'bigInteger',
  float: 'double',
  decimal: 'decimal',
  boolean: 'boolean',
  json: 'jsonb',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'datetime',
};

/** The indexes the upload plugin declares on its file model (named after the plugin, not the table). */
const FILE_INDEXES: readonly IndexLayout[] = ['folder_path', 'created_at', 'updated_at', 'name', 'size', 'ext'].map((column) => ({
  name: `upload_files_${column}_index`,
  columns: [column],
  unique: false,
  origin: 'strapi' as const,
}));

const ID: ColumnLayout = { name: 'id', type: 'increments', nullable: false };

function column(name: string, type: ColumnType): ColumnLayout {
  return { name, type, nullable: true };
}

function index(name: string, columns: readonly string[], unique = false): IndexLayout {
  return { name, columns, unique, origin: 'strapi' };
}

/**
 * Indexes Strapi's layout lacks and every list of a draft-and-publish or localized type needs:
 * - `(locale, published_at)` serves its count, which filters on both: measured on the large
 *   fixture, the count goes from 0.45 ms to 0.08 ms on SQLite and from 3 ms to 0.6 ms on PostgreSQL;
 * - `(id, locale, published_at)` serves its pages, read in id order: the rows a page skips and
 *   tests are read from this narrow index instead of the table's wide rows (page 150 of the
 *   articles: 0.47 → 0.20 ms on SQLite; on PostgreSQL an index-only scan instead of a heap fetch
 *   per row). SQLite chooses it for the page as it is compiled, and reads the table without it.
 * `sync` adds them; `--no-sync` leaves a Strapi database as it is.
 */
function queryIndexes(model: Model): IndexLayout[] {
  if (model.modelType !== 'contentType') return [];
  const columns = [...(model.localized ? ['locale'] : []), ...(model.draftAndPublish ? ['published_at'] : [])];
  if (!columns.length) return [];
  const queryIndex = (indexed: string[]): IndexLayout => ({ name: `${model.tableName}_${indexed.join('_')}_index`, columns: indexed, unique: false, origin: 'query' });
  return [queryIndex(columns), queryIndex(['id', ...columns])];
}

function cascade(name: string, columnName: string, referencedTable: string): ForeignKeyLayout {
  return { name, columns: [columnName], referencedTable, referencedColumns: ['id'], onDelete: 'CASCADE' };
}

/** The column type a scalar attribute is stored in. */
export function columnTypeOf(type: StoredScalarType): ColumnType {
  return SCALAR_COLUMN_TYPES[type];
}

/**
 * A model's own table: id, the scalar columns in attribute order with the creator columns after
 * the timestamps, and `locale` last, because Strapi's i18n plugin adds it after the core's columns.
 * `created_by_id`/`updated_by_id` get Strapi's indexes but no foreign key: they point at the admin
 * users table, which belongs to Strapi's admin panel and is not part of this layout.
 */
function modelTable(model: Model): TableLayout {
  const columns: ColumnLayout[] = [ID];
  const indexes: IndexLayout[] = [];
  let locale: ColumnLayout | null = null;
  for (const attribute of model.attributes.values()) {
    if (attribute.kind === 'scalar') {
      const scalar = column(attribute.column, columnTypeOf(attribute.type));
      if (attribute.implicit && attribute.name === 'locale') locale = scalar;
      else columns.push(scalar);
      // Only uid attributes get a unique index: Strapi v4 ignores `unique: true` in the database.
      if (attribute.type === 'uid') indexes.push(index(`${model.tableName}_${attribute.column}_unique`, [attribute.column], true));
    } else if (attribute.kind === 'internal' && attribute.column) {
      columns.push({ ...column(attribute.column, 'integer'), referencesId: true });
      indexes.push(index(`${model.tableName}_${attribute.column}_fk`, [attribute.column]));
    }
  }
  if (locale) columns.push(locale);
  if (model.uid === FILE_UID) indexes.push(...FILE_INDEXES);
  indexes.push(...queryIndexes(model));
  for (const declared of model.indexes) indexes.push({ name: declared.name, columns: declared.columns, descending: declared.descending, unique: false, origin: 'schema' });
  return { name: model.tableName, role: 'model', uid: model.uid, columns, indexes, foreignKeys: [] };
}

/** A relation's link table, on the owning side: both ends cascade on delete. */
function linkTable(link: LinkTable): TableLayout {
  const { name, joinColumn, inverseJoinColumn, orderColumn, inverseOrderColumn } = link;
  const columns = [ID, column(joinColumn, 'integer'), column(inverseJoinColumn, 'integer')];
  const indexes = [
    index(`${name}_fk`, [joinColumn]),
    index(`${name}_inv_fk`, [inverseJoinColumn]),
    index(`${name}_unique`, [joinColumn, inverseJoinColumn], true),
  ];
  if (orderColumn) {
    columns.push(column(orderColumn, 'double'));
    indexes.push(index(`${name}_order_fk`, [orderColumn]));
  }
  if (inverseOrderColumn) {
    columns.push(column(inverseOrderColumn, 'double'));
    indexes.push(index(`${name}_order_inv_fk`, [inverseOrderColumn]));
  }
  const foreignKeys = [cascade(`${name}_fk`, joinColumn, link.ownerTable), cascade(`${name}_inv_fk`, inverseJoinColumn, link.targetTable)];
  return { name, role: 'link', uid: null, columns, indexes, foreignKeys };
}

/**
 * `<table>_components`: one row per component (or dynamic-zone entry) of an owner row. Its
 * indexes are named after the owner table, not the join table, as Strapi does. `component_id`
 * has no foreign key: it points into a different table per `component_type`.
 */
function componentJoinTable(ownerTable: string, name: string): TableLayout {
  return {
    name,
    role: 'componentJoin',
    uid: null,
    columns: [
      ID,
      column('entity_id', 'integer'),
      column('component_id', 'integer'),
      column('component_type', 'string'),
      column('field', 'string'),
      column('order', 'double'),
    ],
    indexes: [
      index(`${ownerTable}_field_index`, ['field']),
      index(`${ownerTable}_component_type_index`, ['component_type']),
      index(`${ownerTable}_entity_fk`, ['entity_id']),
      index(`${ownerTable}_unique`, ['entity_id', 'component_id', 'field', 'component_type'], true),
    ],
    foreignKeys: [cascade(`${ownerTable}_entity_fk`, 'entity_id', ownerTable)],
  };
}

/** `files_related_morphs`: which file fills which media attribute of which row; `related_id` is polymorphic. */
function morphTable(): TableLayout {
  return {
    name: MORPH_TABLE,
    role: 'morph',
    uid: null,
    columns: [
      ID,
      column('file_id', 'integer'),
      column('related_id', 'integer'),
      column('related_type', 'string'),
      column('field', 'string'),
      column('order', 'double'),
    ],
    indexes: [
      index(`${MORPH_TABLE}_fk`, ['file_id']),
      index(`${MORPH_TABLE}_order_index`, ['order']),
      index(`${MORPH_TABLE}_id_column_index`, ['related_id']),
    ],
    foreignKeys: [cascade(`${MORPH_TABLE}_fk`, 'file_id', 'files')],
  };
}

/** Every table the registry needs, in creation order. */
export function describeLayout(registry: Registry): Layout {
  const models = [...registry.contentTypes, registry.file, ...registry.components];
  const tables: TableLayout[] = models.map(modelTable);
  for (const model of models) {
    for (const attribute of model.attributes.values()) {
      if (attribute.kind === 'relation' && attribute.linkTable) tables.push(linkTable(attribute.linkTable));
    }
  }
  for (const model of models) {
    if (model.componentJoinTable) tables.push(componentJoinTable(model.tableName, model.componentJoinTable));
  }
  tables.push(morphTable());
  return { tables };
}

/** The indexes of a layout that this API adds to Strapi's, by table (`articles_locale_published_at_index`). */
export function queryIndexNames(layout: Layout): string[] {
  return layout.tables.flatMap((table) => table.indexes.filter((entry) => entry.origin === 'query').map((entry) => entry.name));
}
