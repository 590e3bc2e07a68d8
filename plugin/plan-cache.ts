/**
 * Compiled requests, remembered per (role, route, query string): parsing, authorizing and
 * compiling a populate=* query costs about as much as running it on SQLite. Bounded, oldest
 * first out, so unique query strings cannot grow it without limit. Only successful plans are
 * kept. A cache belongs to one set of access rules (access/rules.ts) and is dropped with them.
 */
import type { RootQuery } from './query/tree.js';
import type { CompiledRequest, Statement } from './sql/compile.js';
import type { Estimate } from './sql/estimate.js';

const MAX_CACHED_SQL_LENGTH = 64 * 1024;

export interface Plan {
  readonly root: RootQuery;
  readonly compiled: CompiledRequest;
  /** What running the plan costs, estimated and observed (read.ts); filled in as it is learnt. */
  readonly figures: PlanFigures;
}

export interface PlanFigures {
  /** The estimate (sql/estimate.ts); null when the data's figures did not allow one yet. */
  estimate?: Estimate | null;
  /** The gathering of the data's figures the estimate was made from (statistics.ts). */
  generation?: number;
  /** The body's size when it last ran over the response budget, and when: the plan is refused from it for a while. */
  overBudget?: { readonly bytes: number; readonly at: number };
}

/**
 * A GraphQL query operation as compiled for one role (graphql/execute-query.ts): its statement,
 * the authorized trees of its root fields (for the estimate before each run). Kept under the rules
 * it was compiled with (access/rules.ts); the caller's values are bound at each run, as for plans.
 */
export interface OperationPlan {
  readonly compiled: { readonly body: Statement };
  readonly roots: readonly RootQuery[];
  /** A field answers from the caller (`me`): neither the plan nor its answers are kept. */
  readonly personal: boolean;
  /** The operation's estimated body and the gathering of the data's figures it was estimated from. */
  readonly figures: { bytes?: number; generation?: number };
  /** What the door adds to the body the statement built, once built (null: nothing): GraphQL's errors of forbidden nested relations. */
  readonly finish?: (body: Buffer) => Buffer | null;
}

/** What a cache keeps: a plan of a request, or of a GraphQL operation, with the SQL it runs. */
export interface Cached {
  readonly compiled: { readonly body: { readonly sql: string } };
}

/** A bounded map, the least recently used entry out first; `keeps` says which values are worth keeping at all. */
export class BoundedCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(
    private readonly capacity: number,
    private readonly keeps: (value: T, key: string) => boolean = () => true,
  ) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Refresh its place: the map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    if (this.capacity <= 0 || !this.keeps(value, key)) return;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
  }
}

export class PlanCache<T extends Cached = Plan> extends BoundedCache<T> {
  constructor(capacity: number) {
    // A plan is mostly its SQL; a very long one (a deep populate of a wide schema) is not kept.
    super(capacity, (plan) => plan.compiled.body.sql.length <= MAX_CACHED_SQL_LENGTH);
  }

  static key(role: string, uid: string, action: string, queryKey: string): string {
    return `${role}\u0000${uid}\u0000${action}\u0000${queryKey}`;
  }
}
