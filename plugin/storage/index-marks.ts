/**
 * The mark sync leaves on the indexes it makes for schema files' declarations, and how the
 * catalog's text is read back for it (declared-indexes.ts says why each engine's mark is what it is).
 */

const MARK = 'koa-content-api index: ';

/** The mark of an index over `columns`: `koa-content-api index: views,id`. */
export function indexMark(columns: readonly string[]): string {
  return `${MARK}${columns.join(',')}`;
}

/** The columns a comment's mark names (`views,id`), or null when it has none. */
export function markedColumns(comment: string | null | undefined): string | null {
  if (!comment) return null;
  const found = new RegExp(`^${MARK}([a-z0-9_,]*)$`).exec(comment);
  return found ? found[1]! : null;
}

const SQLITE_INDEX = /^CREATE INDEX\s+\S+\s+ON\s+\S+\s*\((.*)\)$/is;
const SQLITE_MARKED_COLUMN = /^\s*[`"]([a-z0-9_]+)[`"]\s+COLLATE\s+BINARY\s*$/i;

/** The columns of a SQLite index statement every column of which is marked, or null. */
export function sqliteMarkedColumns(statement: string | null | undefined): string | null {
  const list = statement ? SQLITE_INDEX.exec(statement) : null;
  if (!list) return null;
  const columns = list[1]!.split(',').map((item) => SQLITE_MARKED_COLUMN.exec(item)?.[1]);
  return columns.every((column) => column !== undefined) ? columns.join(',') : null;
}

