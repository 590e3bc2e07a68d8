/**
 * The media library's writes, each in one pipeline: the files received → checked (fileInfo, ref,
 * names, types, images decoded) → formats made in the temporary folder → objects stored → rows
 * written in one transaction. A failure before the transaction commits removes the objects the
 * request stored, so nothing is left behind; objects a deletion or a replacement no longer needs
 * are removed after its commit.
 */
import type { WriteAccess } from '../access/write-access.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { RowStore } from '../write/row-store.js';
import { inTransaction } from '../write/transaction.js';
import type { WriteEngine } from '../write/write.js';
import { checkAllowedType, mustReachAttached, resolveAttachment, type ResolvedAttachment } from './attachment.js';
import { parseFileInfo, type FileInfo } from './file-info.js';
import { attachFile, deleteFile, insertFile, readFileObjects, replaceFile, updateFileInfo } from './file-rows.js';
import { hasFolderTables } from './folder-tables.js';
import { ImageWorkers } from './image-workers.js';
import { Limiter } from './limiter.js';
import type { ReceivedFile, UploadForm } from './upload-form.js';
import type { UploadSettings } from './options.js';
import { prepareFile, type PrepareContext, type PreparedFile } from './prepare-file.js';
import { StoredObjects, type StorageReport, type StoredFile } from './store-objects.js';
import { FileHooks, type FileHookRequest, type HookedInfo } from './file-hooks.js';

export class MediaLibrary {
  readonly limiter: Limiter;
  private readonly images: ImageWorkers;
  private folders: Promise<boolean> | null = null;

  constructor(
    readonly engine: WriteEngine,
    readonly settings: UploadSettings,
    /** The time budget of a write's transaction (ms), counted from its start: receiving and processing large files does not use it up. */
    private readonly timeout: number,
    /** Where storage failures go: an object not removed (which does not fail the request), the cause of a 503. */
    readonly report: StorageReport,
  ) {
    this.limiter = new Limiter(settings.imageConcurrency, settings.maxImagePixels);
    this.images = new ImageWorkers(settings);
  }

  /** Ends the image workers. */
  close(): void {
    this.images.close();
  }

  /** A write of file rows by a caller; the webhooks' media events it recorded are sent once it commits. */
  private async transaction<T>(access: WriteAccess, work: Parameters<typeof inTransaction<T>>[2]): Promise<T> {
    const result = await inTransaction(this.engine, { locks: ['files'], deadline: Date.now() + this.timeout, access }, work);
    this.engine.outbox?.committed();
    return result;
  }

  /** A media event of the webhooks (media.create, media.update, media.delete), in the write's transaction. */
  private recordEvent(store: RowStore, action: 'create' | 'update' | 'delete', id: number): Promise<void> {
    return this.engine.outbox?.recordFileEvent(store.trx, action, id) ?? Promise.resolve();
  }

  /** Whether uploads go into the API Uploads folder: the database has the folder tables (checked once). */
  private withFolders(): Promise<boolean> {
    return (this.folders ??= hasFolderTables(this.engine.knex));
  }

  /** The hooks and listeners of one request's file writes, or null when none hears of them. */
  hooks(request: FileHookRequest): FileHooks | null {
    return FileHooks.of(this.engine.lifecycles, this.engine.registry.file, request);
  }

  /** `POST /upload` with files: the new files' ids, in the order they were sent. */
  async upload(access: WriteAccess, form: UploadForm, folder: string, hooks: FileHooks | null): Promise<number[]> {
    const infos = parseFileInfo(form.fields.get('fileInfo'), form.files.length);
    const attachment = resolveAttachment(this.engine.registry, access, form.fields);
    const prepared = await this.prepare(form.files, infos, folder, attachment);
    const ids = await this.add(access, prepared, infos, attachment, hooks);
    await hooks?.afterCommit();
    return ids;
  }

