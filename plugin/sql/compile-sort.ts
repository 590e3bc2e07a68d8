/**
 * Sort keys → ORDER BY terms. A key through relations, components or media places each entry once,
 * by its smallest related value ascending or its largest descending (D5), which for a to-one path
 * is simply the related value.
 *
 * One hop is a correlated aggregate over the row's own links. A longer path is computed set-based,
 * hop by hop from its far end: per hop, one aggregate grouped by the owning row, joined to the
 * next hop's result. Each hop's links are read once, whatever the path: a single join of every
 * hop would enumerate every combination along the path, which grows as the product of the
 * related rows (a sort alternating between two to-many relations took minutes on 50 entries).
 */
import type { Model } from '../schema/registry.js';
import type { SortKey } from '../query/tree.js';
import type { CompileContext } from './context.js';
import { quoteIdentifier as q } from './dialect/dialect.js';
import { hopFrom, hopThrough, whereClause, type Hop } from './hops.js';
import { compileFilter } from './compile-filter.js';

export interface SortTerm {
  /** The value sorted on, as an expression over the row alias (collated for sorting). */
  readonly expression: string;
  /** `ASC`/`DESC`, with the NULL placement of every engine. */
  readonly direction: string;
  /** The ORDER BY term: expression and direction. */
  readonly term: string;
  /** `LEFT JOIN …` clauses the expression needs in the FROM clause of the row alias. */
  readonly joins: readonly string[];
}

export function compileSortKey(context: CompileContext, key: SortKey, alias: string, model: Model): SortTerm {
  const type = key.field.type;
  const { dialect } = context;
  const direction = dialect.direction(key.direction);
  const finish = (expression: string, joins: string[] = []): SortTerm => ({ expression, direction, term: `${expression} ${direction}`, joins });
  if (!key.path.length) return finish(dialect.sortable(`${alias}.${q(key.field.column)}`, type));
  const hops: Hop[] = [];
  let owner = model;
  for (const step of key.path) {
    const hop = hopThrough(context, owner, step.attribute, step.target);
    // Rows the caller may not see give no sort value, as if absent.
    hops.push(step.visible ? { ...hop, conditions: [...hop.conditions, compileFilter(context, step.visible, hop.target, step.target)] } : hop);
    owner = step.target;
  }
  const aggregate = key.direction === 'asc' ? 'MIN' : 'MAX';
  const last = hops[hops.length - 1]!;
  const value = dialect.sortable(`${last.target}.${q(key.field.column)}`, type);
  if (hops.length === 1) {
    return finish(`(SELECT ${aggregate}(${value}) FROM ${hopFrom(last)}${whereClause([`${last.ownerKey} = ${alias}."id"`, ...last.conditions])})`);
  }
  // From the far end: the value per owner of the last hop, then per owner of each hop before it.
  let grouped = `SELECT ${last.ownerKey} AS "owner", ${aggregate}(${value}) AS "value" FROM ${hopFrom(last)}${whereClause(last.conditions)} GROUP BY ${last.ownerKey}`;
  for (const hop of hops.slice(0, -1).reverse()) {
    const next = context.alias('s');
    grouped =
      `SELECT ${hop.ownerKey} AS "owner", ${aggregate}(${dialect.sortable(`${next}."value"`, type)}) AS "value" ` +
      `FROM ${hopFrom(hop)} JOIN (${grouped}) ${next} ON ${next}."owner" = ${hop.target}."id"${whereClause(hop.conditions)} GROUP BY ${hop.ownerKey}`;
  }
  const values = context.alias('s');
  return finish(dialect.sortable(`${values}."value"`, type), [`LEFT JOIN (${grouped}) ${values} ON ${values}."owner" = ${alias}."id"`]);
}

export function compileSort(context: CompileContext, keys: readonly SortKey[], alias: string, model: Model): SortTerm[] {
  return keys.map((key) => compileSortKey(context, key, alias, model));
}

/** The FROM-clause joins a list of sort terms needs. */
export function sortJoins(terms: readonly SortTerm[]): string {
  return terms.flatMap((term) => term.joins).map((join) => ` ${join}`).join('');
}
