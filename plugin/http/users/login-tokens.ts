/**
 * End users' login tokens on a request of any door: `resolveCaller` then reads a bearer JWT as
 * its end user (access/caller.ts), where the `users` option is on.
 */
import type { Context } from 'koa';
import { readLoginTokens } from '../caller.js';
import type { EndUsers } from '../../auth/end-users.js';
import { looksLikeJwt } from '../../auth/jwt.js';

export function acceptLoginTokens(ctx: Context, users: EndUsers): void {
  readLoginTokens(ctx, (token) => (looksLikeJwt(token) ? users.callerOf(token) : Promise.resolve(null)));
}
