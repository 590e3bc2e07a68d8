/**
 * The rules of permissions.yaml on writes (access/action-rules.ts): attributes a field rule
 * denies are a 400 at their path; `set` values replace what the body gives; `where` is checked
 * in the write's transaction — an update or delete reaches only the rows that match it (others
 * are a 404, as if absent), and a created or updated entry must match it afterwards (else a 403,
 * and nothing is written).
 */
import type { Knex } from 'knex';
import { allowsField, type ActionRule } from '../access/action-rules.js';
import { ForbiddenError, NotFoundError, type DataProblem } from '../errors.js';
import { callerValue, CallerVariable, type CallerValues } from '../query/caller-variable.js';
import { CompileContext } from '../sql/context.js';
import { compileFilter } from '../sql/compile-filter.js';
import { bindCallerValues } from '../sql/caller-values.js';
import { positionalStatement } from '../sql/positional.js';
import { quoteIdentifier as q, type Dialect } from '../sql/dialect/dialect.js';
import type { Model } from '../schema/registry.js';
import { rawRows } from '../storage/database.js';
import type { RowStore } from './row-store.js';

/** The body's data as the rule lets the role write it: denied attributes reported, forced values in place. */
export function ruledData(model: Model, rule: ActionRule | null, data: Record<string, unknown>, caller: CallerValues, problems: DataProblem[]): Record<string, unknown> {
  if (!rule) return data;
  for (const key of Object.keys(data)) {
    if (model.attributes.has(key) && !allowsField(rule, key)) problems.push({ path: [key], message: `${key} cannot be written by this role` });
  }
  if (!rule.set) return data;
  const forced: Record<string, unknown> = { ...data };
  for (const [name, value] of rule.set) forced[name] = boundValue(value, caller);
  return forced;
}

/** A `set` value with the caller's values in place of variables; a variable the caller lacks refuses the write. */
function boundValue(value: unknown, caller: CallerValues): unknown {
  if (value instanceof CallerVariable) {
    const bound = callerValue(value, caller);
    if (bound === undefined || bound === null) throw new ForbiddenError(`Forbidden: this write needs ${value.toJSON()}, which the caller does not have`);
    return bound;
  }
  if (Array.isArray(value)) return value.map((item) => boundValue(item, caller));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, boundValue(item, caller)]));
  return value;
}

/** Whether the entry `id` matches the rule's `where`, read in the write's transaction. */
export async function matchesRule(store: RowStore, dialect: Dialect, model: Model, id: number, rule: ActionRule | null, caller: CallerValues): Promise<boolean> {
  if (!rule?.where) return true;
  const context = new CompileContext(dialect);
  const idTerm = `t."id" = ${dialect.typed(context.parameter(id), 'integer')}`;
  // Run by knex.raw on the transaction's connection, which binds `?` in text order.
  const compiled = `SELECT 1 AS "matched" FROM ${q(model.tableName)} t WHERE ${idTerm} AND ${compileFilter(context, rule.where, 't', model)}`;
  const { sql, values } = positionalStatement(compiled, bindCallerValues(context.values, caller), { forKnex: dialect });
  const rows = rawRows(store.trx, await store.trx.raw(sql, values as Knex.RawBinding[]));
  return rows.length > 0;
}

/** An update or delete reaches only the rows its rule matches: the others are as absent. */
export async function mustMatchToChange(store: RowStore, dialect: Dialect, model: Model, id: number, rule: ActionRule | null, caller: CallerValues): Promise<void> {
  if (!(await matchesRule(store, dialect, model, id, rule, caller))) throw new NotFoundError();
}

/** A created or updated entry must still match its rule: a write that would take it out is refused. */
export async function mustMatchWritten(store: RowStore, dialect: Dialect, model: Model, id: number, rule: ActionRule | null, caller: CallerValues): Promise<void> {
  if (!(await matchesRule(store, dialect, model, id, rule, caller))) throw new ForbiddenError('Forbidden: the entry written does not satisfy this role\'s rule');
}
