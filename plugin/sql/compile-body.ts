/**
 * The whole response body in one statement: the entries joined with commas inside the envelope,
 * `{"data":[…],"meta":{"pagination":{…}}}`, with the count of a list in the pagination, as one
 * value. The database's bytes then go to the socket as they are: no string per entry, no joining
 * or copying in JavaScript, and one statement per request instead of the entries and their count.
 *
 * Its single row holds the body and the number of entries (a findOne without an entry is a 404).
 * The envelope's constant text and the page size are parameters, so that every page of a query
 * shares one SQL text (and one prepared statement). The entries are read in the order of their
 * sorted subquery, as both engines aggregate rows read from a FROM subquery that is not joined.
 */
import { answerShape, type RootQuery } from '../query/tree.js';
import type { Statement } from './compile.js';
import { CompileContext } from './context.js';

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
  const tail = single ? textParameter(context, ',"meta":{}}') : shape === 'locales' ? textParameter(context, '],"meta":{}}') : paginationTail(context, root, countFrom);
  const joined = `coalesce(${dialect.joinText('listed."entry"', root.action === 'findOne' ? null : `listed."${POSITION}"`)}, '${single ? 'null' : ''}')`;
  const sql = `SELECT ${dialect.bodyBytes(`${head} || ${joined} || ${tail}`)} AS "body", count(*) AS "entries" FROM (${entries}) AS listed`;
  return { sql, values: context.values };
}

/**
 * `],"meta":{"pagination":{…}}}`. With a count, the total comes from a scalar subquery computed
 * once (both engines compute an identical aggregate once), and pageCount is its ceiling division.
 */
function paginationTail(context: CompileContext, root: RootQuery, countFrom: string | null): string {
  const { pagination } = root;
  const opening = pagination.mode === 'page' ? `],"meta":{"pagination":{"page":${pagination.page},"pageSize":${pagination.pageSize}` : `],"meta":{"pagination":{"start":${pagination.start},"limit":${pagination.limit}`;
  if (!countFrom) return textParameter(context, `${opening}}}}`);
  const total = 'count(*)';
  let counted: string;
  if (pagination.mode === 'page') {
    const size = `CAST(${context.parameter(pagination.pageSize)} AS INTEGER)`;
    const pageCount = context.dialect.integerDivide(`${total} + ${size} - 1`, size);
    counted = `${textParameter(context, `${opening},"pageCount":`)} || (${pageCount}) || ',"total":' || ${total} || '}}}'`;
  } else {
    counted = `${textParameter(context, `${opening},"total":`)} || ${total} || '}}}'`;
  }
  return `(SELECT ${counted} ${countFrom})`;
}

/** Typed, so that PostgreSQL need not infer a type for a parameter that `||` takes. */
function textParameter(context: CompileContext, value: string): string {
  return context.dialect.castText(context.parameter(value));
}
