/**
 * The caller of a Koa request (access/caller.ts decides from its credentials): the bearer value of
 * `Authorization`, the host's `ctx.state.user` or `resolveRole(ctx)`, the client's address, and the
 * end users' login tokens where the `users` option put its reader on the request. Other
 * authorization schemes are left to the host and read as anonymous.
 */
import type { Context } from 'koa';
import { callerFrom, type Caller, type LoginTokenReader } from '../access/caller.js';
import type { TokenVerifier } from '../access/tokens.js';

export type RoleResolver = (ctx: Context) => string | null | undefined | Promise<string | null | undefined>;

const loginTokenReaders = new WeakMap<Context, LoginTokenReader>();

/** Lets `resolveCaller` accept the end users' login tokens on this request (the `users` option). */
export function readLoginTokens(ctx: Context, reader: LoginTokenReader): void {
  loginTokenReaders.set(ctx, reader);
}

export function resolveCaller(ctx: Context, tokens: TokenVerifier, resolver: RoleResolver | undefined, now: number): Promise<Caller> {
  const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'));
  const reader = loginTokenReaders.get(ctx);
  return callerFrom(
    {
      bearer: bearer ? bearer[1].trim() : null,
      hostUser: ctx.state?.user,
      ...(resolver ? { hostRole: () => resolver(ctx) } : {}),
      address: ctx.ip,
      ...(reader ? { loginTokens: reader } : {}),
    },
    tokens,
    now,
  );
}

export async function resolveRole(ctx: Context, tokens: TokenVerifier, resolver: RoleResolver | undefined, now: number): Promise<string> {
  return (await resolveCaller(ctx, tokens, resolver, now)).role;
}
