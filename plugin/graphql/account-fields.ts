/**
 * The users-permissions plugin's own fields: `login` and `register` (mutations) and `me` (a query).
 * They answer no content: each is what the REST route of the same name answers (auth/), given to
 * graphql-js to shape by the field's selection, as Strapi's resolvers hand the controller's answer
 * to Apollo. Introspection fields beside content fields are answered by graphql-js the same way.
 */
import { execute, Kind, OperationTypeNode, type DocumentNode, type FieldNode } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import type { EndUsers } from '../auth/end-users.js';
import { registerUser } from '../auth/register.js';
import { parseLoginBody } from '../auth/body.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { WriteEngine } from '../write/write.js';
import type { OperationContext } from './collect-fields.js';
import type { GraphqlCaller } from './request.js';

export const ACCOUNT_FIELDS: ReadonlySet<string> = new Set(['login', 'register', 'me']);

/** The answer of an account field, as JSON text shaped by its selection. */
export async function answerAccountField(
  context: OperationContext,
  engine: WriteEngine,
  users: EndUsers | undefined,
  operation: OperationTypeNode,
  nodes: readonly FieldNode[],
  who: GraphqlCaller,
): Promise<string> {
  const name = nodes[0].name.value;
  if (!users) throw new NotFoundError(`${name} is served with the users option`);
  const rootType = operation === 'mutation' ? context.schema.getMutationType()! : context.schema.getQueryType()!;
  const args = getArgumentValues(rootType.getFields()[name], nodes[0], context.variables);
  const value = await accountValue(engine, users, name, args.input as Record<string, unknown> | undefined, who);
  return shapeValue(context, operation, nodes, name, value);
}

async function accountValue(engine: WriteEngine, users: EndUsers, name: string, input: Record<string, unknown> | undefined, who: GraphqlCaller): Promise<unknown> {
  switch (name) {
    case 'login': {
      const { identifier, password } = parseLoginBody(input);
      return users.login(identifier, password);
    }
    case 'register':
      return registerUser(engine, users, { ...input }, who.deadline);
    default:
      // `me` of a caller who is no end user: the plugin's scope refuses it before its resolver.
      if (!who.caller.user || who.caller.user.role === undefined) throw new ForbiddenError();
      return who.caller.user;
  }
}

/** An introspection field (`__schema`, `__type`) beside content fields, answered by graphql-js from the schema. */
export function answerIntrospectionField(context: OperationContext, nodes: readonly FieldNode[]): Promise<string> {
  return shapeValue(context, OperationTypeNode.QUERY, nodes, nodes[0].name.value, undefined);
}

/** `value` as graphql-js answers the field's selection on it. */
export async function shapeValue(context: OperationContext, operation: OperationTypeNode, nodes: readonly FieldNode[], name: string, value: unknown): Promise<string> {
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [{ kind: Kind.OPERATION_DEFINITION, operation, selectionSet: { kind: Kind.SELECTION_SET, selections: nodes } }, ...Object.values(context.fragments)],
  };
  const rootValue = value === undefined ? {} : { [name]: value };
  const result = await execute({ schema: context.schema, document, rootValue, variableValues: context.variables });
  if (result.errors?.length) throw result.errors[0];
  const key = nodes[0].alias?.value ?? name;
  return JSON.stringify(result.data?.[key] ?? null);
}
