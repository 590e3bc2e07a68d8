/**
 * A GraphQL mutation operation: its root fields run one after the other, each through the write
 * pipeline (one transaction, checks, rules, hooks, webhooks) as the REST routes run it, with
 * GraphQL's own meaning where Strapi's plugin differs (mutation-data.ts): a create is a draft
 * unless it gives `publishedAt`; an update or a delete of an entry that does not exist answers
 * `data: null`. Each answer is the written entry read back by one statement, shaped by the field's
 * selection; a field that fails answers `null` with its error, and the next one still runs.
 */
import { isNonNullType, OperationTypeNode, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { EndUsers } from '../auth/end-users.js';
import { ACCOUNT_FIELDS, answerAccountField } from './account-fields.js';
import { answerUploadField, UPLOAD_ACTIONS } from './upload-fields.js';
import type { MediaLibrary } from '../upload/media-library.js';
import { getArgumentValues } from 'graphql/execution/values.js';
import { grantsFor } from '../access/permissions.js';
import { NotFoundError } from '../errors.js';
import { authorizeWritten, NO_QUERY, type ReadResult } from '../read.js';
import { bindCallerValues } from '../sql/caller-values.js';
import { compileFieldValue } from '../sql/compile-operation.js';
import type { ExecutionStats } from '../sql/execute.js';
import { checkOperationSize } from '../response-budget.js';
import { createLocalization } from '../write/localizations.js';
import { deleteSingleType, putSingleType } from '../write/single-type.js';
import { createEntry, deleteEntry, grantsToWrite, updateEntry, type WriteEngine, type WriteRequest, type WrittenAnswer } from '../write/write.js';
import { collectFields } from './collect-fields.js';
import { graphqlError, type GraphqlErrorJson } from './errors.js';
import { localizationData, mutationData } from './mutation-data.js';
import type { GraphqlCaller } from './request.js';
import type { OperationTarget } from './schema/targets.js';
import { entryId, translateWrittenEntry, type TranslateContext } from './translate-query.js';

export interface MutationService {
  readonly engine: WriteEngine;
  readonly users?: EndUsers;
  /** The media library, for the upload mutations. */
  readonly library?: MediaLibrary;
  readonly mutations: ReadonlyMap<string, OperationTarget>;
}

export async function executeMutation(
  service: MutationService,
  context: TranslateContext,
  operation: OperationDefinitionNode,
  who: GraphqlCaller,
): Promise<{ body: Buffer; stats: ExecutionStats }> {
  const stats: ExecutionStats = { statements: 0, milliseconds: 0 };
  const errors: GraphqlErrorJson[] = [];
  const members: string[] = [];
  for (const [key, nodes] of collectFields(context, 'Mutation', [operation.selectionSet])) {
    let value = 'null';
    const name = nodes[0].name.value;
    try {
      if (name === '__typename') value = '"Mutation"';
      else if (ACCOUNT_FIELDS.has(name)) value = await answerAccountField(context, service.engine, service.users, OperationTypeNode.MUTATION, nodes, who);
      else value = await runField(service, context, nodes, who, stats);
    } catch (error) {
      errors.push(graphqlError(error, nodes[0], [key]));
      // A field that may not be null takes the whole answer with it, and the fields after it do not run (GraphQL's serial execution).
      if (name !== '__typename' && isNonNullType(context.schema.getMutationType()!.getFields()[name]?.type)) return answered(errors, null, stats);
    }
    members.push(`${JSON.stringify(key)}:${value}`);
  }
  return answered(errors, `{${members.join(',')}}`, stats);
}

function answered(errors: readonly GraphqlErrorJson[], data: string | null, stats: ExecutionStats): { body: Buffer; stats: ExecutionStats } {
  const head = errors.length ? `"errors":${JSON.stringify(errors)},` : '';
  return { body: Buffer.from(`{${head}"data":${data ?? 'null'}}`), stats };
}

/** One mutation field: its write, and its answer's JSON text. */
async function runField(service: MutationService, context: TranslateContext, nodes: readonly FieldNode[], who: GraphqlCaller, stats: ExecutionStats): Promise<string> {
  const { engine } = service;
  const name = nodes[0].name.value;
  const target = service.mutations.get(name);
  const model = target && engine.registry.models.get(target.uid);
  if (!target || !model) throw new NotFoundError(`The mutation ${name} is not served`);
  const field = context.schema.getMutationType()!.getFields()[name];
  const args = getArgumentValues(field, nodes[0], context.variables);
  const answer: WrittenAnswer = async (reader, id) => {
    const grants = grantsFor(who.rules.permissions, who.role);
    const tree = authorizeWritten(grants, model, translateWrittenEntry(context, model, id, field, nodes, target.action === 'delete'));
    const statement = compileFieldValue(reader.executor.dialect, tree);
    const bound = { ...statement, values: bindCallerValues(statement.values, who.caller) };
    const maxBytes = who.budget.remaining;
    const body = await reader.executor.body(bound, stats, who.deadline, maxBytes, { caller: who.caller.key });
    who.budget.remaining -= body.size;
    checkOperationSize(body.size, maxBytes);
    return { body: body.bytes, ...(body.release ? { release: body.release } : {}), stats };
  };
  if (UPLOAD_ACTIONS.has(target.action)) {
    const value = await answerUploadField({ engine, library: service.library, action: target.action, args, who, answer, nodes });
    engine.statistics?.written();
    return value;
  }
  // The `locale` argument is what REST's `?locale=` is to a write.
  const query = typeof args.locale === 'string' ? { query: { locale: args.locale }, queryKey: `locale=${encodeURIComponent(args.locale)}` } : NO_QUERY;
  const request: WriteRequest = {
    model,
    id: target.single || target.action === 'create' ? null : entryId(args.id),
    ...query,
    role: who.role,
    caller: who.caller,
    rules: who.rules,
    deadline: who.deadline,
    body: undefined,
    ...(who.hooks ? { hooks: who.hooks } : {}),
    answer,
    // The plugin creates through the entity service, which publishes nothing by itself.
    publishes: false,
  };
  const result = await write(service, target, args, request);
  engine.statistics?.written();
  return textOf(result);
}

/** The write a mutation stands for; an update or a delete of no entry answers as an entry that is not there. */
async function write(service: MutationService, target: OperationTarget, args: Record<string, unknown>, request: WriteRequest): Promise<ReadResult | Buffer> {
  const { engine } = service;
  const data = () => mutationData(args.data);
  const missing = () => request.answer!(engine, 0);
  const withId = { ...request, id: request.id ?? 0 };
  try {
    switch (target.action) {
      case 'create':
        return await createEntry(engine, { ...request, body: { data: data() } }, grantsToWrite(request, 'create'));
      case 'update':
        if (target.single) return await putSingleType(engine, { ...request, body: { data: data() } }, grantsToWrite(request, 'update'));
        return await updateEntry(engine, { ...withId, body: { data: data() } }, grantsToWrite(request, 'update'));
      case 'delete':
        grantsToWrite(request, 'delete');
        return await (target.single ? deleteSingleType(engine, request) : deleteEntry(engine, withId));
      case 'createLocalization':
        return await createLocalization(engine, { ...withId, body: localizationData(args) }, grantsToWrite(request, 'create'));
      default:
        throw new NotFoundError(`The mutation ${target.action} is not served`);
    }
  } catch (error) {
    if (error instanceof NotFoundError && (target.action === 'update' || target.action === 'delete') && !target.single) return missing();
    throw error;
  }
}

function textOf(result: ReadResult | Buffer): string {
  if (Buffer.isBuffer(result)) return result.toString('utf8');
  const text = result.body.toString('utf8');
  result.release?.();
  return text;
}
