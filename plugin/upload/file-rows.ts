/**
 * The `files` rows of uploads, as Strapi's upload plugin writes them, in the write's transaction:
 * a new file (with its folder link and, for `ref`/`refId`/`field`, its morph row), a replaced
 * file, new information, a deletion with the file's links. Values go through the RowStore, so
 * each database gets them in its own form.
 */
import type { Knex } from 'knex';
import { MORPH_TABLE } from '../schema/registry.js';
import type { RowStore } from '../write/row-store.js';
import { apiUploadFolder, linkToFolder } from './api-folder.js';
import type { FileInfo } from './file-info.js';
import { FOLDER_LINKS_TABLE } from './folder-tables.js';
import type { PreparedFile } from './prepare-file.js';
import type { StoredObject } from './provider.js';
import { kilobytes, type StoredFile } from './store-objects.js';

const FILES = 'files';

/** Where a new file is attached: an entry's media attribute. */
export interface Attachment {
  readonly uid: string;
  readonly id: number;
  readonly field: string;
  readonly multiple: boolean;
}

/**
 * The columns a file's content sets, on upload and on replace: all of them, so a replacement
 * leaves nothing of the old content (a text file replacing an image has no width or height).
 */
function contentColumns(file: PreparedFile, stored: StoredFile, provider: string): Record<string, unknown> {
  return {
    width: file.width,
    height: file.height,
    hash: file.hash,
    ext: file.ext,
    mime: file.mime,
    size: kilobytes(file.bytes),
    url: stored.url,
    provider,
  };
}

/** Inserts a new file's row, in the API Uploads folder when the database has folders; answers its id. */
export async function insertFile(store: RowStore, file: PreparedFile, info: FileInfo | undefined, stored: StoredFile, provider: string, withFolders: boolean): Promise<number> {
  const folder = withFolders ? await apiUploadFolder(store.trx, store.client, store.now) : null;
  const id = await store.insert(FILES, {
    name: file.name,
    alternative_text: info?.alternativeText ?? null,
    caption: info?.caption ?? null,
    formats: stored.formats,
    ...contentColumns(file, stored, provider),
    preview_url: null,
    provider_metadata: stored.providerMetadata,
    folder_path: folder?.path ?? '/',
    created_at: store.now,
    updated_at: store.now,
  });
  if (folder) await linkToFolder(store.trx, id, folder);
  return id;
}

/**
 * Links the file to an entry's media attribute as Strapi does: a single media attribute loses the
 * file it had; every new link has order 1 (Strapi's own order for files attached by upload).
 */
export async function attachFile(store: RowStore, fileId: number, attachment: Attachment): Promise<void> {
  const owner = { related_id: attachment.id, related_type: attachment.uid, field: attachment.field };
  if (!attachment.multiple) await store.trx(MORPH_TABLE).where(owner).delete();
  await store.insertMany(MORPH_TABLE, [{ file_id: fileId, ...owner, order: 1 }]);
}

/**
 * A replaced file's row: the new content under the old hash and extension, new formats (`{}` when
 * none), the name and the information fileInfo gives. `folder_path` becomes `/`, as Strapi
 * writes it on replace (the folder link stays).
 */
export async function replaceFile(store: RowStore, id: number, file: PreparedFile, info: FileInfo | undefined, stored: StoredFile, provider: string): Promise<void> {
  await store.update(FILES, id, {
    name: file.name,
    ...(info?.alternativeText !== undefined ? { alternative_text: info.alternativeText } : {}),
    ...(info?.caption !== undefined ? { caption: info.caption } : {}),
    formats: stored.formats ?? {},
    ...contentColumns(file, stored, provider),
    ...(stored.providerMetadata ? { provider_metadata: stored.providerMetadata } : {}),
    folder_path: '/',
    updated_at: store.now,
  });
}

/** New information only: a value left out or null keeps the old one (Strapi's isNil rule). */
export async function updateFileInfo(store: RowStore, id: number, info: FileInfo | undefined): Promise<void> {
  const given = (value: string | null | undefined) => value !== null && value !== undefined;
  await store.update(FILES, id, {
    ...(given(info?.name) ? { name: info!.name } : {}),
    ...(given(info?.alternativeText) ? { alternative_text: info!.alternativeText } : {}),
    ...(given(info?.caption) ? { caption: info!.caption } : {}),
    updated_at: store.now,
  });
}

/** Deletes the row, its morph rows and its folder link. */
export async function deleteFile(store: RowStore, id: number, withFolders: boolean): Promise<void> {
  await store.trx(MORPH_TABLE).where({ file_id: id }).delete();
  if (withFolders) await store.trx(FOLDER_LINKS_TABLE).where({ file_id: id }).delete();
  await store.trx(FILES).where({ id }).delete();
}

/** What the storage holds of a file: its row's hash, extension, type, provider and formats. */
export interface FileObjects {
  readonly id: number;
  readonly hash: string;
  readonly ext: string;
  readonly provider: string;
  readonly objects: readonly StoredObject[];
}

/** The file's row as far as its stored objects go, or null when there is no such file. */
export async function readFileObjects(knex: Knex | Knex.Transaction, id: number): Promise<FileObjects | null> {
  const row = (await knex(FILES).where({ id }).first('id', 'hash', 'ext', 'mime', 'provider', 'formats')) as
    | { id: number; hash: string; ext: string | null; mime: string; provider: string; formats: unknown }
    | undefined;
  if (!row) return null;
  const formats = (typeof row.formats === 'string' ? JSON.parse(row.formats) : row.formats) as Record<string, { hash?: string; ext?: string; mime?: string }> | null;
  const ext = row.ext ?? '';
  const objects: StoredObject[] = [{ key: `${row.hash}${ext}`, mime: row.mime }];
  for (const format of Object.values(formats ?? {})) {
    if (format?.hash) objects.push({ key: `${format.hash}${format.ext ?? ext}`, mime: format.mime ?? row.mime });
  }
  return { id: Number(row.id), hash: row.hash, ext, provider: row.provider, objects };
}
