/**
 * Who is asking: an end user's login token or an API token (`Authorization: Bearer …`), else the
 * role the host app resolved (`resolveRole(ctx)` or `ctx.state.user.role`), else `public`. A
 * bearer value that is neither is a 401; other authorization schemes are left to the host and
 * read as anonymous. Login tokens are read only where the `users` option put its reader on the
 * request (http/users/login-tokens.ts).
 */
import type { Context } from 'koa';
import { UnauthorizedError } from '../errors.js';
import type { TokenVerifier } from './tokens.js';

export type RoleResolver = (ctx: Context) => string | null | undefined | Promise<string | null | undefined>;

export const PUBLIC_ROLE = 'public';

export async function resolveRole(ctx: Context, tokens: TokenVerifier, resolver: RoleResolver | undefined, now: number): Promise<string> {
  return (await resolveCaller(ctx, tokens, resolver, now)).role;
}

export interface Caller {
  readonly role: string;
  /** The role came from a token or from the host, not the anonymous fallback: its answers are private to it. */
  readonly identified: boolean;
  /**
   * The end user, when one is known (`ctx.state.user` set by the host, or the user of a login
   * token): the values `$user.<field>` of row rules read.
   */
  readonly user: Readonly<Record<string, unknown>> | null;
  /** Claims of the credentials presented (`$claims.<name>` in row rules); empty when none. */
  readonly claims: Readonly<Record<string, unknown>>;
  /**
   * Who this is, for sharing the heavy statement slots (sql/admission.ts): `token:<name>` for an
   * API token, `user:<id>` for an end user, else `address:<ctx.ip>` (behind a proxy, the client's
   * only when the app trusts the proxy: `app.proxy`).
   */
  readonly key: string;
}

/** What a login token says of its caller; resolveCaller adds the key. */
export type TokenCaller = Omit<Caller, 'key'>;

const NO_CLAIMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The caller of a login token, or null when the value is not one (it may be an API token). */
export type LoginTokenReader = (token: string) => Promise<TokenCaller | null>;

const loginTokenReaders = new WeakMap<Context, LoginTokenReader>();

/** Lets `resolveCaller` accept the end users' login tokens on this request (the `users` option). */
export function readLoginTokens(ctx: Context, reader: LoginTokenReader): void {
  loginTokenReaders.set(ctx, reader);
}

export async function resolveCaller(ctx: Context, tokens: TokenVerifier, resolver: RoleResolver | undefined, now: number): Promise<Caller> {
  const header = ctx.get('authorization');
  const bearer = /^Bearer\s+(.+)$/i.exec(header);
  if (bearer) {
    const endUser = await loginTokenReaders.get(ctx)?.(bearer[1].trim());
    if (endUser) return { ...endUser, key: callerKey(ctx, endUser.user) };
    const record = tokens.verify(bearer[1].trim(), now);
    if (!record) throw new UnauthorizedError();
    return { role: record.role, identified: true, user: null, claims: record.claims ?? NO_CLAIMS, key: callerKey(ctx, null, record.name) };
  }
  const user = userOf(ctx.state?.user);
  const resolved = resolver ? await resolver(ctx) : roleOfUser(user);
  const key = callerKey(ctx, user);
  return resolved ? { role: resolved, identified: true, user, claims: NO_CLAIMS, key } : { role: PUBLIC_ROLE, identified: false, user: null, claims: NO_CLAIMS, key };
}

/** Caller.key: the API token's name, else the end user's id, else the client's address. */
function callerKey(ctx: Context, user: Readonly<Record<string, unknown>> | null, tokenName?: string): string {
  if (tokenName !== undefined) return `token:${tokenName}`;
  const id = user?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? `user:${id}` : `address:${ctx.ip}`;
}

function userOf(user: unknown): Readonly<Record<string, unknown>> | null {
  return user && typeof user === 'object' && !Array.isArray(user) ? (user as Record<string, unknown>) : null;
}

/** `ctx.state.user.role` as a name, or as an object with a `type` or `name` (users-permissions style). */
function roleOfUser(user: unknown): string | null {
  if (!user || typeof user !== 'object') return null;
  const role = (user as { role?: unknown }).role;
  if (typeof role === 'string') return role;
  if (role && typeof role === 'object') {
    const { type, name } = role as { type?: unknown; name?: unknown };
    if (typeof type === 'string') return type;
    if (typeof name === 'string') return name;
  }
  return null;
}
