/**
 * One GraphQL request (`{ query, variables, operationName }`), whatever carried it: parsed and
 * validated by graphql-js against the schema served (parse and validation errors are 400s, as
 * Apollo Server answers them), its operation chosen, its variables coerced, then answered:
 * introspection by graphql-js itself, queries by one statement (execute-query.ts).
 */
import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import type { AccessRules } from '../access/rules.js';
import type { Registry } from '../schema/registry.js';
import type { CallerValues } from '../query/caller-variable.js';
import type { QueryLimits } from '../query/parse.js';
import type { HookRequest } from '../write/lifecycles.js';
import type { WriteEngine } from '../write/write.js';
import type { ExecutionStats } from '../sql/execute.js';
import { depthLimitRule } from './depth-limit.js';
import { rolePermissionsField } from './role-permissions.js';
import { BoundedCache } from '../plan-cache.js';
import { RequestRefusal } from './request-body.js';
import type { CacheOutcome } from '../cache/cached-read.js';
import { operationKey } from './operation-plan.js';
import { executeQuery, type QueryService } from './execute-query.js';
import { executeMutation, type MutationService } from './execute-mutation.js';

/** What the door serves: the schema, where its Query fields read, and its settings. */
export interface GraphqlService extends MutationService, QueryService {
  readonly engine: WriteEngine;
  /** The registry operations are translated against: the engine's, with the models of Strapi's own types the door reads (stock-content.ts). */
  readonly registry: Registry;
  readonly schema: GraphQLSchema;
  /** The GraphQL object type of a component, by the component's uid. */
  readonly componentTypeName: (uid: string) => string;
  readonly limits: QueryLimits;
  readonly depthLimit: number;
  readonly introspection: boolean;
  /** Documents parsed and validated against the schema, by their text. */
  readonly documents: DocumentCache;
}

/** Valid documents by their text, the least recently used out first: the same operation is parsed and validated once. */
export class DocumentCache extends BoundedCache<DocumentNode> {
  constructor(capacity: number) {
    super(capacity, (_document, text) => text.length <= MAX_CACHED_TEXT);
  }
}

/** A longer operation is parsed each time: the cache keeps the common ones, not every text a caller can send. */
const MAX_CACHED_TEXT = 16 * 1024;

export interface GraphqlParams {
  readonly query: unknown;
  readonly variables: unknown;
  readonly operationName: unknown;
}

export interface GraphqlCaller {
  readonly role: string;
  readonly caller: CallerValues;
  readonly rules: AccessRules;
  readonly deadline: number;
  /** The request's side of the lifecycle hooks of its writes. */
  readonly hooks?: HookRequest;
  /** The response budget left to the request: the operations of a batch share one. */
  readonly budget: ResponseBudget;
}

/** Bytes a request's answers may still take (the `maxResponseBytes` of the whole request). */
export interface ResponseBudget {
  remaining: number;
}

export interface GraphqlAnswer {
  readonly status: number;
  /** The JSON body: bytes the database built, or a value to serialize. */
  readonly body: Buffer | Record<string, unknown>;
  readonly release?: () => void;
  readonly stats?: ExecutionStats;
  readonly outcome?: CacheOutcome;
}

const APOLLO = 'INTERNAL_SERVER_ERROR';

/** A request error: the whole request is refused with this status, nothing runs. */
function refused(status: number, code: string, errors: readonly GraphQLError[]): GraphqlAnswer {
  const formatted = errors.map((error) => ({ ...error.toJSON(), extensions: { ...error.extensions, code } }));
  return { status, body: { errors: formatted } };
}

export async function answerGraphql(service: GraphqlService, params: GraphqlParams, method: 'GET' | 'POST', who: GraphqlCaller): Promise<GraphqlAnswer> {
  if (params.query !== undefined && params.query !== null && typeof params.query !== 'string') throw new RequestRefusal(400, { text: 'GraphQL queries must be strings.' });
  // Apollo Server words its own refusals with the code INTERNAL_SERVER_ERROR, whatever their status.
  if (typeof params.query !== 'string' || params.query === '') {
    return refused(400, APOLLO, [new GraphQLError('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.')]);
  }
  let document = service.documents.get(params.query);
  if (!document) {
    try {
      document = parse(params.query, { maxTokens: 10_000 });
    } catch (error) {
      return refused(400, 'GRAPHQL_PARSE_FAILED', [error as GraphQLError]);
    }
    const invalid = validate(service.schema, document, [...specifiedRules, depthLimitRule(service.depthLimit)], { maxErrors: 20 });
    if (invalid.length) return refused(400, 'GRAPHQL_VALIDATION_FAILED', invalid);
    service.documents.set(params.query, document);
  }
  const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
  const operation = getOperationAST(document, operationName);
  if (!operation) {
    const message = operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.';
    return refused(400, APOLLO, [new GraphQLError(message)]);
  }
  if (method === 'GET' && operation.operation !== 'query') return refused(405, APOLLO, [new GraphQLError('GET supports only query operation')]);
  const coerced = getVariableValues(service.schema, operation.variableDefinitions ?? [], variablesOf(params.variables));
  if (coerced.errors) return refused(400, 'BAD_USER_INPUT', coerced.errors);
  if (asksIntrospection(operation) && !service.introspection) return introspectionRefused(operation);
  if (isIntrospection(operation)) return introspect(service, document, operation, coerced.coerced);
  if (operation.operation === 'subscription') return refused(400, APOLLO, [new GraphQLError('Schema is not configured for subscriptions.', { nodes: [operation] })]);
  const context = {
    schema: service.schema,
    fragments: fragmentsOf(document),
    variables: coerced.coerced,
    registry: service.registry,
    limits: service.limits,
    componentTypeName: service.componentTypeName,
    ...(service.users ? { outsideField: rolePermissionsField(who.rules.permissions, service.users.config) } : {}),
  };
  if (operation.operation === 'mutation') return { status: 200, ...(await executeMutation(service, context, operation, who)) };
  const cacheKey = operationKey(who.role, params.query, operationName, variablesOf(params.variables));
  const result = await executeQuery(service, context, { operation, ...who, cacheKey });
  return { status: 200, body: result.body, stats: result.stats, ...(result.release ? { release: result.release } : {}), ...(result.outcome ? { outcome: result.outcome } : {}) };
}

function variablesOf(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'string' && raw.trim() !== '') {
    try {
      return variablesOf(JSON.parse(raw));
    } catch {
      return {};
    }
  }
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  return fragments;
}

/** An operation that asks only for `__schema`, `__type` or `__typename` at its root. */
function isIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith('__') && selection.name.value !== '__typename');
}

/** Whether a root field asks for `__schema` or `__type`. */
function asksIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.some((selection) => selection.kind === Kind.FIELD && (selection.name.value === '__schema' || selection.name.value === '__type'));
}

function introspectionRefused(operation: OperationDefinitionNode): GraphqlAnswer {
  return refused(400, 'GRAPHQL_VALIDATION_FAILED', [
    new GraphQLError('GraphQL introspection is not allowed by Apollo Server, but the query contained __schema or __type. To enable introspection, pass introspection: true to ApolloServer in production', { nodes: [operation] }),
  ]);
}

async function introspect(service: GraphqlService, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): Promise<GraphqlAnswer> {
  const result = await execute({ schema: service.schema, document, variableValues: variables, operationName: operation.name?.value });
  return { status: 200, body: result as unknown as Record<string, unknown> };
}
