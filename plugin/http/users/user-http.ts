/**
 * What the end-user routes share on the Koa side: the bearer value, the per-address limit, who
 * the caller is as Strapi's default permissions see it, and the answer's headers.
 */
import type { Context } from 'koa';
import { ForbiddenError, RateLimitError, UnauthorizedError } from '../../errors.js';
import type { WriteEngine } from '../../write/write.js';
import type { EndUsers } from '../../auth/end-users.js';
import { looksLikeJwt } from '../../auth/jwt.js';
import type { AttemptCounter } from '../../auth/rate-limit.js';
import type { StoredUser } from '../../auth/user-store.js';

export function bearerOf(ctx: Context): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'));
  return match ? match[1].trim() : null;
}

/** Counts the request per route and client address; past the allowance, a 429 with Retry-After. */
export function countAddress(ctx: Context, counter: AttemptCounter | null, now: number): void {
  if (!counter) return;
  const key = `${ctx.path.toLowerCase()} ${ctx.ip}`;
  if (!counter.hit(key, now)) throw new RateLimitError(counter.retryAfter(key, now));
}

/**
 * The user of the request's login token. As Strapi: no end user is a 403 (the Public role's
 * answer), and a bearer value that is neither a login token nor an API token a 401.
 */
export async function endUserOf(ctx: Context, engine: WriteEngine, users: EndUsers): Promise<StoredUser> {
  ctx.vary('Authorization');
  const token = bearerOf(ctx);
  if (token !== null && looksLikeJwt(token)) return (await users.userOfToken(token)).user;
  if (token !== null && !engine.rules().tokens.verify(token, engine.now())) throw new UnauthorizedError();
  throw new ForbiddenError();
}

/**
 * For the routes Strapi's default permissions give the Public role alone (login, registration,
 * forgot and reset password, email confirmation): a logged-in user is a 403, as Strapi's Authenticated role is
 * answered, and a bearer value that is no valid credential a 401. An API token passes.
 */
export async function refuseEndUsers(ctx: Context, engine: WriteEngine, users: EndUsers): Promise<void> {
  const token = bearerOf(ctx);
  if (token === null) return;
  if (looksLikeJwt(token)) {
    await users.userOfToken(token);
    throw new ForbiddenError();
  }
  if (!engine.rules().tokens.verify(token, engine.now())) throw new UnauthorizedError();
}

/** An end-user answer: never stored by a cache. */
export function answer(ctx: Context, body: unknown): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}
