/**
 * PostgreSQL (pg): row_to_json over a one-row subselect builds objects (no 100-argument cap,
 * key order kept, compact output), json_agg builds arrays, timestamps are formatted with to_char
 * as UTC, numerics are returned as numbers and bigints as text. Sorting uses the C collation and
 * SQLite's NULL placement so that both engines return the same order.
 */
import type { ScalarType } from '../../schema/registry.js';
import type { SortDirection } from '../../query/tree.js';
import { quoteIdentifier, STRING_TYPES, type Dialect } from './dialect.js';

export const postgresDialect: Dialect = {
  name: 'postgres',
  placeholder: (index) => `$${index}`,
  bindings: (values) => values,
  object(pairs) {
    const columns = pairs.map(([key, value]) => `${value} AS ${quoteIdentifier(key)}`).join(', ');
    return `(SELECT row_to_json(_o) FROM (SELECT ${columns}) _o)`;
  },
  arrayAggregate(element, order, nullWhenEmpty) {
    const aggregate = `json_agg(${element}${order.length ? ` ORDER BY ${order.join(', ')}` : ''})`;
    return nullWhenEmpty ? aggregate : `COALESCE(${aggregate}, '[]'::json)`;
  },
  value(type, column) {
    switch (type) {
      case 'datetime':
      case 'timestamp':
        return `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      case 'date':
        return `to_char(${column}, 'YYYY-MM-DD')`;
      case 'time':
        return `to_char(${column}, 'HH24:MI:SS.MS')`;
      case 'biginteger':
        return `${column}::text`;
      case 'decimal':
        return `${column}::float8`;
      default:
        return column;
    }
  },
  joinText: (expression) => `string_agg(${expression}, ',')`,
  bodyBytes: (expression) => expression,
  jsonText: (expression) => `(${expression})::text`,
  // PostgreSQL plans from statistics and needs no hint.
  checkpoint: null,
  unindexed: (column) => column,
  // A generic plan cannot see the page's LIMIT (a parameter) and expects a tenth of the table, for
  // which it would hash-join the page with a sequential scan of the whole table (q1: 1.0 ms of the
  // backend's CPU instead of 0.6). OFFSET 0 keeps the subquery from being merged into such a join.
  rowById: (table, alias, id) => ({
    join: `CROSS JOIN LATERAL (SELECT * FROM ${table} ${alias} WHERE ${alias}."id" = ${id} OFFSET 0) ${alias}`,
    conditions: [],
  }),
  // json, not jsonb: jsonb would reorder the keys.
  jsonValue: (placeholder) => `(${placeholder})::text::json`,
  typed: (placeholder, type) =>
    type === 'integer' ? `${placeholder}::bigint` : type === 'json' ? `${placeholder}::jsonb` : type === 'boolean' ? `${placeholder}::boolean` : placeholder,
  parameter(type, value) {
    if (value === null) return null;
    if ((type === 'datetime' || type === 'timestamp') && typeof value === 'number') {
      return new Date(value).toISOString().replace('T', ' ').replace('Z', '');
    }
    if (type === 'boolean') return value === true || value === 'true';
    return value;
  },
  text(column, type) {
    if (STRING_TYPES.has(type)) return column;
    if (['datetime', 'timestamp', 'date', 'time'].includes(type)) return postgresDialect.value(type as ScalarType, column);
    if (type === 'float' || type === 'decimal') return `${column}::float8::text`;
    return `${column}::text`;
  },
  contains: (text, parameter) => `strpos(${text}, ${parameter}) > 0`,
  startsWith: (text, parameter) => `starts_with(${text}, ${parameter})`,
  endsWith: (text, parameter) => `right(${text}, length(${parameter})) = ${parameter}`,
  direction: (direction: SortDirection) => (direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'),
  sortable(expression, type) {
    if (STRING_TYPES.has(type)) return `${expression} COLLATE "C"`;
    if (type === 'boolean') return `${expression}::int`;
    if (type === 'json') return `${expression}::text`;
    return expression;
  },
  castText: (expression) => `CAST(${expression} AS TEXT)`,
  integerDivide: (dividend, divisor) => `(${dividend}) / (${divisor})`,
  entryPosition: () => null,
};
