// How an upload case becomes a request, for the recorder (fetch and FormData) and the replay
// (supertest's attach and field): the parts in order, each file with the name and type a browser
// would send for it.
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

const TYPES = {
  '.txt': 'text/plain',
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.html': 'text/html',
};

/** A part as it is sent: `{ field, value }` or `{ field, filename, type, content }` (field `files` unless the part says `name`). */
export function resolvePart(part, filesDir) {
  if (part.field !== undefined) return { field: part.field, value: part.value };
  const filename = part.filename ?? part.file;
  const content = part.file !== undefined ? readFileSync(join(filesDir, part.file)) : Buffer.alloc(part.bytes, 0x61);
  const type = part.type ?? TYPES[extname(part.file ?? filename).toLowerCase()] ?? 'application/octet-stream';
  return { field: part.name ?? 'files', filename, type, content };
}

/** The case's parts as a FormData, for fetch. */
export function buildForm(parts, filesDir) {
  const form = new FormData();
  for (const part of parts.map((item) => resolvePart(item, filesDir))) {
    if (part.value !== undefined) form.append(part.field, part.value);
    else form.append(part.field, new Blob([part.content], { type: part.type }), part.filename);
  }
  return form;
}

/** The case's path: its own, a function of what earlier cases saved, or the upload route. */
export function requestPath(testCase, saved) {
  const path = typeof testCase.path === 'function' ? testCase.path(saved) : testCase.path;
  return path ?? '/api/upload';
}
