/**
 * Rows as a GraphQL selection asks for them (query/tree.ts `Shape`): the keys in selection order
 * under their aliases, ids as strings, `__typename` as constants. The rows themselves are loaded
 * exactly as for the REST envelope (compile-selection.ts); only the JSON built around them differs.
 */
import type { PopulateNode, Selection, Shape, ShapeKey } from '../query/tree.js';
import type { CompileContext } from './context.js';
import { literal, quoteIdentifier as q } from './dialect/dialect.js';

export type Pairs = [string, string][];

/** The row a shape reads: its alias, what was selected (after the access stage) and how to build a populated value. */
export interface ShapedRowSource {
  readonly alias: string;
  readonly selection: Selection;
  readonly populate: (node: PopulateNode) => string;
}

/** The JSON object of one row, keys from `shape`. */
export function shapedRow(context: CompileContext, shape: Shape, row: ShapedRowSource): string {
  return context.dialect.object(shape.map((key) => [key.key, rowValue(context, key, row)]));
}

function rowValue(context: CompileContext, key: ShapeKey, row: ShapedRowSource): string {
  const { dialect } = context;
  switch (key.kind) {
    case 'id':
      return dialect.castText(`${row.alias}."id"`);
    case 'typename':
      return literal(key.name);
    case 'field': {
      // A field the access stage pruned answers null, as GraphQL answers a field it may not resolve.
      const field = row.selection.fields.find((candidate) => candidate.name === key.name);
      return field ? dialect.value(field.type, `${row.alias}.${q(field.column)}`) : 'NULL';
    }
    case 'populate': {
      const node = row.selection.populate.find((candidate) => candidate.ref === key.ref);
      return node ? row.populate(node) : 'NULL';
    }
    case 'object':
      return shapedRow(context, key.shape, row);
    case 'choice': {
      const column = `${row.alias}.${q(key.column)}`;
      const value = (text: string) => dialect.jsonValue(context.parameter(text));
      const cases = key.cases.map(([when, text]) => `WHEN ${column} ${when === null ? 'IS NULL' : `= ${context.parameter(when)}`} THEN ${value(text)}`);
      return `CASE ${cases.join(' ')} ELSE ${value(key.otherwise)} END`;
    }
    default:
      throw new Error(`a row has no ${key.kind} key`);
  }
}

/** The JSON object around a populated attribute's rows (`{ data }` and `__typename` under their aliases). */
export function shapedWrapper(context: CompileContext, shape: Shape, rows: () => string): string {
  return context.dialect.object(
    shape.map((key) => {
      if (key.kind === 'rows') return [key.key, rows()];
      if (key.kind === 'typename') return [key.key, literal(key.name)];
      throw new Error(`a populated attribute's wrapper has no ${key.kind} key`);
    }),
  );
}
