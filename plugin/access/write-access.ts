/**
 * What one caller may change, asked by every write inside its transaction: the rows of a type it
 * may reach with an action (the grant, and the rule's `where` bound to the caller's values, in
 * one statement), what a rule lets it write (`fields`, `set`), and the checks around the entry
 * written. A row the caller may not reach is answered as a row that does not exist, so no write
 * tells a hidden row from a missing one.
 *
 * Writes the API makes for itself (demo data, the host's `api.models`) use `unrestricted`.
 */
import type { Knex } from 'knex';
import { ForbiddenError, NotFoundError, type DataProblem } from '../errors.js';
import { callerValue, CallerVariable, type CallerValues } from '../query/caller-variable.js';
import type { Model } from '../schema/registry.js';
import { bindCallerValues } from '../sql/caller-values.js';
import { compileFilter } from '../sql/compile-filter.js';
import { CompileContext } from '../sql/context.js';
import { quoteIdentifier as q, type Dialect } from '../sql/dialect/dialect.js';
import { positionalStatement } from '../sql/positional.js';
import { rawRows } from '../storage/database.js';
import { allowsField, UNCONDITIONAL, type ActionRule } from './action-rules.js';
import type { Action, Grants } from './permissions.js';

export class WriteAccess {
  private constructor(
    /** null: the API's own writes, which every rule lets through. */
    private readonly grants: Grants | null,
    readonly caller: CallerValues | null,
    readonly dialect: Dialect,
  ) {}

  /** A caller's access, under its role's grants. */
  static of(grants: Grants, caller: CallerValues, dialect: Dialect): WriteAccess {
    return new WriteAccess(grants, caller, dialect);
  }

  /** The API's own writes (demo data, the host's models, registration's fixed fields). */
  static unrestricted(dialect: Dialect): WriteAccess {
    return new WriteAccess(null, null, dialect);
  }

  get restricted(): boolean {
    return this.grants !== null;
  }

  can(uid: string, action: Action): boolean {
    return this.grants === null || this.grants.can(uid, action);
  }

  /** The rule of a granted action; null when not granted. */
  rule(uid: string, action: Action): ActionRule | null {
    return this.grants === null ? UNCONDITIONAL : this.grants.rule(uid, action);
  }

  /** Whether every row of `model` the action may reach, were it there, is reachable: no statement is needed to know. */
  reachesAll(model: Model, action: Action): boolean {
    const rule = this.rule(model.uid, action);
    return rule !== null && rule.where === null;
  }

  /**
   * The ids among `ids` of rows of `model` that exist and that the caller may `action`, in one
   * statement on the write's transaction (none when the action is not granted).
   */
  async reachable(trx: Knex.Transaction, model: Model, ids: readonly number[], action: Action): Promise<Set<number>> {
    return new Set((await this.reachableRows(trx, model, ids, action)).keys());
  }

  /** The same rows by id, with the value of each of `columns` (a file's `mime`, say), in the same one statement. */
  async reachableRows(trx: Knex.Transaction, model: Model, ids: readonly number[], action: Action, columns: readonly string[] = []): Promise<Map<number, Record<string, unknown>>> {
    const unique = [...new Set(ids)];
    const rule = this.rule(model.uid, action);
    if (!unique.length || rule === null) return new Map();
    const context = new CompileContext(this.dialect);
    const listed = unique.map((id) => this.dialect.typed(context.parameter(id), 'integer')).join(', ');
    const where = rule.where ? ` AND ${compileFilter(context, rule.where, 't', model)}` : '';
    const selected = ['id', ...columns].map((column) => `t.${q(column)} AS ${q(column)}`).join(', ');
    // Run by knex.raw on the transaction's connection, which binds `?` in text order.
    const compiled = `SELECT ${selected} FROM ${q(model.tableName)} t WHERE t."id" IN (${listed})${where}`;
    const { sql, values } = positionalStatement(compiled, bindCallerValues(context.values, this.caller ?? NO_CALLER), { forKnex: this.dialect });
    const rows = rawRows<Record<string, unknown>>(trx, await trx.raw(sql, values as Knex.RawBinding[]));
    return new Map(rows.map((row) => [Number(row.id), row]));
  }

  /**
   * Whether the entry a route names is held to the action's `where`. The route has checked the
   * grant it needs (a single type's first PUT creates under `update`): an action not granted
   * brings no rule of its own here.
   */
  private entryRule(model: Model, action: Action): boolean {
    return this.rule(model.uid, action)?.where != null;
  }

  /** An update or delete reaches only the rows its rule matches: the others are as absent (404). The row is known to exist. */
  async mustReach(trx: Knex.Transaction, model: Model, id: number, action: Action, missing: () => Error = () => new NotFoundError()): Promise<void> {
    if (!this.entryRule(model, action)) return;
    if (!(await this.reachable(trx, model, [id], action)).has(id)) throw missing();
  }

  /** A created or updated entry must still match the action's rule: a write that would take it out is refused, and nothing is written. */
  async mustStillMatch(trx: Knex.Transaction, model: Model, id: number, action: Action): Promise<void> {
    if (!this.entryRule(model, action)) return;
    if (!(await this.reachable(trx, model, [id], action)).has(id)) throw new ForbiddenError("Forbidden: the entry written does not satisfy this role's rule");
  }

  /**
   * The body's data as the action's rule lets the caller write it: attributes the rule denies are
   * problems at their path (`alsoWritten`: attributes written by other parts of the request, such
   * as the files of a multipart write), and `set` values replace what the body gives.
   */
  ruledData(model: Model, action: Action, data: Record<string, unknown>, problems: DataProblem[], alsoWritten: readonly string[] = []): Record<string, unknown> {
    const rule = this.rule(model.uid, action);
    if (!rule || rule === UNCONDITIONAL) return data;
    for (const key of new Set([...Object.keys(data), ...alsoWritten])) {
      if (model.attributes.has(key) && !allowsField(rule, key)) problems.push({ path: [key], message: `${key} cannot be written by this role` });
    }
    if (!rule.set) return data;
    const forced: Record<string, unknown> = { ...data };
    for (const [name, value] of rule.set) forced[name] = boundValue(value, this.caller ?? NO_CALLER);
    return forced;
  }
}

const NO_CALLER: CallerValues = Object.freeze({ role: '', user: null, claims: {}, now: 0 });

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
