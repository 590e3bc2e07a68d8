/**
 * A GraphQL request sent as a multipart form, by the GraphQL multipart request spec (what Apollo's
 * upload link and Strapi's graphql-upload speak): an `operations` part (the request, or a batch),
 * a `map` part (which file part goes to which variable: `{ "0": ["variables.file"] }`) and the
 * files, received into `folder` under the media library's limits. Each file is placed where the
 * map says, as the `Upload` value the upload mutations read (upload-fields.ts).
 */
import type { Context } from 'koa';
import { ValidationError } from '../errors.js';
import type { MediaLibrary } from '../upload/media-library.js';
import { receiveForm } from '../http/multipart.js';
import type { UploadedFile } from './upload-fields.js';

export async function readMultipartRequest(ctx: Context, library: MediaLibrary, folder: string): Promise<unknown> {
  const form = await receiveForm(ctx, library.settings, folder, (name) => name !== 'operations' && name !== 'map');
  const operations = jsonPart(form.fields.get('operations'), 'operations');
  const map = jsonPart(form.fields.get('map'), 'map');
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new ValidationError('map', 'Invalid multipart request: `map` must be an object of file part names to paths');
  for (const [part, paths] of Object.entries(map as Record<string, unknown>)) {
    const file = form.files.find((candidate) => candidate.part === part);
    if (!file) throw new ValidationError('map', `Invalid multipart request: no file part ${JSON.stringify(part)}`);
    if (!Array.isArray(paths)) throw new ValidationError(`map.${part}`, 'Invalid multipart request: expected a list of paths');
    const uploaded: UploadedFile = { ...file, folder };
    for (const path of paths) place(operations, String(path), uploaded);
  }
  return operations;
}

function jsonPart(values: readonly string[] | undefined, name: string): unknown {
  if (!values?.length) throw new ValidationError(name, `Invalid multipart request: the \`${name}\` part is missing`);
  try {
    return JSON.parse(values[0]);
  } catch {
    throw new ValidationError(name, `Invalid multipart request: the \`${name}\` part is not JSON`);
  }
}

/** Sets `value` at a dotted path (`variables.files.1`, `0.variables.file` in a batch) that must lead to a null placeholder. */
function place(target: unknown, path: string, value: UploadedFile): void {
  const keys = path.split('.');
  let node = target as Record<string, unknown> | unknown[] | null;
  for (const key of keys.slice(0, -1)) {
    const next = node && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    if (!next || typeof next !== 'object') throw new ValidationError('map', `Invalid multipart request: the path ${JSON.stringify(path)} names no variable`);
    node = next as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  if (!node || typeof node !== 'object' || !Object.hasOwn(node, last) || (node as Record<string, unknown>)[last] !== null || last === '__proto__') {
    throw new ValidationError('map', `Invalid multipart request: the path ${JSON.stringify(path)} must name a null placeholder`);
  }
  (node as Record<string, unknown>)[last] = value;
}
