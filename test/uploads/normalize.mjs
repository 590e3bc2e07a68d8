// What a case wrote, in a form both engines and the reference share, and what is normalized in it
// before comparing: the random suffix of a hash (`photo_<random>`), the run's own timestamps
// (`<now>`), and the `id` of link and morph rows (rows of those tables are compared by content).
// Used by record.mjs and by the replay (upload-replay.test.ts).

export const ROW_TABLES = ['files', 'files_related_morphs', 'files_folder_links', 'upload_folders'];
/** Tables whose rows are told apart by their id; the others by their whole content. */
const KEYED_BY_ID = new Set(['files', 'upload_folders']);
const JSON_COLUMNS = new Set(['formats', 'provider_metadata']);
const TIME_COLUMNS = new Set(['created_at', 'updated_at']);
const NUMBER_COLUMNS = new Set(['size', 'order', 'file_order', 'width', 'height', 'file_id', 'related_id', 'folder_id', 'path_id', 'id']);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DAY = 24 * 60 * 60 * 1000;
const RANDOM_SUFFIX = /_[0-9a-f]{10}(?=\.|$)/g;

/** A row as every engine reads it: JSON parsed, datetimes as ISO strings, numbers as numbers, no id for link rows. */
export function canonicalRow(table, row) {
  const canonical = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'id' && !KEYED_BY_ID.has(table)) continue;
    if (value === null || value === undefined) canonical[column] = null;
    else if (JSON_COLUMNS.has(column)) canonical[column] = typeof value === 'string' ? JSON.parse(value) : value;
    else if (TIME_COLUMNS.has(column)) canonical[column] = new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value).toISOString();
    else if (NUMBER_COLUMNS.has(column)) canonical[column] = Number(value);
    else canonical[column] = value;
  }
  return canonical;
}

function keyOf(table, row) {
  return KEYED_BY_ID.has(table) ? String(row.id) : JSON.stringify(row);
}

/** Rows by key, from rows as the database answered them. */
export function indexRows(table, rows) {
  return new Map(rows.map((row) => canonicalRow(table, row)).map((row) => [keyOf(table, row), row]));
}

/** Every table's rows, from a better-sqlite3 connection. */
export function snapshotSqlite(sqlite) {
  return Object.fromEntries(ROW_TABLES.map((table) => [table, indexRows(table, sqlite.prepare(`SELECT * FROM ${table} ORDER BY id`).all())]));
}

/** Every table's rows, from a knex instance (a missing table has none). */
export async function snapshotKnex(knex) {
  const snapshot = {};
  for (const table of ROW_TABLES) {
    const rows = (await knex.schema.hasTable(table)) ? await knex(table).select('*').orderBy('id') : [];
    snapshot[table] = indexRows(table, rows);
  }
  return snapshot;
}

/** What changed between two snapshots of a table: rows added, rows changed (as they are after), keys removed. */
export function diffRows(before, after) {
  const added = [];
  const changed = [];
  for (const [key, row] of after) {
    const old = before.get(key);
    if (!old) added.push(row);
    else if (JSON.stringify(old) !== JSON.stringify(row)) changed.push(row);
  }
  const removed = [...before.keys()].filter((key) => !after.has(key)).map((key) => (before.get(key).id !== undefined ? before.get(key).id : before.get(key)));
  return { added, changed, removed };
}

/** Object names in the storage folder, sorted, their random suffixes normalized. */
export function normalizeObjectNames(names) {
  return names.map((name) => name.replace(RANDOM_SUFFIX, '_<random>')).sort();
}

/** Replaces random hash suffixes and date-times within a day of `runStartedAt` (the run's own) everywhere in `value`. */
export function normalize(value, runStartedAt) {
  if (typeof value === 'string') {
    if (ISO_DATE_TIME.test(value)) return Math.abs(Date.parse(value) - runStartedAt) <= DAY ? '<now>' : value;
    return value.replace(RANDOM_SUFFIX, '_<random>');
  }
  if (Array.isArray(value)) return value.map((item) => normalize(item, runStartedAt));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalize(item, runStartedAt)]));
  return value;
}
