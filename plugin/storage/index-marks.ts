/**
 * The mark sync leaves on the indexes it makes for schema files' declarations, and how the
 * catalog's text is read back for it (declared-indexes.ts says why each engine's mark is what it is).
 */

const MARK = 'koa-content-api index: ';

/** An index's columns in order, and which of their keys descend (absent: all ascend). */
export interface IndexKeys {
  readonly columns: readonly string[];
  readonly descending?: readonly boolean[];
}

/** Each column, a descending one followed by `suffix`. */
function keyNames(index: IndexKeys, suffix: string): string[] {
  return index.columns.map((column, key) => (index.descending?.[key] ? `${column}${suffix}` : column));
}

/**
 * An index's keys as its mark names them: the columns in order, a descending one followed by
 * `:desc` (`views:desc,id`). Marks made before keys had a direction name only columns, which is
 * the same text for an index whose keys all ascend.
 */
export function indexKeys(index: IndexKeys): string {
  return keyNames(index, ':desc').join(',');
}

/** `views desc, id`: an index's keys as a message names them. */
export function describeKeys(index: IndexKeys): string {
  return keyNames(index, ' desc').join(', ');
}

/** `views_desc_id`: the keys as the index's default name spells them (schema/indexes.ts defaultIndexName). */
export function keysInName(index: IndexKeys): string[] {
  return keyNames(index, '_desc');
}

/** The mark of an index: `koa-content-api index: views:desc,id`. */
export function indexMark(index: IndexKeys): string {
  return `${MARK}${indexKeys(index)}`;
}

/** The keys a comment's mark names (`views:desc,id`), or null when it has none. */
export function markedColumns(comment: string | null | undefined): string | null {
  if (!comment) return null;
  const found = new RegExp(`^${MARK}([a-z0-9_,:]*)$`).exec(comment);
  return found ? found[1]! : null;
}

const SQLITE_INDEX = /^CREATE INDEX\s+\S+\s+ON\s+\S+\s*\((.*)\)$/is;
const SQLITE_MARKED_COLUMN = /^\s*[`"]([a-z0-9_]+)[`"]\s+COLLATE\s+BINARY(\s+DESC)?\s*$/i;

/** The keys of a SQLite index statement every column of which is marked (as indexKeys writes them), or null. */
export function sqliteMarkedColumns(statement: string | null | undefined): string | null {
  const list = statement ? SQLITE_INDEX.exec(statement) : null;
  if (!list) return null;
  const keys = list[1]!.split(',').map((item) => {
    const marked = SQLITE_MARKED_COLUMN.exec(item);
    return marked && (marked[2] ? `${marked[1]}:desc` : marked[1]);
  });
  return keys.every((key) => key) ? keys.join(',') : null;
}

