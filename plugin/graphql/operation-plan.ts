/**
 * A GraphQL query operation as compiled for one role: its statement, the authorized trees of its
 * root fields (for the estimate before each run) and the errors of the fields that answer null.
 * Kept under the rules it was compiled with (access/rules.ts), per operation text, operation name
 * and variables; the caller's values are bound at each run, as for REST plans.
 */
import type { RootQuery } from '../query/tree.js';
import type { Statement } from '../sql/compile.js';

export interface OperationPlan {
  readonly compiled: { readonly body: Statement };
  readonly roots: readonly RootQuery[];
  /** A field answers from the caller (`me`): neither the plan nor its answers are kept. */
  readonly personal: boolean;
  /** The operation's estimated body and the gathering of the data's figures it was estimated from. */
  readonly figures: { bytes?: number; generation?: number };
}

/** The cache key of an operation asked by `role`. */
export function operationKey(role: string, query: string, operationName: string | undefined, variables: Readonly<Record<string, unknown>>): string {
  return `${role}\u0000${operationName ?? ''}\u0000${JSON.stringify(variables)}\u0000${query}`;
}
