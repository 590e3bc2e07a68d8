/**
 * MariaDB (and MySQL) through mysql2: JSON_OBJECT/JSON_ARRAYAGG build the body, datetimes are
 * formatted as UTC text, booleans are tinyint, bigintegers are returned as text, decimals as
 * numbers. The executor's sessions read double-quoted identifiers, `||` as concatenation and
 * backslashes as plain characters (mysql-session.ts), so the shared SQL runs unchanged.
 *
 * Text comparisons use `utf8mb4_nopad_bin`: the columns' own collation (Strapi's tables take the
 * server's, usually `utf8mb4_general_ci` or `_unicode_ci`) ignores case, accents and trailing
 * spaces, while `$eq`, `$contains` and sorting compare code points on every engine. See sql/README.md.
 */
import type { ScalarType } from '../../schema/registry.js';
import type { SortDirection } from '../../query/tree.js';
import { EVERY_TABLE, VERSIONS_TABLE } from '../../storage/table-versions.js';
import { literal, STRING_TYPES, type Dialect } from './dialect.js';

/** Compares and sorts by code point, trailing spaces included. */
const BINARY = 'utf8mb4_nopad_bin';

/** MySQL's way to say "every remaining row" in a LIMIT (it has no LIMIT ALL). */
export const MYSQL_ALL_ROWS = '18446744073709551615';

/**
 * Semi-joins for a statement whose filter hops are all the listed entries' own, each in no other
 * (q9's `filters[category][name]`): MariaDB may then start from the related rows a filter selects
 * (with a histogram of the filtered column, which `copy` collects: storage/vacuum.ts) instead of
 * testing every entry against the filter's set: q9's page and count, 1.5 and 1.2 ms → 0.24 and
 * 0.20 ms. The read sessions keep them off otherwise: a nested hop is flattened with the hop around
 * it, and six hops then took 7–9 s (storage/mysql-session.ts).
 */
const SEMI_JOINS = "SET STATEMENT optimizer_switch = 'semijoin=on' FOR ";

/** A placeholder the executor turns into `?` (sql/positional.ts): the compiler may write parameters out of number order. */
const placeholderOf = (index: number) => `?/*p${index}*/`;

