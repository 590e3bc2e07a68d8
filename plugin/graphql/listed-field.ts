/**
 * A root field answered from entries held in memory rather than a table: the i18n locales, the
 * same list `GET /i18n/locales` answers (and the upload folders of a database without Strapi's
 * folder tables: none). Its arguments are translated into the query tree as any root field's
 * (so filters, sort and pagination are read by the same parsers, with the same 400s), then applied
 * to the entries here, and the answer shaped by graphql-js from the selection; the operation's
 * statement carries it as a constant.
 */
import { OperationTypeNode, type FieldNode } from 'graphql';
import type { Action } from '../access/permissions.js';
import type { CompareFilter, CompareValue, Filter, RootQuery, Shape, ShapeKey, SortKey } from '../query/tree.js';
import { shapeValue } from './account-fields.js';
import { translateRootField, type RootTarget, type TranslateContext } from './translate-query.js';

/** An entry: its id and its attributes' values (dates as Date). */
export interface ListedEntry {
  readonly id: number;
  readonly attributes: Readonly<Record<string, unknown>>;
}

export interface ListedTarget extends RootTarget {
  /** The permission the field needs (the locales: `find` for both fields, Strapi's listLocales). */
  readonly grant: Action;
  readonly entries: () => Promise<readonly ListedEntry[]>;
}

export async function answerListedField(context: TranslateContext, target: ListedTarget, nodes: readonly FieldNode[]): Promise<string> {
  const root = translateRootField(context, target, nodes);
  const entries = await target.entries();
  const value = root.action === 'findOne' ? { data: entityOf(entries.find((entry) => entry.id === root.id)) } : listOf(root, entries);
  return shapeValue(context, OperationTypeNode.QUERY, nodes, nodes[0].name.value, value);
}

function entityOf(entry: ListedEntry | undefined): unknown {
  if (!entry) return null;
  const attributes = Object.fromEntries(Object.entries(entry.attributes).map(([name, value]) => [name, value instanceof Date ? value.toISOString() : value]));
  return { id: String(entry.id), attributes };
}

/** The list's page and its figures, as the compiler computes them (sql/compile-operation.ts paginationFigure). */
function listOf(root: RootQuery, entries: readonly ListedEntry[]): unknown {
  const { page, figures } = pageOf(root, entries);
  return { data: page.map(entityOf), meta: { pagination: figures } };
}

/** The entries that match the tree's filters, in its sort, its page of them, and the page's figures. */
export function pageOf(root: Pick<RootQuery, 'filters' | 'sort' | 'pagination'>, entries: readonly ListedEntry[]): { page: ListedEntry[]; figures: Record<string, number> } {
  const matching = entries.filter((entry) => root.filters === null || holds(root.filters, entry) === true);
  const sorted = [...matching].sort((a, b) => compareEntries(root.sort, a, b));
  const { pagination } = root;
  const start = pagination.mode === 'page' ? (pagination.page - 1) * pagination.pageSize : pagination.start;
  const limit = Math.max(pagination.mode === 'page' ? pagination.pageSize : pagination.limit, 1);
  const unlimited = limit >= Number.MAX_SAFE_INTEGER;
  const total = sorted.length;
  const figures = {
    total,
    page: unlimited ? 1 : Math.floor(start / limit) + 1,
    pageSize: unlimited ? total - start : limit,
    pageCount: unlimited ? 1 : Math.ceil(total / limit),
  };
  return { page: sorted.slice(start, unlimited ? undefined : start + limit), figures };
}

/** An entry's JSON as a translated GraphQL shape asks for it (as sql/compile-shape.ts builds a row's); relations answer null. */
export function shapedEntry(shape: Shape, entry: ListedEntry): Record<string, unknown> {
  const value = (key: ShapeKey): unknown => {
    switch (key.kind) {
      case 'id':
        return String(entry.id);
      case 'typename':
        return key.name;
      case 'field': {
        const field = entry.attributes[key.name];
        return field instanceof Date ? field.toISOString() : (field ?? null);
      }
      case 'object':
        return shapedEntry(key.shape, entry);
      default:
        return null;
    }
  };
  return Object.fromEntries(shape.map((key) => [key.key, value(key)]));
}

