/**
 * The seam between the compiler and a database: how each engine builds JSON, formats values,
 * compares text and orders NULLs. Everything else in sql/ is shared.
 */
import type { ScalarType } from '../../schema/registry.js';
import type { FilterValue, SortDirection } from '../../query/tree.js';

export interface Dialect {
  readonly name: 'sqlite' | 'postgres' | 'mysql';
  /** The placeholder of the parameter numbered `index` (1-based). */
  placeholder(index: number): string;
  /** The bindings object or array for the given values, in number order. */
  bindings(values: readonly unknown[]): unknown;
  /** A JSON object built from (key, SQL expression) pairs, in that key order. */
  object(pairs: readonly (readonly [string, string])[]): string;
  /**
   * An aggregate over `element` (a JSON expression) in `order`, as a JSON array; `[]` when no row,
   * or SQL NULL when `nullWhenEmpty`. Used as the select list of a subquery.
   */
  arrayAggregate(element: string, order: readonly string[], nullWhenEmpty: boolean): string;
  /**
   * An aggregate like arrayAggregate over at most `limit` rows (null: all) after skipping `offset`
   * (validated integers), on an engine that limits inside the aggregate. Without it, a per-parent
   * window limits the rows in a FROM subquery, which MariaDB cannot correlate with the parent row.
   */
  limitedArrayAggregate?(element: string, order: readonly string[], nullWhenEmpty: boolean, limit: number | null, offset: number): string;
  /** The JSON value of a column of the given type (datetimes formatted, bigintegers as strings…). */
  value(type: ScalarType, column: string): string;
  /**
   * An aggregate joining the text of `expression` over the rows with commas; NULL when none. The
   * rows come from a sorted FROM subquery; `position` names its column of each row's place in
   * that order, when `entryPosition` asked for one.
   */
  joinText(expression: string, position: string | null): string;
  /**
   * The body statement of an engine where aggregating the entries' text costs more than handing
   * the entries over (MariaDB writes an aggregate of long text to a temporary table on disk): its
   * rows are the body's pieces in order — `head`, then `empty` (the text standing for the entries
   * when there is none), each row of `entries` in its order, then `tail` — which the executor joins,
   * the entries with commas. `filterHops`: the statement's filter hops (CompileContext.filterHops).
   * Absent where the body is one value the database builds.
   */
  bodyPieces?(pieces: { head: string; empty: string; entries: string; tail: string; filterHops: { readonly root: number; readonly other: number } }): string;
  /** The response body's text as the statement hands it over: a BLOB on SQLite (bytes, not a decoded string); PostgreSQL's executor asks for it in binary. */
  bodyBytes(expression: string): string;
  /** The final statement's JSON as text (PostgreSQL would otherwise hand back parsed objects). */
  jsonText(expression: string): string;
  /** A column term that the planner must not answer from an index (the page scan reads in id order). */
  unindexed(column: string): string;
  /**
   * `column IN (placeholders)` comparing text by code point, as `typed` does, but written so that
   * no index answers it (as `unindexed`), where that form is cheaper per row than the typed one;
   * absent elsewhere.
   */
  unindexedExactIn?(column: string, placeholders: readonly string[]): string;
  /**
   * The page's rows looked up in their table by id, one index lookup per row of the page:
   * `FROM (<page>) p <join> WHERE <conditions>` gives the row as `alias`.
   */
  rowById(table: string, alias: string, id: string): { join: string; conditions: string[] };
  /**
   * A condition true for every row, evaluated once per entry the statement builds, that lets a
   * stopped reader abandon the statement (SQLite: a function call into the read worker, which fails
   * once the worker is being terminated); null where the engine cancels statements itself.
   */
  readonly checkpoint: string | null;
  /**
   * A placeholder made comparable with a column of `type`: PostgreSQL infers int4 for integer
   * columns, too narrow for ids like 9999999999; json parameters are JSON text.
   */
  typed(placeholder: string, type: ScalarType | 'integer'): string;
  /** A parameter holding JSON text, as a JSON value inside an object the statement builds, its keys in the text's order. */
  jsonValue(placeholder: string): string;
  /** A filter value as a parameter of this engine (booleans, datetimes differ). */
  parameter(type: ScalarType | 'integer', value: FilterValue): unknown;
  /** A column's value as the text the API returns for it, for the text operators on any type. */
  text(column: string, type: ScalarType | 'integer'): string;
  /** Case-sensitive substring tests; `pattern` is a parameter holding the plain text. */
  contains(text: string, parameter: string): string;
  startsWith(text: string, parameter: string): string;
  endsWith(text: string, parameter: string): string;
  /** The ORDER BY direction, with NULLs first ascending and last descending on every engine. */
  direction(direction: SortDirection): string;
  /** A column's value as sorted and range-compared: strings in code-point order; fit for MIN/MAX (D5). */
  sortable(expression: string, type: ScalarType | 'integer'): string;
  /** An expression as text (`CAST(… AS TEXT)`; MariaDB has no TEXT cast). */
  castText(expression: string): string;
  /** The integer quotient of two integer expressions. */
  integerDivide(dividend: string, divisor: string): string;
  /**
   * Each listed entry's place in `orderBy` (an `ORDER BY …` clause), for an engine whose aggregate
   * does not read a sorted FROM subquery in its order; null where it does.
   */
  entryPosition(orderBy: string): string | null;
  /**
   * A statement's text as run through knex on a write's transaction, where the engine's session
   * may read string literals differently from the executor's sessions; absent where they agree.
   */
  knexText?(sql: string): string;
  /**
   * The placeholder by which a list's body statement takes its total once the executor knows it,
   * where the executor keeps totals while the data is unchanged (SQLite: sqlite-known-totals.ts);
   * absent elsewhere. compile-body.ts then also writes the statement to hand its total out.
   */
  readonly knownTotal?: string;
  /**
   * Where a body comes as pieces (MariaDB) and the database keeps a version per table (the change
   * triggers: storage/change-triggers.ts): the tail piece's expression, given `tail` (the
   * pagination's text around an expression of the total) and `count` (the list's `count(*)`
   * statement). The tail takes a known total — `knownTotal` when the versions of `tables` read
   * now are `knownVersions`, counted otherwise — and appends, after a NUL byte, the versions it
   * read and the total it used: all in the statement's one snapshot (sql/mysql-known-totals.ts).
   */
  versionedTail?(parts: { tail: (total: string) => string; count: string; tables: readonly string[]; knownVersions: string; knownTotal: string }): string;
}

/** `"name"`: identifiers come from validated schema names, quoting keeps reserved words safe. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A SQL string literal for schema-defined text (keys, uids, field names). */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Escapes LIKE wildcards so that filter values are literal text (D15); use with ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export const STRING_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'enumeration', 'email', 'uid', 'password']);