export const mysqlDialect: Dialect = {
  name: 'mysql',
  placeholder: placeholderOf,
  bindings: (values) => values,
  // Knex's connections keep backslash escapes (the client escapes values into the text), where the
  // LIKE filters' `ESCAPE '\'` (written for the executor's NO_BACKSLASH_ESCAPES sessions) is '\\'.
  knexText: (sql) => sql.replaceAll("ESCAPE '\\'", "ESCAPE '\\\\'"),
  object(pairs) {
    // MariaDB 10.11 answers an empty string for JSON_OBJECT() in a derived table with a window
    // function (a GraphQL entry whose selection was skipped whole): the same object, built otherwise.
    if (!pairs.length) return `JSON_EXTRACT('{}', '$')`;
    return `JSON_OBJECT(${pairs.map(([key, value]) => `${literal(key)}, ${value}`).join(', ')})`;
  },
  arrayAggregate(element, order, nullWhenEmpty) {
    const aggregate = `JSON_ARRAYAGG(${element}${order.length ? ` ORDER BY ${order.join(', ')}` : ''})`;
    // JSON_ARRAY(), not '[]': a text literal would be embedded as the string "[]".
    return nullWhenEmpty ? aggregate : `COALESCE(${aggregate}, JSON_ARRAY())`;
  },
  limitedArrayAggregate(element, order, nullWhenEmpty, limit, offset) {
    // Written into the SQL: MariaDB refuses a parameter there (mysql2 binds numbers as doubles).
    const aggregate = `JSON_ARRAYAGG(${element} ORDER BY ${order.join(', ')} LIMIT ${limit ?? MYSQL_ALL_ROWS} OFFSET ${offset})`;
    // Over no row, a limited JSON_ARRAYAGG is NULL or [] depending on the plan: decided by the count.
    return `CASE WHEN count(*) > ${offset} THEN ${aggregate} ${nullWhenEmpty ? '' : 'ELSE JSON_ARRAY() '}END`;
  },
  value(type, column) {
    switch (type) {
      case 'datetime':
      case 'timestamp':
        return `CONCAT(LEFT(DATE_FORMAT(${column}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')`;
      case 'date':
        return `DATE_FORMAT(${column}, '%Y-%m-%d')`;
      case 'time':
        return `LEFT(TIME_FORMAT(${column}, '%H:%i:%s.%f'), 12)`;
      case 'biginteger':
        return `CAST(${column} AS CHAR)`;
      case 'boolean':
        // A comparison is a JSON boolean inside JSON_OBJECT; the tinyint itself would be 0 or 1.
        return `(${column} <> 0)`;
      case 'json':
        // MariaDB's JSON is LONGTEXT: read as JSON, not embedded as a string.
        return `JSON_EXTRACT(${column}, '$')`;
      case 'decimal':
        return `CAST(${column} AS DOUBLE)`;
      default:
        return column;
    }
  },
  // Every aggregate of long text (group_concat, a window over the entries, a materialized FROM
  // subquery of them) writes an internal temporary table to disk, 0.2–0.3 ms each per statement:
  // the body is handed over in pieces instead, each part of a UNION ALL sent as it is read, which
  // the executor joins (mysql-body.ts). A part's ORDER BY holds only with a LIMIT.
  bodyPieces: ({ head, empty, entries, tail, filterHops }) =>
    `${filterHops.root && !filterHops.other ? SEMI_JOINS : ''}` +
    `SELECT CAST(${head} AS BINARY) AS "piece" UNION ALL SELECT CAST(${literal(empty)} AS BINARY) ` +
    `UNION ALL (${entries} LIMIT ${MYSQL_ALL_ROWS}) UNION ALL SELECT CAST(${tail} AS BINARY)`,
  joinText: (expression, position) => `group_concat(${expression}${position ? ` ORDER BY ${position}` : ''} SEPARATOR ',')`,
  // Bytes: mysql2 hands a binary string over as a Buffer, without decoding it.
  bodyBytes: (expression) => `CAST(${expression} AS BINARY)`,
  // JSON_OBJECT writes `{"a": 1}`; compact output is the other engines' bytes.
  jsonText: (expression) => `JSON_COMPACT(${expression})`,
  // The range of the `(locale, published_at)` index over most of a table reads each row by id
  // afterwards (q10's sort: 4.8 ms against 2.1 ms scanned); a function call hides the column from it.
  unindexed: (column) => `COALESCE(${column})`,
  // Bytes compared: for UTF-8 the same equality as utf8mb4_nopad_bin, without decoding each row's
  // characters through the collation (q10's sorted page scan, 1.9 → 1.4 ms of MariaDB's CPU).
  unindexedExactIn: (column, placeholders) => `CAST(${column} AS BINARY) IN (${placeholders.join(', ')})`,
  rowById: (table, alias, id) => ({ join: `JOIN ${table} ${alias}`, conditions: [`${alias}."id" = ${id}`] }),
  checkpoint: null,
  jsonValue: (placeholder) => `JSON_EXTRACT(${placeholder}, '$')`,
  typed(placeholder, type) {
    if (STRING_TYPES.has(type)) return `${placeholder} COLLATE ${BINARY}`;
    if (type === 'json') return `JSON_EXTRACT(${placeholder}, '$')`;
    return placeholder;
  },
  parameter(type, value) {
    if (value === null) return null;
    if (type === 'boolean') return value === true || value === 'true' ? 1 : 0;
    if ((type === 'datetime' || type === 'timestamp') && typeof value === 'number') {
      return new Date(value).toISOString().replace('T', ' ').replace('Z', '');
    }
    if (typeof value === 'bigint') return String(value);
    return value;
  },
  text(column, type) {
    if (STRING_TYPES.has(type)) return `${column} COLLATE ${BINARY}`;
    if (['datetime', 'timestamp', 'date', 'time'].includes(type)) return mysqlDialect.value(type as ScalarType, column);
    if (type === 'boolean') return `CASE ${column} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`;
    if (type === 'float' || type === 'decimal') return `CAST(CAST(${column} AS DOUBLE) AS CHAR)`;
    if (type === 'json') return `CAST(JSON_EXTRACT(${column}, '$') AS CHAR)`;
    return `CAST(${column} AS CHAR)`;
  },
  // The parameter's explicit collation decides the comparison, whatever the text's own.
  contains: (text, parameter) => `LOCATE(${parameter} COLLATE ${BINARY}, ${text}) > 0`,
  startsWith: (text, parameter) => `LEFT(${text}, CHAR_LENGTH(${parameter})) = ${parameter} COLLATE ${BINARY}`,
  endsWith: (text, parameter) => `RIGHT(${text}, CHAR_LENGTH(${parameter})) = ${parameter} COLLATE ${BINARY}`,
  castText: (expression) => `CAST(${expression} AS CHAR)`,
  // `/` is exact division on MariaDB (34 / 25 = 1.3600).
  integerDivide: (dividend, divisor) => `(${dividend}) DIV (${divisor})`,
  // MariaDB drops an ORDER BY without LIMIT from a FROM subquery, and even with one the rows of a
  // materialized subquery holding long text come back out of order: entries joined by an aggregate
  // (a GraphQL answer's lists) are ordered by position. A REST body's entries are pieces of their
  // own, read in their own ORDER BY (bodyPieces), and ask for none.
  entryPosition: (orderBy) => `row_number() OVER (${orderBy})`,
  // MariaDB already places NULLs first ascending and last descending.
  direction: (direction: SortDirection) => (direction === 'asc' ? 'ASC' : 'DESC'),
  sortable(expression, type) {
    if (STRING_TYPES.has(type)) return `${expression} COLLATE ${BINARY}`;
    if (type === 'json') return `CAST(${expression} AS CHAR)`;
    return expression;
  },
};

