/**
 * `api.media.upload(stream, info)`: an upload from the host's own code (an import, a seed, a job),
 * taken down the same path as `POST /api/upload` — the size limit, the type sniffed from the
 * content, the name checks, the image formats, the rows in one transaction with their webhook
 * events, the attachment to an entry's media attribute — and answered as the route answers a
 * file. The host is trusted: no role or permission is asked for.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ValidationError } from '../errors.js';
import type { WriteEngine } from '../write/write.js';
import { reportToStderr } from '../write/lifecycles.js';
import { answeredFile } from './answered-file.js';
import type { MediaLibrary } from './media-library.js';
import { WriteAccess } from '../access/write-access.js';
import { fileTooBig, type UploadForm } from './upload-form.js';
import { makeReceivingFolder } from './receiving-folder.js';

export interface MediaUploadInfo {
  /** The file's name, as a browser would send it (`harbour.jpg`): names the file, gives its extension. */
  readonly filename: string;
  /** The declared type; the content decides where it can (`file-type`), as for the route. */
  readonly mimeType?: string;
  /** fileInfo's fields: the name kept in the row (else `filename`), the alternative text, the caption. */
  readonly name?: string;
  readonly alternativeText?: string;
  readonly caption?: string;
  /** Attach the file to an entry's media attribute: `{ ref: 'api::article.article', refId: 1, field: 'cover' }`. */
  readonly ref?: string;
  readonly refId?: number | string;
  readonly field?: string;
}

export interface MediaApi {
  /** Stores the stream as a new file; answers the file as `POST /api/upload` answers it (`{ id, name, …, url }`). */
  upload(content: Readable | Buffer | Uint8Array, info: MediaUploadInfo): Promise<Record<string, unknown>>;
  /** Deletes a file as `DELETE /api/upload/files/:id` does: its row, its links, then its stored objects (a NotFoundError when there is none). */
  remove(id: number): Promise<void>;
}

/** The role the answer is read under: none, so no rule of any role hides a field of the file. */
const HOST_ROLE = '';

/** `library` null: the media library is off (`upload: false`), and an upload says so. */
export function createMediaApi(engine: WriteEngine, library: MediaLibrary | null, timeout: number, report: (error: unknown) => void = reportToStderr): MediaApi {
  const reader = () => ({ role: HOST_ROLE, caller: { role: HOST_ROLE, user: null, claims: {}, now: engine.now() }, rules: engine.rules(), deadline: Date.now() + timeout });
  const read = (id: number) => answeredFile(engine, reader(), id);
  const hookRequest = { role: HOST_ROLE, state: {}, report, read };
  const libraryOn = (method: string): MediaLibrary => {
    if (!library) throw new Error(`media.${method}: the media library is off (the upload option is false)`);
    return library;
  };
  return {
    async remove(id) {
      const on = libraryOn('remove');
      await on.remove(WriteAccess.unrestricted(on.engine.executor.dialect), id, on.hooks(hookRequest));
    },
    async upload(content, info) {
      const library = libraryOn('upload');
      if (!info || typeof info.filename !== 'string' || info.filename === '') throw new ValidationError('filename', 'media.upload needs info.filename, the name of the file (photo.jpg)');
      const folder = await makeReceivingFolder();
      try {
        const path = join(folder, 'part-0');
        const bytes = await receive(content, path, library.settings.maxFileBytes);
        const form: UploadForm = {
          fields: formFields(info),
          files: [{ part: 'files', filename: info.filename, declaredType: info.mimeType ?? 'application/octet-stream', path, bytes }],
        };
        if (bytes === 0) throw new ValidationError('', 'Files are empty');
        const [id] = await library.upload(WriteAccess.unrestricted(library.engine.executor.dialect), form, folder, library.hooks(hookRequest));
        return await read(id as number);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}

/** The fields the route would have received: fileInfo as JSON, and ref/refId/field. */
function formFields(info: MediaUploadInfo): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  const fileInfo = Object.fromEntries(
    (['name', 'alternativeText', 'caption'] as const).filter((key) => info[key] !== undefined).map((key) => [key, info[key]]),
  );
  if (Object.keys(fileInfo).length) fields.set('fileInfo', [JSON.stringify(fileInfo)]);
  if (info.ref !== undefined) fields.set('ref', [String(info.ref)]);
  if (info.refId !== undefined) fields.set('refId', [String(info.refId)]);
  if (info.field !== undefined) fields.set('field', [String(info.field)]);
  return fields;
}

/** Writes the content to `path`, never more than `maxBytes` (then FileTooBig, as the route); answers its size. */
async function receive(content: Readable | Buffer | Uint8Array, path: string, maxBytes: number): Promise<number> {
  const source = content instanceof Readable ? content : Readable.from([Buffer.from(content)]);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? fileTooBig() : null, chunk);
    },
  });
  // A failure of the host's own stream is the host's error, passed on as it is.
  await pipeline(source, counter, createWriteStream(path));
  return bytes;
}
