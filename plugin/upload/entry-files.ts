/**
 * Entries written with files, as Strapi v4 takes them: a multipart body with the entry's JSON in a
 * `data` part and its files in `files.<attribute>` parts (`files.gallery`). The files are checked
 * and processed before the entry is written, so a bad file writes nothing; once the write has
 * committed they are stored and attached to the entry (its API Uploads folder, order 1, a single
 * media attribute losing the file it had, as Strapi attaches them), and the answer is read again.
 * As in Strapi, the entry and its files are two transactions: a storage that fails after the entry
 * was written leaves the entry without the files (a 503). Media of components (`files.seo.metaImage`)
 * are not taken yet.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'koa';
import { ValidationError } from '../errors.js';
import type { ReadRequest, ReadResult } from '../read.js';
import type { Model } from '../schema/registry.js';
import { answerOf } from '../write/write.js';
import type { ResolvedAttachment } from './attachment.js';
import type { MediaLibrary } from './media-library.js';
import { receiveForm, type NamedFile } from './multipart.js';
import type { PreparedFile } from './prepare-file.js';

const NO_DATA = "When using multipart/form-data you need to provide your data in a JSON 'data' field.";
const BAD_DATA = "Invalid 'data' field. 'data' should be a valid JSON.";
const BAD_PART = `When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\nFor example, when a media file is named "avatar", make sure the form key name is "files.avatar"`;

export interface EntryFiles {
  /** The write's body: `{ data }` from the `data` part. */
  readonly body: { readonly data: unknown };
  /** Runs the write, then attaches the files to the written entry and answers it read again; removes the temporary files in any case. */
  write(run: () => Promise<ReadResult | Buffer>, request: Omit<ReadRequest, 'action' | 'id'>, timeout: number): Promise<ReadResult | Buffer>;
}

interface AttributeFiles {
  readonly attachment: Omit<ResolvedAttachment, 'id'>;
  readonly prepared: readonly PreparedFile[];
}

/** The entry write's multipart body, or null when the request is not multipart (a JSON write). */
export async function receiveEntryFiles(ctx: Context, library: MediaLibrary, model: Model): Promise<EntryFiles | null> {
  if (!ctx.is('multipart')) return null;
  if (model.kind === 'singleType' || ctx.path.endsWith('/localizations')) throw new ValidationError('', 'Files can be sent with the entry only to POST and PUT of a collection type');
  const folder = await mkdtemp(join(tmpdir(), 'content-api-upload-'));
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
      const attribute = model.attributes.get(name);
      if (attribute?.kind !== 'media') throw new ValidationError(`files.${name}`, `Invalid file part "files.${name}": ${model.uid} has no media attribute of that name (media of components cannot be sent with the entry yet)`);
      const attachment = { uid: model.uid, field: name, multiple: attribute.multiple, table: model.tableName, allowedTypes: attribute.allowedTypes };
      groups.push({ attachment, prepared: await library.prepare(files, [], folder, { ...attachment, id: 0 }) });
    }
    return { body: { data }, write: (run, request, timeout) => writeThenAttach(library, groups, run, request, timeout).finally(() => rm(folder, { recursive: true, force: true })) };
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

async function writeThenAttach(library: MediaLibrary, groups: readonly AttributeFiles[], run: () => Promise<ReadResult | Buffer>, request: Omit<ReadRequest, 'action' | 'id'>, timeout: number): Promise<ReadResult | Buffer> {
  const written = await run();
  if (Buffer.isBuffer(written) || groups.length === 0) return written;
  const id = (JSON.parse(written.body.toString('utf8')) as { data: { id: number } }).data.id;
  written.release?.();
  for (const { attachment, prepared } of groups) await library.add(prepared, [], { ...attachment, id });
  return answerOf(library.engine, { ...request, id, deadline: Date.now() + timeout });
}
