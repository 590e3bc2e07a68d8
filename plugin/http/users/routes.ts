/**
 * The end-user routes of Strapi's users-permissions plugin, under the API's prefix:
 * `POST /auth/local` (login), `POST /auth/local/register`, `GET /users/me`, the account routes
 * (account-routes.ts), the users routes that write or count (user-routes.ts) and the roles
 * routes (role-routes.ts), and third-party login (provider-routes.ts); and, on every route of the API, login tokens read by resolveCaller. Added
 * before the content routes, so `/users/me` is not taken for the user of id "me".
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { RoleResolver } from '../caller.js';
import { readJsonBody } from '../read-body.js';
import type { WriteEngine } from '../../write/write.js';
import { addAccountRoutes } from './account-routes.js';
import { Accounts } from '../../auth/accounts.js';
import { bodyObject, parseLoginBody } from '../../auth/body.js';
import type { EndUsers } from '../../auth/end-users.js';
import { answer, countAddress, endUserOf, refuseEndUsers } from './user-http.js';
import type { MailQueue } from '../../auth/mail.js';
import { AttemptCounter } from '../../auth/rate-limit.js';
import { registerUser } from '../../auth/register.js';
import { acceptLoginTokens } from './login-tokens.js';
import { addUsersAdminRoutes } from './user-routes.js';
import { addRoleRoutes } from './role-routes.js';
import { addProviderRoutes } from './provider-routes.js';

export interface UserRouteOptions {
  /** How the caller's role is resolved without a token (the API's `resolveRole`). */
  readonly resolveRole?: RoleResolver;
  readonly maxBodyBytes: number;
  /** A request's time budget (ms), for the writes of register and the account routes. */
  readonly timeout: number;
  /** The API's prefix, for the link of a confirmation mail. */
  readonly prefix: string;
  /** Where the account flows' mails go (the `users.email` option); absent without it. */
  readonly mail?: MailQueue;
}

function accountsOf(engine: WriteEngine, users: EndUsers, options: UserRouteOptions): Accounts | null {
  const email = users.config.email;
  if (!email || !options.mail) return null;
  return new Accounts({ engine, users, email, mail: options.mail, confirmationUrl: `${email.serverUrl}${options.prefix}/auth/email-confirmation` });
}

export function addUserRoutes(router: Router, engine: WriteEngine, users: EndUsers, options: UserRouteOptions): void {
  router.use((ctx: Context, next: Next) => {
    acceptLoginTokens(ctx, users);
    return next();
  });
  const rate = users.config.rateLimit;
  // Every attempt per address and route, as Strapi counts them (failed logins per account: EndUsers).
  const limits = rate && new AttemptCounter(rate);
  const accounts = accountsOf(engine, users, options);

  router.post('/auth/local', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    const { identifier, password } = parseLoginBody(await readJsonBody(ctx, options.maxBodyBytes));
    answer(ctx, await users.login(identifier, password));
  });

  router.post('/auth/local/register', async (ctx) => {
    await refuseEndUsers(ctx, engine, users);
    countAddress(ctx, limits, engine.now());
    const body = bodyObject(await readJsonBody(ctx, options.maxBodyBytes));
    answer(ctx, await registerUser(engine, users, body, Date.now() + options.timeout, accounts ? (user) => accounts.mailConfirmation(user) : undefined));
  });

  router.get('/users/me', async (ctx) => {
    const user = await endUserOf(ctx, engine, users);
    answer(ctx, user.publicFields);
  });

  addAccountRoutes(router, engine, users, accounts, limits, options);
  addUsersAdminRoutes(router, engine, users.store, options);
  addRoleRoutes(router, engine, users, options);
  addProviderRoutes(router, engine, users, limits, options);
}
