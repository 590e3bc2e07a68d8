/**
 * A GraphQL operation's answer in one statement, however many root fields it has:
 * `{"errors":[…],"data":{"<key>":<field>,…}}`, each field's JSON built by the database from its
 * tree's shape (query/tree.ts `Shape`): the entries joined as text inside their wrapper, the
 * pagination figures of a list computed from one count. As for REST (compile-body.ts), the bytes
 * go to the socket as the database built them.
 */
import { answerShape, type RootQuery, type Shape } from '../query/tree.js';
import { compileEntries, countFrom, type Statement } from './compile.js';
import { POSITION } from './compile-body.js';
import { CompileContext } from './context.js';
import type { Dialect } from './dialect/dialect.js';
import { literal } from './dialect/dialect.js';

export interface OperationField {
  /** The response key (the field's alias, or its name). */
  readonly key: string;
  /** The field's authorized tree, with its shape; null for a field answered `null` (its error is in `head`). */
  readonly root: RootQuery | null;
  /** A field answered by a constant string instead (`__typename`). */
  readonly constant?: string;
}

/**
 * `head`: the JSON text before `"data"`, with its trailing comma when not empty (the operation's
 * errors); `fields`: the root fields in selection order.
 */
export function compileOperation(dialect: Dialect, head: string, fields: readonly OperationField[]): Statement {
  const context = new CompileContext(dialect);
  const members = fields.map((field, index) => {
    const value = field.root ? fieldText(context, field.root) : literal(field.constant === undefined ? 'null' : JSON.stringify(field.constant));
    return `${literal(`${index ? ',' : ''}"${field.key}":`)} || ${value}`;
  });
  const open = dialect.castText(context.parameter(`{${head}"data":{`));
  const text = [open, ...members, `'}}'`].join(' || ');
  return { sql: `SELECT ${dialect.bodyBytes(text)} AS "body", 1 AS "entries"`, values: context.values };
}

/** One root field's JSON text on its own (a mutation's answer, which the door places in its answer). */
export function compileFieldValue(dialect: Dialect, root: RootQuery): Statement {
  const context = new CompileContext(dialect);
  const text = fieldText(context, root);
  return { sql: `SELECT ${dialect.bodyBytes(text)} AS "body", 1 AS "entries"`, values: context.values };
}

/** One root field's JSON text: its wrapper (`EntityResponse`, `EntityResponseCollection`) around its entries. */
function fieldText(context: CompileContext, root: RootQuery): string {
  if (!root.shape) throw new Error('a GraphQL root field needs its shape');
  const list = answerShape(root) === 'list';
  let total: string | null = null;
  const totalOf = () => (total ??= `(SELECT count(*) ${countFrom(context, root)})`);
  return objectText(root.shape.wrapper, (key) => {
    switch (key) {
      case 'rows':
        return list ? listText(context, root) : entryText(context, root);
      case 'total':
        return context.dialect.castText(totalOf());
      default:
        return paginationFigure(context, root, key, totalOf);
    }
  });
}

type WrapperKey = 'rows' | 'total' | 'page' | 'pageSize' | 'pageCount';

/** `'{' || '"k":' || v || … || '}'`, the values given by `value` for the wrapper's own keys. */
function objectText(shape: Shape, value: (key: WrapperKey) => string): string {
  const parts = shape.map((key, index) => {
    const name = literal(`${index ? ',' : ''}"${key.key}":`);
    switch (key.kind) {
      case 'typename':
        return `${name} || ${literal(JSON.stringify(key.name))}`;
      case 'object':
        return `${name} || ${objectText(key.shape, value)}`;
      case 'rows':
      case 'total':
      case 'page':
      case 'pageSize':
      case 'pageCount':
        return `${name} || ${value(key.kind)}`;
      default:
        throw new Error(`a root field's wrapper has no ${key.kind} key`);
    }
  });
  return ['\'{\'', ...parts, '\'}\''].join(' || ');
}

function listText(context: CompileContext, root: RootQuery): string {
  const entries = compileEntries(context, root);
  // The position column exists only where the dialect asked for it, and only such a dialect reads it.
  const joined = context.dialect.joinText('listed."entry"', `listed."${POSITION}"`);
  return `'[' || coalesce((SELECT ${joined} FROM (${entries}) listed), '') || ']'`;
}

function entryText(context: CompileContext, root: RootQuery): string {
  return `coalesce((SELECT listed."entry" FROM (${compileEntries(context, root)}) listed LIMIT 1), 'null')`;
}

/**
 * `page`, `pageSize` and `pageCount` as Strapi's GraphQL plugin reports them: from the list's
 * start and limit (a page asked by number is turned into them first), whatever form was asked.
 * A list without a limit (`limit: -1` and no `maxLimit`) is one page of the entries from start.
 */
function paginationFigure(context: CompileContext, root: RootQuery, key: 'page' | 'pageSize' | 'pageCount', total: () => string): string {
  const { pagination } = root;
  const start = pagination.mode === 'page' ? (pagination.page - 1) * pagination.pageSize : pagination.start;
  const limit = Math.max(pagination.mode === 'page' ? pagination.pageSize : pagination.limit, 1);
  if (limit >= Number.MAX_SAFE_INTEGER) return key === 'pageSize' ? context.dialect.castText(`(${total()} - ${start})`) : literal('1');
  if (key === 'page') return literal(String(Math.floor(start / limit) + 1));
  if (key === 'pageSize') return literal(String(limit));
  return context.dialect.castText(`(${context.dialect.integerDivide(`${total()} + ${limit} - 1`, String(limit))})`);
}
