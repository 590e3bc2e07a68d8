/**
 * The upload plugin's folder tables and Strapi's settings store, in Strapi 4.26's layout: content
 * API uploads go into the "API Uploads" folder (api-folder.ts), whose id Strapi keeps in
 * `strapi_core_store_settings`. A Strapi database has them; `sync` adds them to one that lacks
 * them (a new database, or one `copy` moved), so the files show in Strapi's media library.
 */
import type { Knex } from 'knex';
import { applyLayout, type SchemaChange } from '../storage/sync.js';
import type { ColumnLayout, ColumnType, IndexLayout, Layout, TableLayout } from '../storage/layout.js';

export const FOLDERS_TABLE = 'upload_folders';
export const FOLDER_LINKS_TABLE = 'files_folder_links';
export const STORE_TABLE = 'strapi_core_store_settings';
export const FOLDER_PARENT_LINKS_TABLE = 'upload_folders_parent_links';

const column = (name: string, type: ColumnType): ColumnLayout => ({ name, type, nullable: name !== 'id' });
const index = (name: string, columns: string[], unique = false): IndexLayout => ({ name, columns, unique, origin: 'strapi' });
const cascade = (name: string, columnName: string, referencedTable: string) => ({ name, columns: [columnName], referencedTable, referencedColumns: ['id'], onDelete: 'CASCADE' as const });
const ID = column('id', 'increments');

function linkTable(name: string, join: string, inverse: string, order: string, target: string): TableLayout {
  return {
    name,
    role: 'link',
    uid: null,
    columns: [ID, column(join, 'integer'), column(inverse, 'integer'), column(order, 'double')],
    indexes: [index(`${name}_fk`, [join]), index(`${name}_inv_fk`, [inverse]), index(`${name}_unique`, [join, inverse], true), index(`${name}_order_inv_fk`, [order])],
    foreignKeys: [cascade(`${name}_fk`, join, name === FOLDER_LINKS_TABLE ? 'files' : FOLDERS_TABLE), cascade(`${name}_inv_fk`, inverse, target)],
  };
}

const FOLDER_LAYOUT: Layout = {
  tables: [
    {
      name: FOLDERS_TABLE,
      role: 'model',
      uid: 'plugin::upload.folder',
      columns: [ID, column('name', 'string'), column('path_id', 'integer'), column('path', 'string'), column('created_at', 'datetime'), column('updated_at', 'datetime'), column('created_by_id', 'integer'), column('updated_by_id', 'integer')],
      indexes: [index('upload_folders_path_id_index', ['path_id'], true), index('upload_folders_path_index', ['path'], true), index('upload_folders_created_by_id_fk', ['created_by_id']), index('upload_folders_updated_by_id_fk', ['updated_by_id'])],
      foreignKeys: [],
    },
    linkTable(FOLDER_LINKS_TABLE, 'file_id', 'folder_id', 'file_order', FOLDERS_TABLE),
    linkTable(FOLDER_PARENT_LINKS_TABLE, 'folder_id', 'inv_folder_id', 'folder_order', FOLDERS_TABLE),
    {
      name: STORE_TABLE,
      role: 'model',
      uid: null,
      columns: [ID, column('key', 'string'), column('value', 'text'), column('type', 'string'), column('environment', 'string'), column('tag', 'string')],
      indexes: [],
      foreignKeys: [],
    },
  ],
};

/** The folder tables and the settings store, in the order their rows can be written (folders before links). */
export const FOLDER_TABLES: readonly TableLayout[] = FOLDER_LAYOUT.tables;

/** Creates the folder tables and the settings store where they are missing; never changes existing ones. */
export async function syncFolderTables(knex: Knex): Promise<SchemaChange[]> {
  return knex.transaction((trx) => createMissingTables(trx, FOLDER_TABLES));
}

/** Creates those of `tables` the database lacks, in the caller's transaction (copy's). */
export async function createMissingTables(knex: Knex, tables: readonly TableLayout[]): Promise<SchemaChange[]> {
  const missing: TableLayout[] = [];
  for (const table of tables) if (!(await knex.schema.hasTable(table.name))) missing.push(table);
  if (!missing.length) return [];
  return applyLayout(knex, { tables: missing });
}

/** Whether the database has what placing files in folders needs (a database served with sync off may not). */
export async function hasFolderTables(knex: Knex): Promise<boolean> {
  for (const table of [FOLDERS_TABLE, FOLDER_LINKS_TABLE, STORE_TABLE]) if (!(await knex.schema.hasTable(table))) return false;
  return true;
}

/** Whether the database has the folders and both their link tables (what reading folders with their relations needs). */
export async function hasFolderReadTables(knex: Knex): Promise<boolean> {
  for (const table of [FOLDERS_TABLE, FOLDER_LINKS_TABLE, FOLDER_PARENT_LINKS_TABLE]) if (!(await knex.schema.hasTable(table))) return false;
  return true;
}
