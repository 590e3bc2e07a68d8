/**
 * `content-api explain`'s advice on indexes: for a list whose sort, or whose filters, fall on a
 * column of the type's own table that no index leads with, one line naming the index to declare.
 *
 * A static rule (the column is not the leading column of any index of the layout) rather than
 * the engine's plan: explain needs no database, and a plan says what the planner chose for the
 * data at hand — PostgreSQL reads a small table sequentially even beside a usable index, and a
 * plan read on a test database would then advise nothing where the production table is large.
 * The rule is what the planners do with the statements the compiler writes: a list's page is
 * read in its sort's order from an index that leads with the sort's column (SQLite: `SCAN t USING
 * INDEX`, PostgreSQL: an index scan under the LIMIT), else every matching row is read and sorted.
 */
import type { Model, ScalarAttribute } from '../schema/registry.js';
import type { Filter, RootQuery } from '../query/tree.js';
import type { IndexLayout, Layout } from '../storage/layout.js';
import { STRING_TYPES } from '../sql/dialect/dialect.js';
import { defaultIndexName } from '../schema/indexes.js';

/** The comparisons a B-tree index serves. */
const INDEXED_OPERATORS = new Set(['$eq', '$in', '$lt', '$lte', '$gt', '$gte', '$between']);

/** Types a declared index cannot cover (schema/indexes.ts refuses them). */
const NOT_INDEXABLE = new Set(['text', 'richtext', 'json', 'password']);

/**
 * Whether an index on a column of this type serves the compiled SQL on this engine. String
 * values are compared and sorted by code point everywhere: PostgreSQL sorts them `COLLATE "C"`
 * (a declared index on a string column is made in that collation, so it serves sorts but not
 * filters, which compare in the column's own) and MariaDB in `utf8mb4_nopad_bin`, which no index
 * in the column's collation serves. PostgreSQL sorts booleans as integers.
 */
function indexServes(dialect: string, type: string, use: 'sort' | 'filter'): boolean {
  if (NOT_INDEXABLE.has(type)) return false;
  if (dialect === 'mysql') return !STRING_TYPES.has(type);
  if (dialect === 'postgres') return use === 'sort' ? type !== 'boolean' : !STRING_TYPES.has(type);
  return true;
}

/** The lines of advice for a planned request (none for findOne, which reads one row by id). */
export function indexHints(root: RootQuery, layout: Layout, dialect: string): string[] {
  if (root.action !== 'find') return [];
  const table = layout.tables.find((entry) => entry.role === 'model' && entry.uid === root.model.uid);
  if (!table) return [];
  const leading = new Set(['id', ...table.indexes.map((index) => index.columns[0])]);
  const names = new Set(layout.tables.flatMap((entry) => entry.indexes.map((index) => index.name)));
  const hints: string[] = [];
  const [first] = root.sort;
  const descending = first?.direction === 'desc';
  if (first && !first.path.length && first.field.kind === 'scalar' && !sortServed(table.indexes, first.field.column, descending, dialect) && indexServes(dialect, first.field.type, 'sort')) {
    // MariaDB needs the key in the sort's direction (sortServed); elsewhere an ascending key serves both.
    const key = dialect === 'mysql' && descending ? 'desc' : null;
    hints.push(`sort on ${table.name}.${first.field.column} reads every row: ${declaration(root.model, first.field, names, key)}`);
  }
  const filtered = rootComparisons(root.filters).filter((field) => indexServes(dialect, field.type, 'filter'));
  if (filtered.length && !filtered.some((field) => leading.has(field.column))) {
    hints.push(`filter on ${table.name}.${filtered[0]!.column} reads every row: ${declaration(root.model, filtered[0]!, names, null)}`);
  }
  return hints;
}

/**
 * Whether an index reads a list sorted on `column` in the API's order (ties by id ascending):
 * - MariaDB reads an index backwards only whole (its hidden id key descending too), so only a key
 *   in the sort's own direction serves (measured: `Using filesort` beside an ascending one for
 *   `:desc`); Strapi's and the API's own keys all ascend;
 * - PostgreSQL sorts NULL first ascending (dialect/postgres.ts): only declared indexes, made in
 *   that order, serve, in either direction; Strapi's put NULL last;
 * - SQLite: any index leading with the column, read either way.
 */
function sortServed(indexes: readonly IndexLayout[], column: string, descending: boolean, dialect: string): boolean {
  if (column === 'id') return true;
  return indexes.some((index) => {
    if (index.columns[0] !== column) return false;
    if (dialect === 'mysql') return (index.descending?.[0] === true) === descending;
    return dialect !== 'postgres' || index.origin === 'schema';
  });
}

/**
 * What to write, and where: `index: true` on an attribute the author wrote, an `indexes` entry for
 * an implicit one or a descending key (`key`), with a name when the default one is taken (on
 * PostgreSQL the API's own `<table>_published_at_index` does not serve a sort: see sortServed).
 */
function declaration(model: Model, field: ScalarAttribute, names: ReadonlySet<string>, key: 'desc' | null): string {
  const file = model.source ? ` in ${model.source.file}` : '';
  const descending = [key === 'desc'];
  const attribute = key ? `${field.name}:${key}` : field.name;
  if (names.has(defaultIndexName(model.tableName, { columns: [field.column], descending }))) {
    return `declare "indexes: [{ name: ${defaultIndexName(model.tableName, { columns: [field.column, 'sort'], descending })}, attributes: [${attribute}] }]"${file}`;
  }
  if (field.implicit || key) return `declare "indexes: [{ attributes: [${attribute}] }]"${file}`;
  return `declare "index: true" on ${model.singularName}.${field.name}${file}`;
}

/** The root table's scalars compared in ways an index serves, through `$and` only (an `$or` needs one per branch). */
function rootComparisons(filter: Filter | null): ScalarAttribute[] {
  if (!filter) return [];
  if (filter.kind === 'and') return filter.items.flatMap(rootComparisons);
  if (filter.kind === 'compare' && filter.field.kind === 'scalar' && INDEXED_OPERATORS.has(filter.operator)) return [filter.field];
  return [];
}
