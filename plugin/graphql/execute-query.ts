/**
 * A GraphQL query operation, answered by one statement: each root field is translated into its
 * query tree (translate-query.ts), authorized by the same stage as REST, and all of them compiled
 * into one statement (sql/compile-operation.ts). A root field that fails before running (a bad
 * argument, a forbidden type) answers `null` with its error, as a resolver's error does in Strapi;
 * the others are still answered.
 */
import { OperationTypeNode, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { EndUsers } from '../auth/end-users.js';
import type { WriteEngine } from '../write/write.js';
import { ACCOUNT_FIELDS, answerAccountField, answerIntrospectionField } from './account-fields.js';
import { authorize } from '../access/authorize.js';
import { grantsFor } from '../access/permissions.js';
import { ForbiddenError } from '../errors.js';
import type { RootQuery } from '../query/tree.js';
import { bindCallerValues } from '../sql/caller-values.js';
import { compileOperation, type OperationField } from '../sql/compile-operation.js';
import { estimateRequest } from '../sql/estimate.js';
import type { ExecutionStats } from '../sql/execute.js';
import { checkOperationSize } from '../response-budget.js';
import { collectFields } from './collect-fields.js';
import type { OperationPlan } from './operation-plan.js';
import type { CachedReads, CacheOutcome } from '../cache/cached-read.js';
import type { GraphqlCaller } from './request.js';
import { graphqlError, type GraphqlErrorJson } from './errors.js';
import { answerListedField, type ListedTarget } from './listed-field.js';
import { forbiddenCounter, withForbiddenErrors, type ForbiddenCount } from './forbidden-relations.js';
import { translateRootField, type RootTarget, type TranslateContext } from './translate-query.js';

export interface QueryRequest extends GraphqlCaller {
  readonly operation: OperationDefinitionNode;
  /** Where the operation's plan is kept (operation-plan.ts `operationKey`); null: not kept. */
  readonly cacheKey: string | null;
}

export interface QueryResult {
  readonly body: Buffer;
  readonly release?: () => void;
  readonly stats: ExecutionStats;
  /** Whether the response cache answered (when it is on). */
  readonly outcome?: CacheOutcome;
}

/** Where the Query type's fields read: null for a field this door does not answer from the content. */
export type QueryTargets = (fieldName: string) => RootTarget | null;

/** A body estimated at more than this many times the budget is refused without running (as read.ts does). */
const REFUSE_OVER_BUDGET = 4;

/** What a query needs of the door: the engine, where Query fields read, and the end users for `me`. */
export interface QueryService {
  readonly engine: WriteEngine;
  readonly targets: QueryTargets;
  readonly users?: EndUsers;
  /** The response cache, when it is on. */
  readonly cache?: CachedReads;
  /** Query fields answered from entries held in memory (the i18n locales), by field name. */
  readonly listed: (fieldName: string) => ListedTarget | null;
}

export async function executeQuery(service: QueryService, context: TranslateContext, request: QueryRequest): Promise<QueryResult> {
  const { engine } = service;
  const cached = request.cacheKey === null ? undefined : request.rules.operations.get(request.cacheKey);
  const plan = cached ?? (await planOperation(service, context, request));
  const maxBytes = request.budget.remaining;
  // A batch whose earlier operations spent the budget runs no more.
  if (maxBytes <= 0) checkOperationSize(engine.maxResponseBytes + 1, engine.maxResponseBytes);
  const run = () => runOperation(engine, plan, request, maxBytes);
  const kept = service.cache && request.cacheKey !== null && !plan.personal ? await service.cache.operation(plan, { key: request.cacheKey, rules: request.rules, caller: request.caller }, run) : null;
  const result = kept ? kept.result : await run();
  request.budget.remaining -= result.body.length;
  return { ...result, ...(kept ? { outcome: kept.outcome } : {}) };
}

/** The operation's one statement, under the response budget left. */
async function runOperation(engine: WriteEngine, plan: OperationPlan, request: QueryRequest, maxBytes: number): Promise<QueryResult> {
  refuseOverBudget(engine, plan, maxBytes);
  const statement = plan.compiled.body;
  const stats: ExecutionStats = { statements: 0, milliseconds: 0 };
  const bound = { ...statement, values: bindCallerValues(statement.values, request.caller) };
  const body = await engine.executor.body(bound, stats, request.deadline, maxBytes, { caller: request.caller.key });
  let finished: Buffer | null = null;
  try {
    checkOperationSize(body.size, maxBytes);
    finished = plan.finish?.(body.bytes) ?? null;
    if (finished) checkOperationSize(finished.length, maxBytes);
  } catch (error) {
    body.release?.();
    throw error;
  }
  if (!finished) return { body: body.bytes, ...(body.release ? { release: body.release } : {}), stats };
  // The statement's bytes were copied into the finished body: they go back now.
  body.release?.();
  return { body: finished, stats };
}

/**
 * The operation's statement: each root field translated and authorized (or answered null with its
 * error), all compiled together. Kept for the next identical operation of the role, unless a field
 * answers from the caller (`me`).
 */
async function planOperation(service: QueryService, context: TranslateContext, request: QueryRequest): Promise<OperationPlan> {
  const grants = grantsFor(request.rules.permissions, request.role);
  const errors: GraphqlErrorJson[] = [];
  const fields: OperationField[] = [];
  const roots: RootQuery[] = [];
  const counters: { key: string; count: ForbiddenCount }[] = [];
  let personal = false;
  for (const [key, nodes] of collectFields(context, 'Query', [request.operation.selectionSet])) {
    const name = nodes[0].name.value;
    if (name === '__typename') fields.push({ key, root: null, json: '"Query"' });
    else if (name.startsWith('__')) fields.push({ key, root: null, json: await answerIntrospectionField(context, nodes) });
    else if (ACCOUNT_FIELDS.has(name)) {
      personal = true;
      fields.push({ key, root: null, json: await accountJson(service, context, nodes, key, request, errors) });
    } else if (service.listed(name)) {
      fields.push({ key, root: null, json: await listedJson(context, service.listed(name)!, grants, key, nodes, errors) });
    } else {
      const field = rootField(context, service.targets, grants, key, nodes, errors);
      if (field?.count) counters.push({ key, count: field.count });
      if (field) roots.push(field.root);
      fields.push({ key, root: field?.root ?? null });
    }
  }
  const head = errors.length ? `"errors":${JSON.stringify(errors)},` : '';
  const finish = counters.length ? (body: Buffer) => withForbiddenErrors(body, head, errors, counters) : undefined;
  const plan: OperationPlan = { compiled: { body: compileOperation(service.engine.executor.dialect, head, fields) }, roots, personal, figures: {}, ...(finish ? { finish } : {}) };
  if (request.cacheKey !== null && !personal) request.rules.operations.set(request.cacheKey, plan);
  return plan;
}

/** One root field's authorized tree and the counter of its forbidden nested relations, or null with its error recorded. */
function rootField(
  context: TranslateContext,
  targets: QueryTargets,
  grants: ReturnType<typeof grantsFor>,
  key: string,
  nodes: readonly FieldNode[],
  errors: GraphqlErrorJson[],
): { root: RootQuery; count: ForbiddenCount | null } | null {
  const target = targets(nodes[0].name.value);
  try {
    if (!target) throw new ForbiddenError();
    // The field's permission comes first, as the plugin's auth scope runs before its resolver.
    if (!grants.can(target.model.uid, target.action)) throw new ForbiddenError();
    const tree = translateRootField(context, target, nodes);
    return { root: authorize(tree, grants), count: forbiddenCounter(tree, grants) };
  } catch (error) {
    errors.push(graphqlError(error, nodes[0], [key]));
    return null;
  }
}

/** A field answered from entries in memory, as JSON text, or null with its error recorded. */
async function listedJson(
  context: TranslateContext,
  target: ListedTarget,
  grants: ReturnType<typeof grantsFor>,
  key: string,
  nodes: readonly FieldNode[],
  errors: GraphqlErrorJson[],
): Promise<string> {
  try {
    if (!grants.can(target.model.uid, target.grant)) throw new ForbiddenError();
    return await answerListedField(context, target, nodes);
  } catch (error) {
    errors.push(graphqlError(error, nodes[0], [key]));
    return 'null';
  }
}

/** An account field's JSON text (`me`), or null with its error recorded. */
async function accountJson(service: QueryService, context: TranslateContext, nodes: readonly FieldNode[], key: string, request: QueryRequest, errors: GraphqlErrorJson[]): Promise<string> {
  try {
    return await answerAccountField(context, service.engine, service.users, OperationTypeNode.QUERY, nodes, request);
  } catch (error) {
    errors.push(graphqlError(error, nodes[0], [key]));
    return 'null';
  }
}

/** The operation's estimated body, over its roots, against the response budget left. */
function refuseOverBudget(engine: WriteEngine, plan: OperationPlan, maxBytes: number): void {
  const statistics = engine.statistics;
  if (!statistics || !statistics.ready) return;
  // Estimated once per gathering of the data's figures, as a REST plan's estimate is (read.ts).
  const { figures } = plan;
  if (figures.bytes === undefined || figures.generation !== statistics.generation) {
    figures.bytes = plan.roots.reduce((sum, root) => sum + (estimateRequest(root, statistics)?.bytes ?? 0), 0);
    figures.generation = statistics.generation;
  }
  if (figures.bytes > REFUSE_OVER_BUDGET * maxBytes) checkOperationSize(figures.bytes, maxBytes, true);
}
