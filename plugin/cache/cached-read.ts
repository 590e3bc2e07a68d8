/**
 * A read through the response cache — a REST read, or a GraphQL query operation: the body kept for
 * the same statement is answered without touching the database; otherwise the read runs and its
 * body is kept under the tables it read.
 *
 * The key is what makes the statement: the rules in force (a reload of permissions.yaml starts
 * afresh), the plan (role, type, action, query string: plan-cache.ts), the entry id, and the values
 * the role's row rules bind for this caller (`$user.id`, `$claims.…`). Two callers share a body
 * only when their statements are the same text with the same values; an API token or a login adds
 * nothing else to what the statement reads. Not kept: drafts (`publicationState=preview` at any
 * depth), rules that read the clock (`$now`), and bodies over the entry bound.
 */
import type { AccessRules } from '../access/rules.js';
import { weakEtag } from '../format/etag.js';
import { PlanCache } from '../plan-cache.js';
import type { CallerValues } from '../query/caller-variable.js';
import type { RootQuery, Selection } from '../query/tree.js';
import type { ExecutionStats } from '../sql/execute.js';
import { planFor, read, type ReadEngine, type ReadRequest, type ReadResult } from '../read.js';
import { LateValue } from '../sql/caller-values.js';
import { valueKey } from '../sql/known-totals.js';
import { tablesRead } from '../sql/tables-read.js';
import type { ResponseCache } from './response-cache.js';

export type CacheOutcome = 'hit' | 'miss';

/** What the cache needs to know of a plan, worked out once per plan. */
interface PlanFacts {
  /** null: its answers are not kept. */
  readonly tables: readonly string[] | null;
  /** Where its statement holds the caller's values. */
  readonly late: readonly number[];
}

/** What a door's read gives the cache: its result (bytes, ETag, statements) once run. */
interface Answered {
  readonly body: Buffer;
  readonly etag?: string;
  readonly release?: () => void;
  readonly stats: ExecutionStats;
}

export class CachedReads {
  private readonly facts = new WeakMap<object, PlanFacts>();
  private readonly rulesIds = new WeakMap<AccessRules, number>();
  private nextRulesId = 0;

  constructor(readonly cache: ResponseCache) {}

  async read(engine: ReadEngine, request: ReadRequest): Promise<{ readonly result: ReadResult; readonly outcome: CacheOutcome }> {
    const plan = planFor(engine, request);
    const facts = this.factsOf(plan, [plan.root]);
    const key = `${PlanCache.key(request.role, request.model.uid, request.action, request.queryKey)}\u0000${request.id ?? ''}`;
    return this.through(facts, this.keyOf(request.rules, key, plan.compiled.body.values, facts, request.caller), () => read(engine, request));
  }

  /**
   * A GraphQL query operation (graphql/execute-query.ts): `plan` its compiled statement and trees,
   * `key` the operation's plan key (role, text, variables), `run` the operation.
   */
  operation<T extends Answered>(
    plan: { readonly compiled: { readonly body: { readonly values: readonly unknown[] } }; readonly roots: readonly RootQuery[] },
    request: { readonly key: string; readonly rules: AccessRules; readonly caller: CallerValues },
    run: () => Promise<T>,
  ): Promise<{ readonly result: T | Answered; readonly outcome: CacheOutcome }> {
    const facts = this.factsOf(plan, plan.roots);
    return this.through(facts, this.keyOf(request.rules, request.key, plan.compiled.body.values, facts, request.caller), run);
  }

  private async through<T extends Answered>(facts: PlanFacts, key: string, run: () => Promise<T>): Promise<{ readonly result: T | Answered; readonly outcome: CacheOutcome }> {
    if (!facts.tables) return { result: await run(), outcome: 'miss' };
    const kept = this.cache.get(key);
    if (kept) return { result: { body: kept.body, etag: kept.etag, stats: { statements: 0, milliseconds: 0 } }, outcome: 'hit' };
    // Before the statement runs: a change from now on keeps its body out.
    const since = this.cache.clock();
    const result = await run();
    const etag = result.etag ?? weakEtag(result.body);
    if (this.cache.accepts(result.body.length, facts.tables, since)) {
      // The cache copies what it keeps at once: bytes lent by a read worker go back after the response.
      this.cache.set(key, { body: result.body, etag }, facts.tables, since);
    }
    return { result: result.etag ? result : { ...result, etag }, outcome: 'miss' };
  }

  /** The rules in force, the plan's own key, and the caller's values its statement binds. */
  private keyOf(rulesInForce: AccessRules, planKey: string, values: readonly unknown[], facts: PlanFacts, caller: CallerValues): string {
    let rules = this.rulesIds.get(rulesInForce);
    if (rules === undefined) this.rulesIds.set(rulesInForce, (rules = this.nextRulesId++));
    const callerValues = facts.late.map((index) => valueKey((values[index] as LateValue).bind(caller))).join('\u0001');
    return `${rules}\u0000${planKey}\u0000${callerValues}`;
  }

  /** Worked out once per plan: the tables its trees read (none kept: drafts or the clock), where its statement binds the caller. */
  private factsOf(plan: { readonly compiled: { readonly body: { readonly values: readonly unknown[] } } }, roots: readonly RootQuery[]): PlanFacts {
    let facts = this.facts.get(plan);
    if (!facts) {
      const values = plan.compiled.body.values;
      const late = values.flatMap((value, index) => (value instanceof LateValue ? [index] : []));
      const clock = late.some((index) => (values[index] as LateValue).variable.name === 'now');
      const drafts = roots.some((root) => root.publicationState === 'preview' || readsDrafts(root.selection));
      facts = { tables: clock || drafts ? null : [...new Set(roots.flatMap((root) => [...tablesRead(root)]))], late };
      this.facts.set(plan, facts);
    }
    return facts;
  }
}

/** Whether a populated relation asks for drafts (`populate[x][publicationState]=preview`), at any depth. */
function readsDrafts(selection: Selection): boolean {
  return selection.populate.some((node) => {
    if (node.kind === 'relation' && node.publicationState === 'preview') return true;
    if (node.kind === 'dynamiczone') return node.parts.some((part) => readsDrafts(part.selection));
    return readsDrafts(node.selection);
  });
}
