/**
 * The access rules in force: permissions, the token verifier built from them, and the plans
 * compiled under them. One immutable snapshot, replaced whole when permissions.yaml changes: a
 * request reads it once, at its start, and sees the old rules or the new, never a mix; plans of
 * the old rules go with them.
 */
import type { Permissions } from './permissions.js';
import { TokenVerifier } from './tokens.js';
import { PlanCache, type OperationPlan } from '../plan-cache.js';

export interface AccessRules {
  readonly permissions: Permissions;
  readonly tokens: TokenVerifier;
  /** Plans compiled under these rules. */
  readonly plans: PlanCache;
  /** GraphQL query operations compiled under these rules. */
  readonly operations: PlanCache<OperationPlan>;
}

export function createAccessRules(permissions: Permissions, planCacheSize: number): AccessRules {
  return Object.freeze({
    permissions,
    tokens: new TokenVerifier(permissions.tokens),
    plans: new PlanCache(planCacheSize),
    operations: new PlanCache<OperationPlan>(planCacheSize),
  });
}
