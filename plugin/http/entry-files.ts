/**
 * Entries written with files, as Strapi v4 takes them: a multipart body with the entry's JSON in a
 * `data` part and its files in `files.<path>` parts — `files.gallery`, or the media of a component
 * (`files.seo.metaImage`, `files.links.0.image`, `files.blocks.1.file`: entry-file-path.ts). The
 * files are checked and processed, then stored, before the entry is written; their rows and links
 * (the API Uploads folder, order 1, a single media attribute losing the file it had, as Strapi
 * attaches them) are written in the entry's own transaction, so the entry and its files are
 * written together or not at all, and a write that fails removes the stored objects again.
 */
import { rm } from 'node:fs/promises';
import type { Context } from 'koa';
import { ValidationError } from '../errors.js';
import type { Model } from '../schema/registry.js';
import type { RowStore } from '../write/row-store.js';
import { checkAllowedType } from '../upload/attachment.js';
import { parseEntryFilePath, resolveEntryFilePath, type EntryFilePath } from '../upload/entry-file-path.js';
import type { FileHookRequest, FileHooks } from '../upload/file-hooks.js';
import type { MediaLibrary } from '../upload/media-library.js';
import { receiveForm } from './multipart.js';
import type { NamedFile } from '../upload/upload-form.js';
import type { PreparedFile } from '../upload/prepare-file.js';
import { makeReceivingFolder } from '../upload/receiving-folder.js';

const NO_DATA = "When using multipart/form-data you need to provide your data in a JSON 'data' field.";
const BAD_DATA = "Invalid 'data' field. 'data' should be a valid JSON.";
const BAD_PART = `When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\nFor example, when a media file is named "avatar", make sure the form key name is "files.avatar"`;

export interface EntryFiles {
  /** The write's body: `{ data }` from the `data` part. */
  readonly body: { readonly data: unknown };
  /** The entry's attributes the files are written under (`gallery` for `files.gallery`, `seo` for `files.seo.metaImage`): the write's field rule must allow them. */
  readonly attributes: readonly string[];
  /**
   * Stores the files and runs the write with their rows in its transaction, their `beforeCreate`
   * hooks there too and their after hooks once it is done; removes the temporary files in any case.
   */
  write<T>(run: (alsoWrite: (store: RowStore, id: number) => Promise<void>) => Promise<T>, hookRequest: FileHookRequest): Promise<T>;
}

interface AttributeFiles {
  readonly path: EntryFilePath;
  readonly prepared: readonly PreparedFile[];
}

/** The entry write's multipart body, or null when the request is not multipart (a JSON write). */
export async function receiveEntryFiles(ctx: Context, library: MediaLibrary, model: Model): Promise<EntryFiles | null> {
  if (!ctx.is('multipart')) return null;
  const folder = await makeReceivingFolder();
  try {
    const form = await receiveForm(ctx, library.settings, folder, () => true);
    const raw = form.fields.get('data')?.[0];
    if (raw === undefined) throw new ValidationError('', NO_DATA);
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      throw new ValidationError('', BAD_DATA);
    }
    const groups: AttributeFiles[] = [];
    for (const [name, files] of filesByAttribute(form.files)) {
      const path = parseEntryFilePath(library.engine.registry, model, name);
      // The types the attribute takes are checked now when its component is known, else once it is (a dynamic zone's item).
      const known = path.media && path.owner ? { uid: path.owner.uid, id: 0, field: path.field, multiple: path.media.multiple, table: path.owner.tableName, allowedTypes: path.media.allowedTypes } : null;
      groups.push({ path, prepared: await library.prepare(files, [], folder, known) });
    }
    return {
      body: { data },
      attributes: [...new Set(groups.map((group) => group.path.name.split('.')[0]!))],
      write: (run, hookRequest) => writeWithFiles(library, model, groups, run, library.hooks(hookRequest)).finally(() => rm(folder, { recursive: true, force: true })),
    };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

function filesByAttribute(files: readonly NamedFile[]): Map<string, NamedFile[]> {
  const groups = new Map<string, NamedFile[]>();
  for (const file of files) {
    const [prefix, ...path] = file.part.split('.');
    if (prefix !== 'files' || path.length === 0 || path.some((segment) => segment === '')) throw new ValidationError('', BAD_PART);
    const name = path.join('.');
    groups.set(name, [...(groups.get(name) ?? []), file]);
  }
  return groups;
}

async function writeWithFiles<T>(
  library: MediaLibrary,
  model: Model,
  groups: readonly AttributeFiles[],
  run: (alsoWrite: (store: RowStore, id: number) => Promise<void>) => Promise<T>,
  hooks: FileHooks | null,
): Promise<T> {
  const prepared = groups.flatMap((group) => group.prepared);
  const written = await library.storedWhile(prepared, (stored) =>
    run(async (store, id) => {
      let next = 0;
      for (const group of groups) {
        const count = group.prepared.length;
        const attachment = await resolveEntryFilePath(store, library.engine.registry, model, id, group.path);
        for (const file of group.prepared) checkAllowedType(attachment, file.mime);
        await library.insertRows(store, group.prepared, [], stored.slice(next, next + count), attachment, hooks);
        next += count;
      }
    }),
  );
  // After the entry's own after hooks: the files were written in its transaction.
  await hooks?.afterCommit();
  return written;
}