/**
 * MariaDB on a database with the change triggers: a list's tail takes its total known while the
 * versions of the tables its count reads (and `'*'`, which a sync changing the layout moves) are
 * those it was counted at. The total is chosen once in a derived table; MariaDB runs the count's
 * uncorrelated subquery only on the CASE's branch that needs it (ANALYZE: r_loops 0 when known).
 *
 * The versions are `*=3,articles=7`, in name order: one primary-key lookup per table, joined by
 * CONCAT_WS, which leaves out a table without a row as group_concat would. A group_concat over
 * the versions table (its `ORDER BY` sorts through a temporary structure, and its derived table is
 * materialized) cost MariaDB more than the page of q1 itself: 2,700 statements/s at 10
 * connections against 4,200 with the lookups.
 */
export const mysqlVersionedDialect: Dialect = {
  ...mysqlDialect,
  versionedTail: ({ tail, count, tables, knownVersions, knownTotal }) => {
    const names = [EVERY_TABLE, ...tables].sort();
    const version = (name: string) => `CONCAT(${literal(`${name}=`)}, (SELECT version FROM ${VERSIONS_TABLE} WHERE table_name = ${literal(name)}))`;
    const versions = `SELECT CONCAT_WS(',', ${names.map(version).join(', ')}) AS "versions"`;
    const total = `CASE WHEN v."versions" = ${knownVersions} THEN CAST(${knownTotal} AS INTEGER) ELSE (${count}) END`;
    return `(SELECT CONCAT(${tail('k."total"')}, X'00', k."versions", ' ', k."total") FROM (SELECT v."versions", ${total} AS "total" FROM (${versions}) v) k)`;
  },
};
