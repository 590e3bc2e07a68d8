/**
 * A users-permissions role's `permissions` (`UsersPermissionsRole.permissions`). Strapi keeps them
 * in `up_permissions`; the package keeps them in permissions.yaml, so they are the actions
 * `GET /users-permissions/roles/:id` shows enabled for the role (auth/permissions-tree.ts), each
 * an entry `{ id, attributes: { action } }` whose id is the action's place among every action the
 * app has (one action, one id, whatever the role). The field's filters, sort and pagination are
 * read by the shared parsers and applied here, for each role of permissions.yaml, before the
 * statement runs; the statement picks the role's answer by the row's `type` column.
 */
import { getNamedType, type FieldNode, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { PUBLIC_ROLE } from '../access/caller.js';
import type { Permissions } from '../access/permissions.js';
import { AUTHENTICATED_ROLE, permissionsRoleOf, type UsersConfig } from '../auth/options.js';
import { permissionsTree, type PermissionsTree } from '../auth/permissions-tree.js';
import { parseQuery } from '../query/parse.js';
import type { ShapeKey } from '../query/tree.js';
import type { Model } from '../schema/registry.js';
import { ROLE_UID } from '../schema/users-permissions.js';
import { restFilters } from './filters.js';
import { pageOf, shapedEntry, type ListedEntry } from './listed-field.js';
import { graphqlWindow } from './pagination.js';
import { PERMISSION_MODEL } from './stock-content.js';
import { wrapped, type TranslateContext } from './translate-query.js';

/** A role name no permissions.yaml role has: a Strapi role whose type names none of them. */
const NO_ROLE = '\u0000';

/** `plugin::users-permissions.auth.callback`: each action of the tree, and whether it is enabled. */
function actions(tree: PermissionsTree): [string, boolean][] {
  return Object.entries(tree).flatMap(([api, { controllers }]) =>
    Object.entries(controllers).flatMap(([controller, granted]) => Object.entries(granted).map(([action, { enabled }]): [string, boolean] => [`${api}.${controller}.${action}`, enabled])),
  );
}

export function rolePermissionsField(permissions: Permissions, config: UsersConfig): NonNullable<TranslateContext['outsideField']> {
  return (context, model, key, field, nodes) => {
    if (model.uid !== ROLE_UID || field.name !== 'permissions') return null;
    const catalogue = new Map(actions(permissionsTree(context.registry, permissions, config, null)).map(([action], index) => [action, index + 1]));
    const entriesOf = (role: string | null): ListedEntry[] =>
      role === null
        ? []
        : actions(permissionsTree(context.registry, permissions, config, role))
            .filter(([, enabled]) => enabled)
            .map(([action]) => ({ id: catalogue.get(action)!, attributes: { action, createdAt: null, updatedAt: null } }));
    const answer = listAnswer(context, field, nodes);
    const types = new Set([...config.roles.keys(), ...permissions.roles.keys(), PUBLIC_ROLE, AUTHENTICATED_ROLE]);
    const cases: [string | null, string][] = [[null, answer(entriesOf(null))], ...[...types].map((type): [string, string] => [type, answer(entriesOf(permissionsRoleOf(config, type)))])];
    const column = roleTypeColumn(model);
    return { key, kind: 'choice', column, cases, otherwise: answer(entriesOf(NO_ROLE)) };
  };
}

function roleTypeColumn(model: Model): string {
  const attribute = model.attributes.get('type');
  return attribute?.kind === 'scalar' ? attribute.column : 'type';
}

/** The JSON text of the field's answer over some entries: its arguments applied, shaped by its selection. */
function listAnswer(context: TranslateContext, field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[]): (entries: readonly ListedEntry[]) => string {
  const args = getArgumentValues(field, nodes[0], context.variables);
  const query = {
    ...(args.filters !== undefined ? { filters: restFilters(context.registry, PERMISSION_MODEL, args.filters) } : {}),
    ...(args.sort !== undefined ? { sort: args.sort } : {}),
  };
  const tree = parseQuery(context.registry, { model: PERMISSION_MODEL, action: 'find', id: null, query }, context.limits);
  const window = graphqlWindow(args.pagination, context.limits.defaultLimit, context.limits.maxLimit);
  const pagination = { mode: 'offset', start: window.start, limit: window.limit ?? Number.MAX_SAFE_INTEGER, withCount: false } as const;
  const { wrapper, row } = wrapped(context, PERMISSION_MODEL, getNamedType(field.type) as GraphQLObjectType, nodes);
  return (entries) => {
    const { page } = pageOf({ filters: tree.filters, sort: tree.sort, pagination }, entries);
    const value = (shapeKey: ShapeKey) => (shapeKey.kind === 'rows' ? page.map((entry) => shapedEntry(row, entry)) : shapeKey.kind === 'typename' ? shapeKey.name : null);
    return JSON.stringify(Object.fromEntries(wrapper.map((shapeKey) => [shapeKey.key, value(shapeKey)])));
  };
}
