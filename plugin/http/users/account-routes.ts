/**
 * The account routes of Strapi's users-permissions, under the API's prefix: change-password for
 * a logged-in user; and, with `users.email`, forgot-password, reset-password,
 * send-email-confirmation and email-confirmation. Thin: the flows are accounts.ts and
 * change-password.ts.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { readJsonBody } from '../read-body.js';
import { parseQueryString } from '../query-string.js';
import type { WriteEngine } from '../../write/write.js';
import type { Accounts } from '../../auth/accounts.js';
import { changePassword } from '../../auth/change-password.js';
import type { EndUsers } from '../../auth/end-users.js';
import { answer, countAddress, endUserOf, refuseEndUsers } from './user-http.js';
import type { AttemptCounter } from '../../auth/rate-limit.js';
import type { UserRouteOptions } from './routes.js';

export function addAccountRoutes(router: Router, engine: WriteEngine, users: EndUsers, accounts: Accounts | null, limits: AttemptCounter | null, options: UserRouteOptions): void {
  const deadline = () => Date.now() + options.timeout;
  const body = (ctx: Context) => readJsonBody(ctx, options.maxBodyBytes);

  router.post('/auth/change-password', async (ctx) => {
    const user = await endUserOf(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    answer(ctx, await changePassword(engine, users, user, await body(ctx), deadline()));
  });
  if (!accounts) return;

  router.post('/auth/forgot-password', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    answer(ctx, await accounts.forgotPassword(await body(ctx)));
  });

  router.post('/auth/reset-password', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    answer(ctx, await accounts.resetPassword(await body(ctx), deadline()));
  });

  router.post('/auth/send-email-confirmation', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    answer(ctx, await accounts.sendEmailConfirmation(await body(ctx)));
  });

  router.get('/auth/email-confirmation', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    const { redirect } = await accounts.confirmEmail(parseQueryString(ctx.querystring));
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(redirect);
  });
}
