/**
 * `GET <prefix>/users-permissions/roles`, `/roles/:id` and `/permissions` (roles-view.ts), to a
 * role granted `find` (the list, the permissions) or `findOne` (one role) on `role`; the writes
 * of Strapi's role routes are a 405 saying where roles are kept.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { grantsFor, type Action } from '../../access/permissions.js';
import { resolveCaller } from '../caller.js';
import { ForbiddenError, MethodNotAllowedError } from '../../errors.js';
import { ROLE_UID } from '../../schema/users-permissions.js';
import type { WriteEngine } from '../../write/write.js';
import type { EndUsers } from '../../auth/end-users.js';
import { answer } from './user-http.js';
import { ROLES_IN_FILE, RolesView } from '../../auth/roles-view.js';
import type { UserRouteOptions } from './routes.js';

export function addRoleRoutes(router: Router, engine: WriteEngine, users: EndUsers, options: UserRouteOptions): void {
  const view = new RolesView(engine.registry, users.store, users.config);
  /** The rules in force, once the caller may do `action` on roles. */
  const allowed = async (ctx: Context, action: Action) => {
    const rules = engine.rules();
    const { role } = await resolveCaller(ctx, rules.tokens, options.resolveRole, engine.now());
    ctx.vary('Authorization');
    if (!grantsFor(rules.permissions, role).can(ROLE_UID, action)) throw new ForbiddenError();
    return rules.permissions;
  };
  const refuse = (ctx: Context) => {
    ctx.set('Allow', 'GET, HEAD');
    throw new MethodNotAllowedError(ROLES_IN_FILE);
  };

  router.get('/users-permissions/roles', async (ctx) => {
    await allowed(ctx, 'find');
    answer(ctx, await view.list());
  });
  router.get('/users-permissions/roles/:id', async (ctx) => {
    answer(ctx, await view.one(ctx.params.id, await allowed(ctx, 'findOne')));
  });
  router.get('/users-permissions/permissions', async (ctx) => {
    answer(ctx, view.permissions(await allowed(ctx, 'find')));
  });
  router.post('/users-permissions/roles', refuse);
  router.put('/users-permissions/roles/:id', refuse);
  router.delete('/users-permissions/roles/:id', refuse);
}
