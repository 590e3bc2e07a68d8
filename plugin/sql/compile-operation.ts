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
  /** A field answered by this JSON text instead, computed before the statement (`__typename`, `me`). */
  readonly json?: string;
}

/**
 * `head`: the JSON text before `"data"`, with its trailing comma when not empty (the operation's
 * errors); `fields`: the root fields in selection order.
 */
export function compileOperation(dialect: Dialect, head: string, fields: readonly OperationField[]): Statement {
  const context = new CompileContext(dialect);
  const members = fields.map((field, index) => {
    const value = field.root ? fieldText(context, field.root) : context.dialect.castText(context.parameter(field.json ?? 'null'));
    return `${literal(`${index ? ',' : ''}"${field.key}":`)} || ${value}`;
  });
  const open = dialect.castText(context.parameter(`{${head}"data":{`));
  const text = [open, ...members, `'}}'`].join(' || ');
  return { sql: bodyStatement(dialect, text), values: context.values };
}

/**
 * The statement handing `text` over as the body, in the form the dialect's executor reads: one row
 * and its count, or (MariaDB: Dialect.bodyPieces) the pieces of an envelope with no entry.
 */
function bodyStatement(dialect: Dialect, text: string): string {
  if (!dialect.bodyPieces) return `SELECT ${dialect.bodyBytes(text)} AS "body", 1 AS "entries"`;
  return dialect.bodyPieces({ head: text, empty: '', entries: `SELECT '' FROM DUAL WHERE 1 = 0`, tail: `''`, filterHops: { root: 0, other: 0 } });
}

/** One root field's JSON text on its own (a mutation's answer, which the door places in its answer). */
export function compileFieldValue(dialect: Dialect, root: RootQuery): Statement {
  const context = new CompileContext(dialect);
  const text = fieldText(context, root);
  return { sql: bodyStatement(dialect, text), values: context.values };
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
  const entries = compileEntries(context, root, true);
  // The position column exists only where the dialect asked for it, and only such a dialect reads it.
  const joined = context.dialect.joinText('listed."entry"', `listed."${POSITION}"`);
  return `'[' || coalesce((SELECT ${joined} FROM (${entries}) listed), '') || ']'`;
}

function entryText(context: CompileContext, root: RootQuery): string {
  return `coalesce((SELECT listed."entry" FROM (${compileEntries(context, root)}) listed LIMIT 1), 'null')`;
}

/**
 * `page`, `pageSize` and `pageCount` as Strapi's GraphQL plugin reports them: from the list's
 * start and limit (a page asked by number is turned into them first), whatever form was asked. A
 * list without a limit (`limit: -1`) is one page of `total - start` entries.
 */
function paginationFigure(context: CompileContext, root: RootQuery, key: 'page' | 'pageSize' | 'pageCount', total: () => string): string {
  const { pagination } = root;
  const start = pagination.mode === 'page' ? (pagination.page - 1) * pagination.pageSize : pagination.start;
  const limit = Math.max(pagination.mode === 'page' ? pagination.pageSize : pagination.limit, 1);
  const unlimited = limit >= Number.MAX_SAFE_INTEGER;
  if (key === 'page' || (key === 'pageCount' && unlimited)) return literal(String(unlimited ? 1 : Math.floor(start / limit) + 1));
  if (key === 'pageSize') return unlimited ? context.dialect.castText(`(${total()} - ${start})`) : literal(String(limit));
  return context.dialect.castText(`(${context.dialect.integerDivide(`${total()} + ${limit} - 1`, String(limit))})`);
}
