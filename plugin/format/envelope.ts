/**
 * Response bodies. Entries arrive as JSON text built by the database and are joined as text:
 * parsing and re-serializing them would cost as much as building them.
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

/** `{ data: [entries], meta: { pagination } }` */
export function listBody(entries: readonly string[], meta: PaginationMeta): string {
  return `{"data":[${entries.join(',')}],"meta":${JSON.stringify({ pagination: meta })}}`;
}

/** `{ data: entry, meta: {} }` */
export function entryBody(entry: string): string {
  return `{"data":${entry},"meta":{}}`;
}

/** The error envelope Strapi answers with. */
export function errorBody(status: number, name: string, message: string, details: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ data: null, error: { status, name, message, details } });
}
