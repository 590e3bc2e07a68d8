/**
 * The whole response body in one statement: the entries joined with commas inside the envelope,
 * `{"data":[…],"meta":{"pagination":{…}}}`, with the count of a list in the pagination, as one
 * value. The database's bytes then go to the socket as they are: no string per entry, no joining
 * or copying in JavaScript, and one statement per request instead of the entries and their count.
 *
 * Its single row holds the body and the number of entries (a findOne without an entry is a 404);
 * where the dialect hands the body over as pieces (MariaDB: Dialect.bodyPieces), its rows are them.
 * The envelope's constant text and the page size are parameters, so that every page of a query
 * shares one SQL text (and one prepared statement). The entries are read in the order of their
 * sorted subquery, as both engines aggregate rows read from a FROM subquery that is not joined.
 */
import { answerShape, type RootQuery } from '../query/tree.js';
import type { Statement } from './compile.js';
import { CompileContext } from './context.js';
import { tablesCounted } from './tables-read.js';

/** The entries' column of their place in the list, on engines that need it (Dialect.entryPosition). */
export const POSITION = '__position';

/**
 * `entries`: the entries statement; `countFrom`: the FROM and WHERE of the list's count, written
 * by `context`, which already holds the entries' parameters (null when the list is not counted,
 * or for a single entry).
 */
export function compileBody(context: CompileContext, root: RootQuery, entries: string, countFrom: string | null): Statement {
  const { dialect } = context;
  const shape = answerShape(root);
  const single = shape === 'entry';
  const head = textParameter(context, single ? '{"data":' : '{"data":[');
  const joined = `coalesce(${dialect.joinText('listed."entry"', root.action === 'findOne' ? null : `listed."${POSITION}"`)}, '${single ? 'null' : ''}')`;
  /** The body statement with `tail` closing the envelope (and `total`, a column of its own where given). */
  const body = (tail: string, total = '') => `SELECT ${dialect.bodyBytes(`${head} || ${joined} || ${tail}`)} AS "body", count(*) AS "entries"${total} FROM (${entries}) AS listed`;
  const { values } = context;
  /** The statement closing the envelope with `tail`: one row, or the body's pieces where the dialect hands them over. */
  const closedBy = (tail: string): Statement => ({
    sql: dialect.bodyPieces ? dialect.bodyPieces({ head, empty: single ? 'null' : '', entries, tail, filterHops: context.filterHops }) : body(tail),
    values,
  });
  if (single || shape === 'locales') return closedBy(textParameter(context, single ? ',"meta":{}}' : '],"meta":{}}'));
  if (!countFrom) return closedBy(uncountedTail(context, root));
  const tail = paginationTail(context, root);
  if (dialect.versionedTail) {
    // The known versions and total: NULL until the executor has them (sql/mysql-known-totals.ts).
    const versionsAt = context.values.length;
    const [knownVersions, knownTotal] = [context.parameter(null), context.parameter(null)];
    const count = `SELECT count(*) ${countFrom}`;
    const versionedTail = dialect.versionedTail({ tail, count, tables: [...tablesCounted(root)].sort(), knownVersions, knownTotal });
    return { ...closedBy(versionedTail), versionedTotal: { count, versionsAt } };
  }
  if (!dialect.knownTotal || dialect.bodyPieces) return closedBy(`(SELECT ${tail('count(*)')} ${countFrom})`);
  // The count once, in a materialized CTE: the body's tail and the row's `total` read it.
  const counted = `WITH "counted" AS MATERIALIZED (SELECT count(*) AS "total" ${countFrom}) `;
  return {
    sql: `${counted}${body(`(SELECT ${tail('"total"')} FROM "counted")`, ', (SELECT "total" FROM "counted") AS "total"')}`,
    values,
    givenTotal: { sql: body(`(${tail(`CAST(${dialect.knownTotal} AS INTEGER)`)})`), count: `SELECT count(*) ${countFrom}` },
  };
}

/** The pagination's opening: `],"meta":{"pagination":{"page":1,"pageSize":25` or its start and limit. */
function paginationOpening(root: RootQuery): string {
  const { pagination } = root;
  return pagination.mode === 'page' ? `],"meta":{"pagination":{"page":${pagination.page},"pageSize":${pagination.pageSize}` : `],"meta":{"pagination":{"start":${pagination.start},"limit":${pagination.limit}`;
}

/** `],"meta":{"pagination":{…}}}` of a list that is not counted. */
function uncountedTail(context: CompileContext, root: RootQuery): string {
  return textParameter(context, `${paginationOpening(root)}}}}`);
}

/**
 * `],"meta":{"pagination":{…}}}` of a counted list, given the expression of its total: counted
 * by a scalar subquery (both engines compute an identical aggregate once), or known to the
 * executor; pageCount is its ceiling division. The parameters are made once, so that every form
 * of the tail shares them.
 */
function paginationTail(context: CompileContext, root: RootQuery): (total: string) => string {
  const opening = paginationOpening(root);
  if (root.pagination.mode === 'page') {
    const size = `CAST(${context.parameter(root.pagination.pageSize)} AS INTEGER)`;
    const beforeCount = textParameter(context, `${opening},"pageCount":`);
    return (total) => `${beforeCount} || (${context.dialect.integerDivide(`${total} + ${size} - 1`, size)}) || ',"total":' || ${total} || '}}}'`;
  }
  const beforeTotal = textParameter(context, `${opening},"total":`);
  return (total) => `${beforeTotal} || ${total} || '}}}'`;
}

/** Typed, so that PostgreSQL need not infer a type for a parameter that `||` takes. */
function textParameter(context: CompileContext, value: string): string {
  return context.dialect.castText(context.parameter(value));
}
