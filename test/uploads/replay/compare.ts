/**
 * How a replayed upload case is compared with its recording, field by field after normalize.mjs
 * (random hash suffixes, the run's timestamps, link rows' own ids). Strapi processes the files of
 * one request in parallel, so which of them gets which id is a race there; the replay inserts them
 * in the order they were sent. File ids are therefore translated, recorded id → replayed id, by
 * the name of each file a case added (names are distinct within a request); within a
 * request that sent several files the order of its answer and the folder order
 * (`files_folder_links.file_order`) follow the same race and are compared as sets.
 * Lists are compared as sets of files, and in order wherever the recording's order does not
 * depend on those ids (a sort on a field whose values are all distinct).
 */
import { expect } from 'chai';
import type { RecordedCase, TableDiff } from './recorded.js';

/** Recorded file id → replayed file id. */
export class FileIds {
  private readonly map = new Map<number, number>();

  /** Learns the ids of the files a case added (its `files` rows), file by file name. */
  learn(recorded: readonly Record<string, unknown>[], replayed: readonly Record<string, unknown>[]): void {
    const ours = new Map(replayed.map((file) => [file.name, file.id]));
    for (const file of recorded) {
      const id = ours.get(file.name);
      if (typeof file.id === 'number' && typeof id === 'number') this.map.set(file.id, id);
    }
  }

  /**
   * The value with every recorded file id in its replayed form: `file_id`, and the `id` of a
   * file — a `files` row, or a file as answered (flat or `{ id, attributes }`) — never an entry's
   * or a component's id, which may equal some file's.
   */
  translate<T>(value: T, rowsOfFiles = false): T {
    const walk = (item: unknown): unknown => {
      if (Array.isArray(item)) return item.map(walk);
      if (!item || typeof item !== 'object') return item;
      const isFile = rowsOfFiles || looksLikeFile(item as Record<string, unknown>);
      return Object.fromEntries(
        Object.entries(item).map(([key, entry]) => [key, ((key === 'id' && isFile) || key === 'file_id') && typeof entry === 'number' ? (this.map.get(entry) ?? entry) : walk(entry)]),
      );
    };
    return walk(value) as T;
  }

  translateId(id: unknown): unknown {
    return typeof id === 'number' ? (this.map.get(id) ?? id) : id;
  }
}

/** The attributes of a file as the routes answer it. */
const FILE_KEYS = new Set(['name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt']);

/** `{ id, …file attributes }` or `{ id, attributes: { …file attributes } }`, with the name among them. */
function looksLikeFile(item: Record<string, unknown>): boolean {
  if (typeof item.id !== 'number') return false;
  const attributes = item.attributes && typeof item.attributes === 'object' && Object.keys(item).length === 2 ? (item.attributes as Record<string, unknown>) : item;
  const keys = Object.keys(attributes).filter((key) => key !== 'id');
  return keys.includes('name') && keys.every((key) => FILE_KEYS.has(key));
}

/** What a case is expected to answer and write, after translation. */
export interface Expectation {
  readonly status: number;
  readonly response: unknown;
  readonly rows: Record<string, TableDiff>;
  readonly objects: { readonly added: string[]; readonly removed: string[] };
}

export function expectationOf(recorded: RecordedCase, ids: FileIds): Expectation {
  const rows = Object.fromEntries(
    Object.entries(recorded.rows).map(([table, diff]) => [
      table,
      { added: ids.translate(diff.added, table === 'files'), changed: ids.translate(diff.changed, table === 'files'), removed: table === 'files' ? diff.removed.map((id) => ids.translateId(id)) : ids.translate(diff.removed) },
    ]),
  );
  return { status: recorded.status, response: ids.translate(recorded.response), rows, objects: recorded.objects };
}

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
const byId = (a: unknown, b: unknown) => Number((a as { id: number }).id) - Number((b as { id: number }).id);

/** Rows compared as sets; with `racyOrder`, the folder order too (see above). */
function comparableRows(rows: Record<string, TableDiff>, racyOrder: boolean): Record<string, unknown> {
  const clean = (row: unknown) => (racyOrder && row && typeof row === 'object' && 'file_order' in row ? { ...row, file_order: '<racy>' } : row);
  return Object.fromEntries(
    Object.entries(rows).map(([table, diff]) => [
      table,
      { added: diff.added.map(clean).sort(byJson), changed: diff.changed.map(clean).sort(byJson), removed: [...diff.removed].map(clean).sort(byJson) },
    ]),
  );
}

/** `sort=name:asc` or `sort[0]=name:asc` of a list request, if any. */
function sortOf(path: string): { field: string; descending: boolean } | null {
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  const sort = query.get('sort') ?? query.get('sort[0]');
  if (!sort) return null;
  const [field, direction = 'asc'] = sort.split(':');
  return { field, descending: direction.toLowerCase() === 'desc' };
}

function compareList(path: string, expected: unknown[], actual: unknown[]): void {
  expect([...actual].sort(byId), 'the files listed').to.deep.equal([...expected].sort(byId));
  const sort = sortOf(path);
  if (!sort || sort.field === 'id') return;
  const values = expected.map((file) => (file as Record<string, unknown>)[sort.field]);
  if (new Set(values.map((value) => JSON.stringify(value))).size === values.length) {
    expect(actual.map((file) => (file as { id: number }).id), `the order by ${sort.field}`).to.deep.equal(expected.map((file) => (file as { id: number }).id));
  }
}

/** Every difference of the replayed case from its expectation, as assertion failures (thrown at the first). */
export function compareCase(
  recorded: RecordedCase,
  expected: Expectation,
  actual: { status: number; response: unknown; rows: Record<string, TableDiff>; objects: { added: string[]; removed: string[] } },
): void {
  expect(actual.status, 'status').to.equal(expected.status);
  const isList = recorded.request.method === 'GET' && (recorded.request.path.startsWith('/api/upload/files?') || recorded.request.path === '/api/upload/files');
  const racy = recorded.rows.files.added.length > 1;
  if ((isList || racy) && Array.isArray(expected.response) && Array.isArray(actual.response)) compareList(recorded.request.path, expected.response, actual.response);
  else expect(actual.response, 'answer').to.deep.equal(expected.response);
  expect(comparableRows(actual.rows, racy), 'rows written').to.deep.equal(comparableRows(expected.rows, racy));
  expect(actual.objects, 'stored objects').to.deep.equal(expected.objects);
}
