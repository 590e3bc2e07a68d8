/**
 * Strapi's users-permissions roles routes, read-only: the roles of `up_roles` (the Strapi roles
 * users have) with their permissions read from permissions.yaml, in Strapi's shape. Roles are
 * not written through the API: their permissions live in permissions.yaml (docs/deviations.md).
 */
import type { Permissions } from '../access/permissions.js';
import { NotFoundError } from '../errors.js';
import type { Registry } from '../schema/registry.js';
import { permissionsRoleOf, type UsersConfig } from './options.js';
import { permissionsTree, type PermissionsTree } from './permissions-tree.js';
import type { StoredRole, UserStore } from './user-store.js';

/** Why `POST`, `PUT` and `DELETE` on roles are refused. */
export const ROLES_IN_FILE = 'Roles and their permissions are kept in permissions.yaml: edit that file, which is reloaded when it changes';

function roleFields(role: StoredRole) {
  return { id: role.id, name: role.name, description: role.description, type: role.type, createdAt: role.createdAt?.toISOString() ?? null, updatedAt: role.updatedAt?.toISOString() ?? null };
}

export class RolesView {
  constructor(
    private readonly registry: Registry,
    private readonly store: UserStore,
    private readonly config: UsersConfig,
  ) {}

  /** `GET /users-permissions/roles`: every role by name, with its number of users. */
  async list(): Promise<{ roles: unknown[] }> {
    return { roles: (await this.store.roles()).map((role) => ({ ...roleFields(role), nb_users: role.users })) };
  }

  /** `GET /users-permissions/roles/:id`: the role and the permissions its permissions.yaml role grants. */
  async one(idText: string, permissions: Permissions): Promise<{ role: unknown }> {
    const [role] = /^\d{1,15}$/.test(idText) ? await this.store.roles(Number(idText)) : [];
    if (!role) throw new NotFoundError('Role not found');
    const granted = role.type === null ? null : permissionsRoleOf(this.config, role.type);
    return { role: { ...roleFields(role), permissions: permissionsTree(this.registry, permissions, this.config, granted) } };
  }

  /** `GET /users-permissions/permissions`: every action there is, none enabled. */
  permissions(permissions: Permissions): { permissions: PermissionsTree } {
    return { permissions: permissionsTree(this.registry, permissions, this.config, null) };
  }
}
