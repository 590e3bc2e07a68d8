/**
 * Sort keys → ORDER BY terms. A key through relations, components or media places each entry once,
 * by its smallest related value ascending or its largest descending (D5), which for a to-one path
 * is simply the related value.
 */
import type { Model } from '../schema/registry.js';
import type { SortKey } from '../query/tree.js';
import type { CompileContext } from './context.js';
import { quoteIdentifier as q } from './dialect/dialect.js';
import { chainHops, hopThrough, whereClause, type Hop } from './hops.js';

export interface SortTerm {
  /** The value sorted on, as an expression over the row alias (collated for sorting). */
  readonly expression: string;
  /** `ASC`/`DESC`, with the NULL placement of every engine. */
  readonly direction: string;
  /** The ORDER BY term: expression and direction. */
  readonly term: string;
}

export function compileSortKey(context: CompileContext, key: SortKey, alias: string, model: Model): SortTerm {
  const type = key.field.type;
  let expression: string;
  if (!key.path.length) {
    expression = context.dialect.sortable(`${alias}.${q(key.field.column)}`, type);
  } else {
    const hops: Hop[] = [];
    let owner = model;
    for (const step of key.path) {
      hops.push(hopThrough(context, owner, step.attribute, step.target));
      owner = step.target;
    }
    const last = hops[hops.length - 1];
    const { from, conditions } = chainHops(hops);
    const value = context.dialect.sortable(`${last.target}.${q(key.field.column)}`, type);
    const aggregate = key.direction === 'asc' ? 'MIN' : 'MAX';
    expression = `(SELECT ${aggregate}(${value}) FROM ${from}${whereClause([`${hops[0].ownerKey} = ${alias}."id"`, ...conditions])})`;
  }
  const direction = context.dialect.direction(key.direction);
  return { expression, direction, term: `${expression} ${direction}` };
}

export function compileSort(context: CompileContext, keys: readonly SortKey[], alias: string, model: Model): SortTerm[] {
  return keys.map((key) => compileSortKey(context, key, alias, model));
}
