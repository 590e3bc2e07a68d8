/**
 * Where a GraphQL query operation's plan (plan-cache.ts OperationPlan) is kept for one role: per
 * operation text, operation name and variables.
 */
export type { OperationPlan } from '../plan-cache.js';

/** The cache key of an operation asked by `role`. */
export function operationKey(role: string, query: string, operationName: string | undefined, variables: Readonly<Record<string, unknown>>): string {
  return `${role}\u0000${operationName ?? ''}\u0000${JSON.stringify(variables)}\u0000${query}`;
}
