/**
 * SQLite (better-sqlite3): json_object/json_group_array, datetimes stored as epoch milliseconds,
 * booleans as 0/1, json as text. JSON values keep their subtype only through scalar subqueries,
 * CASE and nullif, so every nested value is built in place (see sql/README.md).
 */
import { CHECKPOINT_FUNCTION } from '../../storage/sql-functions.js';
import type { SortDirection } from '../../query/tree.js';
import { literal, STRING_TYPES, type Dialect } from './dialect.js';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  placeholder: (index) => `@p${index}`,
  // A named parameter beside the numbered ones (sqlite-statements.ts binds it).
  knownTotal: '@total',
  bindings(values) {
    const bindings: Record<string, unknown> = {};
    values.forEach((value, index) => {
      bindings[`p${index + 1}`] = value;
    });
    return bindings;
  },
  object(pairs) {
    return `json_object(${pairs.map(([key, value]) => `${literal(key)}, ${value}`).join(', ')})`;
  },
  arrayAggregate(element, order, nullWhenEmpty) {
    const aggregate = `json_group_array(${element}${order.length ? ` ORDER BY ${order.join(', ')}` : ''})`;
    return nullWhenEmpty ? `CASE WHEN count(*) > 0 THEN ${aggregate} END` : aggregate;
  },
  value(type, column) {
    switch (type) {
      case 'datetime':
      case 'timestamp':
        return `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`;
      case 'biginteger':
        return `CAST(${column} AS TEXT)`;
      case 'boolean':
        return `CASE ${column} WHEN 1 THEN json('true') WHEN 0 THEN json('false') END`;
      case 'json':
        return `json(${column})`;
      case 'float':
      case 'decimal':
        // A REAL with no fraction would print as 288.0; JavaScript (and Strapi) print 288.
        return `CASE WHEN ${column} = CAST(${column} AS INTEGER) THEN CAST(${column} AS INTEGER) ELSE ${column} END`;
      default:
        return column;
    }
  },
  // Bytes, not text: better-sqlite3 hands a BLOB over as a Buffer, with no UTF-8 decoding.
  joinText: (expression) => `group_concat(${expression}, ',')`,
  bodyBytes: (expression) => `CAST(${expression} AS BLOB)`,
  jsonText: (expression) => `CAST(${expression} AS BLOB)`,
  // A unary + keeps SQLite's planner from using an index for the term.
  unindexed: (column) => `+${column}`,
  // CROSS JOIN keeps the page as the outer loop: SQLite never reorders it.
  rowById: (table, alias, id) => ({ join: `CROSS JOIN ${table} ${alias}`, conditions: [`${alias}."id" = ${id}`] }),
  checkpoint: `${CHECKPOINT_FUNCTION}()`,
  typed: (placeholder, type) => (type === 'json' ? `json(${placeholder})` : placeholder),
  jsonValue: (placeholder) => `json(${placeholder})`,
  parameter(type, value) {
    if (value === null) return null;
    if (type === 'boolean') return value === true || value === 'true' ? 1 : 0;
    if (type === 'biginteger' && typeof value === 'string') return BigInt(value);
    return value;
  },
  text(column, type) {
    switch (type) {
      case 'datetime':
      case 'timestamp':
      case 'json':
        return sqliteDialect.value(type, column);
      case 'boolean':
        return `CASE ${column} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`;
      case 'float':
      case 'decimal':
        return `CAST(${sqliteDialect.value(type, column)} AS TEXT)`;
      default:
        return STRING_TYPES.has(type) || type === 'date' || type === 'time' ? column : `CAST(${column} AS TEXT)`;
    }
  },
  // LIKE is case-insensitive on SQLite; instr and substr compare bytes (D14).
  contains: (text, parameter) => `instr(${text}, ${parameter}) > 0`,
  startsWith: (text, parameter) => `substr(${text}, 1, length(${parameter})) = ${parameter}`,
  endsWith: (text, parameter) => `substr(${text}, length(${text}) - length(${parameter}) + 1) = ${parameter}`,
  // SQLite already places NULLs first ascending and compares strings bytewise.
  direction: (direction: SortDirection) => (direction === 'asc' ? 'ASC' : 'DESC'),
  sortable: (expression) => expression,
  castText: (expression) => `CAST(${expression} AS TEXT)`,
  integerDivide: (dividend, divisor) => `(${dividend}) / (${divisor})`,
  entryPosition: () => null,
};