  /** The files checked and processed in `folder`, nothing stored yet; each of a type `attachment` allows. */
  async prepare(files: readonly ReceivedFile[], infos: readonly (FileInfo | undefined)[], folder: string, attachment: ResolvedAttachment | null): Promise<PreparedFile[]> {
    const context: PrepareContext = { settings: this.settings, limiter: this.limiter, images: this.images, folder };
    const prepared = await Promise.all(files.map((file, index) => prepareFile(file, infos[index]?.name, context)));
    if (attachment) for (const file of prepared) checkAllowedType(attachment, file.mime);
    return prepared;
  }

  /** Stores prepared files and writes their rows (attached when asked) in one transaction; answers their ids. */
  async add(access: WriteAccess, prepared: readonly PreparedFile[], infos: readonly (FileInfo | undefined)[], attachment: ResolvedAttachment | null, hooks: FileHooks | null): Promise<number[]> {
    return this.storedWhile(prepared, (stored) =>
      this.transaction(access, async (store) => {
        if (attachment) await mustReachAttached(store, attachment);
        const ids = await this.insertRows(store, prepared, infos, stored, attachment, hooks);
        // A rule on `upload` holds for the new files too (a folder they must be in, say).
        for (const id of ids) await access.mustStillMatch(store.trx, store.registry.file, id, 'upload');
        return ids;
      }),
    );
  }

  /**
   * Stores the prepared files' objects, then runs `write` with what was stored (the rows' values);
   * when `write` fails, the objects are removed again.
   */
  async storedWhile<T>(prepared: readonly PreparedFile[], write: (stored: readonly StoredFile[]) => Promise<T>): Promise<T> {
    const objects = new StoredObjects(this.settings.provider, { replacing: false, report: this.report });
    try {
      const stored: StoredFile[] = [];
      for (const file of prepared) stored.push(await objects.putFile(file));
      // New keys replace nothing: in place before the rows, so a committed row never lacks its objects.
      await objects.commitStaged();
      // Known before a transaction holds the database's connection.
      await this.withFolders();
      return await write(stored);
    } catch (error) {
      await objects.removeAll();
      throw error;
    }
  }

  /** The files' rows, in the caller's transaction, each after its `beforeCreate` hooks: answers their ids. */
  async insertRows(
    store: RowStore,
    prepared: readonly PreparedFile[],
    infos: readonly (FileInfo | undefined)[],
    stored: readonly StoredFile[],
    attachment: ResolvedAttachment | null,
    hooks: FileHooks | null,
  ): Promise<number[]> {
    const withFolders = await this.withFolders();
    const ids: number[] = [];
    for (const [index, file] of prepared.entries()) {
      const hooked = hooks ? await hooks.beforeCreate(file, infos[index]) : null;
      const id = await insertFile(store, renamed(file, hooked), hooked ?? infos[index], stored[index], this.settings.provider.name, withFolders);
      hooks?.wrote(store, 'create', id);
      if (attachment) await attachFile(store, id, attachment);
      await this.recordEvent(store, 'create', id);
      ids.push(id);
    }
    return ids;
  }

  /** `POST /upload?id=N` with one file: new content under the same id, hash and URL. */
  async replace(access: WriteAccess, id: number, form: UploadForm, folder: string, hooks: FileHooks | null): Promise<void> {
    if (form.files.length > 1) throw new ValidationError('', 'Cannot replace a file with multiple ones');
    const [info] = parseFileInfo(form.fields.get('fileInfo'), 1);
    const existing = await readFileObjects(this.engine.knex, id);
    if (!existing) throw new NotFoundError('Entity not found');
    const file = await prepareFile(form.files[0] as ReceivedFile, info?.name, { settings: this.settings, limiter: this.limiter, images: this.images, folder }, { hash: existing.hash, ext: existing.ext });
    // The new objects keep the old keys. A staging provider (local, s3) puts them in place only
    // once the row is written, so a replacement that fails partway leaves the old file whole;
    // another provider overwrites them as they are stored, and a failure after that leaves the new
    // content under the old row rather than no content at all.
    const objects = new StoredObjects(this.settings.provider, { replacing: true, report: this.report });
    let stored: StoredFile;
    try {
      stored = await objects.putFile(file);
      await this.transaction(access, async (store) => {
        await mustReachFile(store, id, 'upload', 'Entity not found');
        const hooked = hooks ? await hooks.beforeUpdate(id, { ...givenInfo(info), name: file.name }, file) : null;
        await replaceFile(store, id, renamed(file, hooked), hooked ?? info, stored, this.settings.provider.name);
        await access.mustStillMatch(store.trx, store.registry.file, id, 'upload');
        await this.recordEvent(store, 'update', id);
        hooks?.wrote(store, 'update', id);
      });
    } catch (error) {
      await objects.discardStaged();
      throw error;
    }
    try {
      // The row is written: a commit that fails (logged, a 503) leaves some objects with the old
      // content under the new row, until the replacement is sent again.
      await objects.commitStaged();
    } finally {
      await objects.discardStaged();
      // The old formats the row no longer names go either way.
      if (existing.provider === this.settings.provider.name) {
        const kept = new Set(stored.objects.map((object) => object.key));
        await this.removeObjects(existing.objects.filter((object) => !kept.has(object.key)));
      }
    }
    await hooks?.afterCommit();
  }

