/**
 * The users routes of Strapi's users-permissions that write or count, under the API's prefix:
 * `GET /users/count` (the `find` action on `user`), `POST /users` (`create`), `PUT /users/:id`
 * (`update`) and `DELETE /users/:id` (`delete`, Strapi's `destroy`). Added before the content
 * routes, whose `{ data }` writes they replace for the user type. Thin: user-admin.ts does the work.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { resolveCaller } from '../caller.js';
import { readJsonBody } from '../read-body.js';
import { grantsToWrite, type WriteEngine } from '../../write/write.js';
import type { Action } from '../../access/permissions.js';
import { answer } from './user-http.js';
import type { UserRouteOptions } from './routes.js';
import { UserAdmin, type UsersRequest } from '../../auth/user-admin.js';
import type { UserStore } from '../../auth/user-store.js';
import { parseQueryString } from '../query-string.js';

export function addUsersAdminRoutes(router: Router, engine: WriteEngine, store: UserStore, options: UserRouteOptions): void {
  const admin = new UserAdmin(engine, store);
  const model = store.userModel;
  /** The caller, checked for `action` on users before the body is read. */
  const caller = async (ctx: Context, action: Action | null) => {
    const rules = engine.rules();
    const resolved = await resolveCaller(ctx, rules.tokens, options.resolveRole, engine.now());
    const request: UsersRequest = { role: resolved.role, caller: { ...resolved, now: engine.now() }, rules, deadline: Date.now() + options.timeout };
    ctx.vary('Authorization');
    return { request, grants: action ? grantsToWrite({ rules, role: resolved.role, model }, action) : null };
  };

  router.get('/users/count', async (ctx) => {
    const { request } = await caller(ctx, null);
    answer(ctx, await admin.count(request, parseQueryString(ctx.querystring)));
  });

  router.post('/users', async (ctx) => {
    const { request, grants } = await caller(ctx, 'create');
    ctx.status = 201;
    answer(ctx, await admin.create(await readJsonBody(ctx, options.maxBodyBytes), request, grants!));
  });

  router.put('/users/:id', async (ctx) => {
    const { request, grants } = await caller(ctx, 'update');
    answer(ctx, await admin.update(ctx.params.id, await readJsonBody(ctx, options.maxBodyBytes), request, grants!));
  });

  router.delete('/users/:id', async (ctx) => {
    const { request } = await caller(ctx, 'delete');
    const deleted = await admin.delete(ctx.params.id, request);
    if (deleted) answer(ctx, deleted);
    else ctx.status = 204;
  });
}
