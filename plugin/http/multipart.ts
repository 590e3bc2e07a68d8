/**
 * Reads an upload request's multipart body as it arrives: each `files` part is streamed to a file
 * of its own in the request's temporary folder (never held in memory), the other parts kept as
 * text. Past a limit — a file over `maxFileBytes`, more than `maxFiles` files, too many or too
 * large text parts — the rest of the body is drained unread and the answer is a 413; a body that
 * breaks off (client gone) or is not valid multipart is a 400. Either way the caller removes the
 * temporary folder, and with it everything received.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'koa';
import { ApiError, ValidationError } from '../errors.js';
import { fileTooBig, type FormLimits, type NamedFile, type UploadForm } from '../upload/upload-form.js';

const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 256 * 1024;
/** Room for the part headers and boundaries around each file. */
const PART_OVERHEAD_BYTES = 64 * 1024;

const tooMany = (what: string) => new ApiError('PayloadTooLargeError', `Too many ${what} in one request`);

/** An empty form for a request that is not multipart (Strapi answers it as one without files). */
const EMPTY_FORM: UploadForm = { fields: new Map(), files: [] };

/**
 * The form; file parts are kept when `isFilePart(name)` (the upload route's `files`; an entry
 * write's `files.<attribute>` and any other, which it then refuses by name).
 */
export async function receiveForm(ctx: Context, limits: FormLimits, folder: string, isFilePart: (name: string) => boolean = (name) => name === 'files'): Promise<UploadForm> {
  if (!ctx.is('multipart')) return EMPTY_FORM;
  const declared = Number(ctx.get('content-length') || 0);
  // A body that says it is larger than every file the request may hold is refused before it is read.
  if (declared > limits.maxFiles * (limits.maxFileBytes + PART_OVERHEAD_BYTES) + MAX_FIELDS * MAX_FIELD_BYTES) throw fileTooBig();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      defParamCharset: 'utf8',
      // busboy stops a file at `fileSize` bytes and calls that the limit: one byte more tells a file of exactly maxFileBytes from a larger one.
      limits: { fileSize: limits.maxFileBytes + 1, files: limits.maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
    });
  } catch {
    throw new ValidationError('', 'Invalid multipart body: no boundary');
  }
  return collect(ctx.req, parser, folder, isFilePart);
}

function collect(request: Readable, parser: busboy.Busboy, folder: string, isFilePart: (name: string) => boolean): Promise<UploadForm> {
  const fields = new Map<string, string[]>();
  const files: NamedFile[] = [];
  const writes: Promise<void>[] = [];
  let failure: ApiError | null = null;
  const fail = (error: ApiError) => {
    failure ??= error;
  };
  return new Promise((resolve, reject) => {
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(tooMany('bytes in a text part'));
      else fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    parser.on('file', (name, stream, info) => {
      // The upload route reads the `files` parts only; others are drained, as Strapi ignores them.
      if (!isFilePart(name) || failure) {
        stream.resume();
        return;
      }
      const path = join(folder, `part-${files.length}`);
      const received = { part: name, filename: info.filename ?? '', declaredType: info.mimeType, path, bytes: 0 };
      files.push(received);
      stream.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
      stream.on('limit', () => fail(fileTooBig()));
      writes.push(pipeline(stream, createWriteStream(path)).catch(() => fail(new ValidationError('', 'Invalid multipart body: a file part broke off'))));
    });
    parser.on('filesLimit', () => fail(tooMany('files')));
    parser.on('fieldsLimit', () => fail(tooMany('text parts')));
    parser.on('error', () => reject(new ValidationError('', 'Invalid multipart body')));
    request.on('aborted', () => reject(new ValidationError('', 'The request body broke off')));
    parser.on('close', () => {
      Promise.all(writes).then(() => (failure ? reject(failure) : resolve({ fields, files })), reject);
    });
    request.pipe(parser);
  });
}
