/**
 * The folder content API uploads go into, as Strapi's upload plugin keeps it: "API Uploads" at the
 * root of the media library (or "API Uploads (1)", … when a folder of that name was made by
 * hand), created at the first upload, its id kept in the settings store under
 * `plugin_upload_api-folder`. A file in it has `folder_path` `/<path_id>` and a link row in
 * `files_folder_links`.
 */
import type { Knex } from 'knex';
import type { DatabaseClient } from '../storage/database.js';
import { formatColumnValue } from '../storage/model-values.js';
import { FOLDER_LINKS_TABLE, FOLDERS_TABLE, STORE_TABLE } from './folder-tables.js';

const STORE_KEY = 'plugin_upload_api-folder';
const BASE_NAME = 'API Uploads';

export interface Folder {
  readonly id: number;
  readonly path: string;
}

async function storedFolderId(trx: Knex.Transaction): Promise<number | null> {
  const row = (await trx(STORE_TABLE).where({ key: STORE_KEY }).first('value')) as { value: unknown } | undefined;
  try {
    const id = (JSON.parse(String(row?.value)) as { id?: unknown } | null)?.id;
    return typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** The API Uploads folder, made (and remembered) when there is none. */
export async function apiUploadFolder(trx: Knex.Transaction, client: DatabaseClient, now: Date): Promise<Folder> {
  const storedId = await storedFolderId(trx);
  const stored = storedId === null ? undefined : ((await trx(FOLDERS_TABLE).where({ id: storedId }).first('id', 'path')) as { id: number; path: string } | undefined);
  if (stored) return { id: Number(stored.id), path: stored.path };
  const rootNames = new Set(
    ((await trx(FOLDERS_TABLE).whereNotIn('id', trx('upload_folders_parent_links').select('folder_id')).select('name')) as { name: string }[]).map((row) => row.name),
  );
  let name = BASE_NAME;
  for (let index = 1; rootNames.has(name); index++) name = `${BASE_NAME} (${index})`;
  const { max } = (await trx(FOLDERS_TABLE).max({ max: 'path_id' }).first()) as { max: number | null };
  const pathId = Number(max ?? 0) + 1;
  const at = formatColumnValue(client, 'datetime', now);
  const [inserted] = (await trx(FOLDERS_TABLE).insert({ name, path_id: pathId, path: `/${pathId}`, created_at: at, updated_at: at }).returning('id')) as ({ id: number } | number)[];
  const id = Number(typeof inserted === 'object' ? inserted.id : inserted);
  const value = JSON.stringify({ id });
  if (await trx(STORE_TABLE).where({ key: STORE_KEY }).first('id')) await trx(STORE_TABLE).where({ key: STORE_KEY }).update({ value });
  else await trx(STORE_TABLE).insert({ key: STORE_KEY, value, type: 'object', environment: null, tag: null });
  return { id, path: `/${pathId}` };
}

/** Puts the file last in the folder, as Strapi orders a folder's files. */
export async function linkToFolder(trx: Knex.Transaction, fileId: number, folder: Folder): Promise<void> {
  const { max } = (await trx(FOLDER_LINKS_TABLE).where({ folder_id: folder.id }).max({ max: 'file_order' }).first()) as { max: number | null };
  await trx(FOLDER_LINKS_TABLE).insert({ file_id: fileId, folder_id: folder.id, file_order: Number(max ?? 0) + 1 });
}
