/**
 * Third-party login's routes, under the API's prefix (third-party.ts does the work):
 * `GET /connect/:provider` and its return `GET /connect/:provider/callback`, which carry grant's
 * session in a signed cookie (grant-session.ts), and `GET /auth/:provider/callback`, which logs
 * the user of a provider's access token in.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { parseQueryString } from '../query-string.js';
import type { WriteEngine } from '../../write/write.js';
import type { EndUsers } from '../../auth/end-users.js';
import { GRANT_COOKIE, openSession, sealSession } from '../../auth/grant-session.js';
import { answer, countAddress, refuseEndUsers } from './user-http.js';
import type { AttemptCounter } from '../../auth/rate-limit.js';
import type { UserRouteOptions } from './routes.js';
import { ThirdPartyLogin, type GrantStep } from '../../auth/third-party.js';

/** How long a user may take at the provider's page. */
const SESSION_MS = 10 * 60_000;

export function addProviderRoutes(router: Router, engine: WriteEngine, users: EndUsers, limits: AttemptCounter | null, options: UserRouteOptions): void {
  const { providers, serverUrl, jwtSecret } = users.config;
  // Without providers (then serverUrl may be absent) every provider is answered as turned off.
  const login = new ThirdPartyLogin(engine, users, providers, `${serverUrl ?? 'http://localhost'}${options.prefix}/connect`);
  const cookie = (ctx: Context, value: string | null) =>
    ctx.cookies.set(GRANT_COOKIE, value, { path: `${options.prefix}/connect`, httpOnly: true, sameSite: 'lax', secure: ctx.secure, maxAge: value === null ? 0 : SESSION_MS, overwrite: true });
  const redirect = (ctx: Context, step: GrantStep, session: string | null) => {
    cookie(ctx, session);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(step.location);
  };

  router.get('/connect/:provider', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    const step = await login.connect(ctx.params.provider, parseQueryString(ctx.querystring));
    redirect(ctx, step, sealSession(jwtSecret, step.session));
  });

  router.get('/connect/:provider/callback', async (ctx) => {
    countAddress(ctx, limits, engine.now());
    const session = openSession(jwtSecret, ctx.cookies.get(GRANT_COOKIE));
    redirect(ctx, await login.providerReturn(ctx.params.provider, parseQueryString(ctx.querystring), session), null);
  });

  router.get('/auth/:provider/callback', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    answer(ctx, await login.login(ctx.params.provider, parseQueryString(ctx.querystring), Date.now() + options.timeout));
  });
}
