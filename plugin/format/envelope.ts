/**
 * Response bodies. Entries arrive as the JSON bytes the database built, already joined with
 * commas, and are wrapped as bytes: parsing and re-serializing them, or even decoding them into
 * JavaScript strings, would cost as much as building them.
 */
import type { RootQuery } from '../query/tree.js';

export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

export function paginationMeta(root: RootQuery, total: number | null): PaginationMeta {
  const { pagination } = root;
  if (pagination.mode === 'page') {
    const meta: PaginationMeta = { page: pagination.page, pageSize: pagination.pageSize };
    if (total !== null) Object.assign(meta, { pageCount: Math.ceil(total / pagination.pageSize), total });
    return meta;
  }
  const meta: PaginationMeta = { start: pagination.start, limit: pagination.limit };
  if (total !== null) Object.assign(meta, { total });
  return meta;
}

const LIST_START = Buffer.from('{"data":[');
const ENTRY_START = Buffer.from('{"data":');
const ENTRY_END = Buffer.from(',"meta":{}}');

/** `{ data: [entries], meta: { pagination } }` from the entries' bytes joined with commas. */
export function listBody(entries: Buffer, meta: PaginationMeta): Buffer {
  return Buffer.concat([LIST_START, entries, Buffer.from(`],"meta":${JSON.stringify({ pagination: meta })}}`)]);
}

/** `{ data: entry, meta: {} }` */
export function entryBody(entry: Buffer): Buffer {
  return Buffer.concat([ENTRY_START, entry, ENTRY_END]);
}

/** The error envelope Strapi answers with. */
export function errorBody(status: number, name: string, message: string, details: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ data: null, error: { status, name, message, details } });
}
