/**
 * The end-user routes of Strapi's users-permissions plugin, under the API's prefix:
 * `POST /auth/local` (login), `POST /auth/local/register` and `GET /users/me`; and, on every route
 * of the API, login tokens read by resolveCaller. Added before the content routes, so `/users/me`
 * is not taken for the user of id "me".
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { ForbiddenError, RateLimitError, UnauthorizedError } from '../errors.js';
import { readJsonBody } from '../http/read-body.js';
import type { WriteEngine } from '../write/write.js';
import { bodyObject, parseLoginBody } from './body.js';
import type { EndUsers } from './end-users.js';
import { looksLikeJwt } from './jwt.js';
import { AttemptCounter } from './rate-limit.js';
import { registerUser } from './register.js';
import { acceptLoginTokens } from './login-tokens.js';

export interface UserRouteOptions {
  readonly maxBodyBytes: number;
  /** A request's time budget (ms), for the register transaction. */
  readonly timeout: number;
}


function bearerOf(ctx: Context): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'));
  return match ? match[1].trim() : null;
}

export function addUserRoutes(router: Router, engine: WriteEngine, users: EndUsers, options: UserRouteOptions): void {
  router.use((ctx: Context, next: Next) => {
    acceptLoginTokens(ctx, users);
    return next();
  });
  const rate = users.config.rateLimit;
  // Every attempt per address and route, as Strapi counts them (failed logins per account: EndUsers).
  const limits = rate && new AttemptCounter(rate);
  const now = () => engine.now();

  router.post('/auth/local', async (ctx) => {
    if (limits) countAddress(ctx, limits, now());
    const { identifier, password } = parseLoginBody(await readJsonBody(ctx, options.maxBodyBytes));
    try {
      answer(ctx, await users.login(identifier, password));
    } catch (error) {
      if (error instanceof RateLimitError) ctx.set('Retry-After', String(error.retryAfter));
      throw error;
    }
  });

  router.post('/auth/local/register', async (ctx) => {
    if (limits) countAddress(ctx, limits, now());
    const body = bodyObject(await readJsonBody(ctx, options.maxBodyBytes));
    answer(ctx, await registerUser(engine, users, body, Date.now() + options.timeout));
  });

  router.get('/users/me', async (ctx) => {
    ctx.vary('Authorization');
    const token = bearerOf(ctx);
    if (token !== null && looksLikeJwt(token)) {
      const { user } = await users.userOfToken(token);
      answer(ctx, user.publicFields);
      return;
    }
    // As Strapi: no end user is a 403 for the public role, and a bearer value that is no API token a 401.
    if (token !== null && !engine.rules().tokens.verify(token, now())) throw new UnauthorizedError();
    throw new ForbiddenError();
  });
}

function countAddress(ctx: Context, counter: AttemptCounter, now: number): void {
  const key = `${ctx.path.toLowerCase()} ${ctx.ip}`;
  if (counter.hit(key, now)) return;
  ctx.set('Retry-After', String(counter.retryAfter(key, now)));
  throw new RateLimitError(counter.retryAfter(key, now));
}

function answer(ctx: Context, body: unknown): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}