  /** `POST /upload?id=N` without a file: fileInfo only. */
  async updateInfo(access: WriteAccess, id: number, form: UploadForm, hooks: FileHooks | null): Promise<void> {
    const [info] = parseFileInfo(form.fields.get('fileInfo'), 1);
    await this.transaction(access, async (store) => {
      await mustReachFile(store, id, 'upload', 'Entity not found');
      await updateFileInfo(store, id, hooks ? await hooks.beforeUpdate(id, givenInfo(info)) : info);
      await access.mustStillMatch(store.trx, store.registry.file, id, 'upload');
      await this.recordEvent(store, 'update', id);
      hooks?.wrote(store, 'update', id);
    });
    await hooks?.afterCommit();
  }

  /** `DELETE /upload/files/:id`, once the answer was read: the row and its links, then its objects. */
  async remove(access: WriteAccess, id: number, hooks: FileHooks | null): Promise<void> {
    const existing = await readFileObjects(this.engine.knex, id);
    if (!existing) throw new NotFoundError('file.notFound');
    const withFolders = await this.withFolders();
    const entry = await hooks?.answered(id);
    await this.transaction(access, async (store) => {
      await mustReachFile(store, id, 'destroy', 'file.notFound');
      if (hooks && entry) await hooks.beforeDelete(store, id, entry);
      await this.recordEvent(store, 'delete', id);
      await deleteFile(store, id, withFolders);
    });
    if (existing.provider === this.settings.provider.name) await this.removeObjects(existing.objects);
    await hooks?.afterCommit();
  }

  private async removeObjects(objects: readonly { key: string; mime: string }[]): Promise<void> {
    const results = await Promise.allSettled(objects.map((object) => this.settings.provider.delete(object)));
    for (const result of results) if (result.status === 'rejected') this.report(result.reason, 'a stored file no longer needed was not removed');
  }
}

/** A file the caller may `action` (its rule's `where` over the file's attributes); any other is answered as missing. */
async function mustReachFile(store: RowStore, id: number, action: 'upload' | 'destroy', missing: string): Promise<void> {
  if (!(await store.trx('files').where({ id }).first('id'))) throw new NotFoundError(missing);
  await store.access.mustReach(store.trx, store.registry.file, id, action, () => new NotFoundError(missing));
}

/** The file under the name its hooks gave it, if they gave one (the name it was sent with is already the file's). */
function renamed(file: PreparedFile, hooked: HookedInfo | null): PreparedFile {
  return hooked?.name ? { ...file, name: hooked.name } : file;
}

/** The information fileInfo gives: what it leaves out or sets to null keeps the file's (Strapi's isNil rule). */
function givenInfo(info: FileInfo | undefined): HookedInfo {
  const given: HookedInfo = {};
  for (const key of ['name', 'alternativeText', 'caption'] as const) if (info?.[key] !== undefined && info[key] !== null) given[key] = info[key];
  return given;
}

/** Strapi's rule for "no file": none sent, or one that is empty. */
export function hasNoFiles(form: UploadForm): boolean {
  return form.files.length === 0 || (form.files.length === 1 && form.files[0].bytes === 0);
}
