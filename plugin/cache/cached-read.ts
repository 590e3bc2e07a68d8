/**
 * A read through the response cache: the body kept for the same statement is answered without
 * touching the database; otherwise the read runs and its body is kept under the tables it read.
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
import { PlanCache, type Plan } from '../plan-cache.js';
import type { Selection } from '../query/tree.js';
import { planFor, read, type ReadEngine, type ReadRequest, type ReadResult } from '../read.js';
import { LateValue } from '../sql/caller-values.js';
import { valueKey } from '../sql/sqlite-known-totals.js';
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

export class CachedReads {
  private readonly facts = new WeakMap<Plan, PlanFacts>();
  private readonly rulesIds = new WeakMap<AccessRules, number>();
  private nextRulesId = 0;

  constructor(readonly cache: ResponseCache) {}

  async read(engine: ReadEngine, request: ReadRequest): Promise<{ readonly result: ReadResult; readonly outcome: CacheOutcome }> {
    const plan = planFor(engine, request);
    const facts = this.factsOf(plan);
    if (!facts.tables) return { result: await read(engine, request), outcome: 'miss' };
    const key = this.keyOf(request, plan, facts);
    const kept = this.cache.get(key);
    if (kept) return { result: { body: kept.body, etag: kept.etag, stats: { statements: 0, milliseconds: 0 } }, outcome: 'hit' };
    // Before the statement runs: a change from now on keeps its body out.
    const since = this.cache.clock();
    const result = await read(engine, request);
    const etag = result.etag ?? weakEtag(result.body);
    if (this.cache.accepts(result.body.length, facts.tables, since)) {
      // Bytes lent by a read worker go back after the response; a view of a larger buffer would hold all of it.
      const owned = result.release || result.body.byteLength !== result.body.buffer.byteLength ? Buffer.from(result.body) : result.body;
      this.cache.set(key, { body: owned, etag }, facts.tables, since);
    }
    return { result: result.etag ? result : { ...result, etag }, outcome: 'miss' };
  }

  private keyOf(request: ReadRequest, plan: Plan, facts: PlanFacts): string {
    let rules = this.rulesIds.get(request.rules);
    if (rules === undefined) this.rulesIds.set(request.rules, (rules = this.nextRulesId++));
    const values = plan.compiled.body.values;
    const callerValues = facts.late.map((index) => valueKey((values[index] as LateValue).bind(request.caller))).join('\u0001');
    return `${rules}\u0000${PlanCache.key(request.role, request.model.uid, request.action, request.querystring)}\u0000${request.id ?? ''}\u0000${callerValues}`;
  }

  private factsOf(plan: Plan): PlanFacts {
    let facts = this.facts.get(plan);
    if (!facts) {
      const values = plan.compiled.body.values;
      const late = values.flatMap((value, index) => (value instanceof LateValue ? [index] : []));
      const clock = late.some((index) => (values[index] as LateValue).variable.name === 'now');
      const drafts = plan.root.publicationState === 'preview' || readsDrafts(plan.root.selection);
      facts = { tables: clock || drafts ? null : [...tablesRead(plan.root)], late };
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
