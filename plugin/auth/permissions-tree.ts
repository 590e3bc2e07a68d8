/**
 * The permissions of a role in the shape Strapi's users-permissions answers them
 * (`{ 'api::article': { controllers: { article: { find: { enabled, policy } } } } }`), read from
 * permissions.yaml: every action a Strapi app of this schema has, in Strapi's order, enabled where
 * the role's grants (or the routes the `users` option serves it) let it through. Strapi's core
 * plugins that the API does not serve (content-type-builder, email) are listed, never enabled.
 */
import { grantsFor, LOCALE_UID, type Action, type Grants, type Permissions } from '../access/permissions.js';
import { PUBLIC_ROLE } from '../access/caller.js';
import type { Registry } from '../schema/registry.js';
import { ROLE_UID, USER_UID } from '../schema/users-permissions.js';
import type { UsersConfig } from './options.js';

export type PermissionsTree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;

/** What a role may do beside its grants: the routes the `users` option serves it. */
function servedAuthActions(config: UsersConfig, role: string | null): Record<string, boolean> {
  const anonymous = role === PUBLIC_ROLE;
  const mail = anonymous && config.email !== null;
  return {
    callback: anonymous,
    changePassword: role !== null && !anonymous,
    resetPassword: mail,
    connect: anonymous && config.providers.size > 0,
    forgotPassword: mail,
    register: anonymous && config.register !== null,
    emailConfirmation: mail,
    sendEmailConfirmation: mail,
  };
}

function controller(actions: Record<string, boolean>): Record<string, { enabled: boolean; policy: string }> {
  return Object.fromEntries(Object.entries(actions).map(([action, enabled]) => [action, { enabled, policy: '' }]));
}

/** Plugins whose actions the tree lists itself: Strapi's own, with routes of their own. */
const STRAPI_PLUGINS = new Set(['content-type-builder', 'email', 'upload', 'users-permissions', 'i18n']);

/**
 * The core actions of the app's types, by API (`api::article`) or by the app's own plugin
 * (`plugin::navigation`), each type a controller named by its uid; Strapi's i18n adds
 * `createLocalization` to the localized types of APIs only.
 */
function typeActions(registry: Registry, can: (uid: string, action: Action) => boolean): { apis: PermissionsTree; plugins: PermissionsTree } {
  const apis: PermissionsTree = {};
  const plugins: PermissionsTree = {};
  const types = [...registry.contentTypes].sort((a, b) => (a.uid < b.uid ? -1 : 1));
  for (const model of types) {
    const [, owner, name] = /^(api::[^.]+|plugin::[^.]+)\.(.+)$/.exec(model.uid) ?? [];
    if (!owner || !name) continue;
    const isApi = owner.startsWith('api::');
    if (!isApi && STRAPI_PLUGINS.has(owner.slice('plugin::'.length))) continue;
    const actions: Action[] = model.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
    const flags: Record<string, boolean> = Object.fromEntries(actions.map((action) => [action, can(model.uid, action)]));
    if (isApi && model.localized) flags.createLocalization = can(model.uid, 'create');
    const tree = isApi ? apis : plugins;
    tree[owner] = { controllers: { ...tree[owner]?.controllers, [name]: controller(flags) } };
  }
  return { apis, plugins };
}

/**
 * The tree of `role` (a permissions.yaml role), or of none (every action disabled: Strapi's
 * `GET /users-permissions/permissions`).
 */
export function permissionsTree(registry: Registry, permissions: Permissions, config: UsersConfig, role: string | null): PermissionsTree {
  const grants: Grants | null = role === null ? null : grantsFor(permissions, role);
  const can = (uid: string, action: Action) => grants?.can(uid, action) === true;
  const file = registry.file.uid;
  const types = typeActions(registry, can);
  return {
    ...types.apis,
    'plugin::content-type-builder': { controllers: { components: controller({ getComponents: false, getComponent: false }), 'content-types': controller({ getContentTypes: false, getContentType: false }) } },
    'plugin::email': { controllers: { email: controller({ send: false }) } },
    'plugin::upload': { controllers: { 'content-api': controller({ find: can(file, 'find'), findOne: can(file, 'findOne'), destroy: can(file, 'destroy'), upload: can(file, 'upload') }) } },
    'plugin::users-permissions': {
      controllers: {
        auth: controller(servedAuthActions(config, role)),
        user: controller({
          create: can(USER_UID, 'create'),
          update: can(USER_UID, 'update'),
          find: can(USER_UID, 'find'),
          findOne: can(USER_UID, 'findOne'),
          count: can(USER_UID, 'find'),
          destroy: can(USER_UID, 'delete'),
          me: role !== null && role !== PUBLIC_ROLE,
        }),
        role: controller({ createRole: false, findOne: can(ROLE_UID, 'findOne'), find: can(ROLE_UID, 'find'), updateRole: false, deleteRole: false }),
        permissions: controller({ getPermissions: can(ROLE_UID, 'find') }),
      },
    },
    ...types.plugins,
    'plugin::i18n': { controllers: { locales: controller({ listLocales: can(LOCALE_UID, 'find') }) } },
  };
}