/** The value a filter or a sort compares: ids and numbers as numbers, dates as epoch ms (as query/cast-value.ts casts filter values). */
function valueOf(entry: ListedEntry, name: string): string | number | boolean | null {
  const value = name === 'id' ? entry.id : entry.attributes[name];
  if (value instanceof Date) return value.getTime();
  return value === undefined ? null : (value as string | number | boolean | null);
}

/** SQL's three-valued truth of `filter` on the entry, as the statement would decide it. */
function holds(filter: Filter, entry: ListedEntry): boolean | null {
  switch (filter.kind) {
    case 'and': {
      const values = filter.items.map((item) => holds(item, entry));
      return values.includes(false) ? false : values.includes(null) ? null : true;
    }
    case 'or': {
      const values = filter.items.map((item) => holds(item, entry));
      return values.includes(true) ? true : values.includes(null) ? null : false;
    }
    case 'not': {
      const value = holds(filter.item, entry);
      return value === null ? null : !value;
    }
    case 'related':
      // These types have no relation a filter can follow.
      return false;
    case 'compare':
      return compare(filter, valueOf(entry, filter.field.name));
  }
}

/** Only literal values: a row rule's caller variable never applies to these types. */
const plain = (value: CompareValue) => (typeof value === 'object' && value !== null ? null : value);

function compare(filter: CompareFilter, column: string | number | boolean | null): boolean | null {
  const values = filter.values.map(plain);
  const any = (test: (value: string | number | boolean | null) => boolean | null) => {
    const results = values.map(test);
    return results.includes(true) ? true : results.includes(null) ? null : false;
  };
  const text = (value: unknown) => String(value);
  const lower = (value: unknown) => text(value).toLowerCase();
  switch (filter.operator) {
    case '$null':
    case '$notNull':
      return (column === null) === ((values[0] === true) === (filter.operator === '$null'));
    case '$eq':
      return any((value) => (value === null ? column === null : column === null ? null : column === value));
    case '$ne':
      return any((value) => (value === null ? column !== null : column === null ? null : column !== value));
    case '$in':
      return column === null ? (values.includes(null) ? true : null) : values.includes(column);
    case '$notIn':
      return column === null ? null : !values.includes(column);
  }
  if (column === null) return null;
  switch (filter.operator) {
    case '$lt':
      return any((value) => value !== null && column < value);
    case '$lte':
      return any((value) => value !== null && column <= value);
    case '$gt':
      return any((value) => value !== null && column > value);
    case '$gte':
      return any((value) => value !== null && column >= value);
    case '$between':
      return values[0] !== null && values[1] !== null && column >= values[0] && column <= values[1];
    case '$eqi':
      return any((value) => lower(column) === lower(value));
    case '$nei':
      return any((value) => lower(column) !== lower(value));
    case '$contains':
      return any((value) => text(column).includes(text(value)));
    case '$notContains':
      return any((value) => !text(column).includes(text(value)));
    case '$containsi':
      return any((value) => lower(column).includes(lower(value)));
    case '$notContainsi':
      return any((value) => !lower(column).includes(lower(value)));
    case '$startsWith':
      return any((value) => text(column).startsWith(text(value)));
    case '$startsWithi':
      return any((value) => lower(column).startsWith(lower(value)));
    case '$endsWith':
      return any((value) => text(column).endsWith(text(value)));
    case '$endsWithi':
      return any((value) => lower(column).endsWith(lower(value)));
    default:
      return null;
  }
}

/** The sort's keys in order, nulls first ascending; then by id, as the statement orders ties. */
function compareEntries(sort: readonly SortKey[], a: ListedEntry, b: ListedEntry): number {
  for (const key of sort) {
    const [x, y] = [valueOf(a, key.field.name), valueOf(b, key.field.name)];
    if (x === y) continue;
    const order = x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
    return key.direction === 'asc' ? order : -order;
  }
  return a.id - b.id;
}
