/**
 * Who is asking, from plain credentials: an end user's login token or an API token (a bearer
 * value), else the role the host resolved or its user's role, else `public`. A bearer value that
 * is neither is a 401. The doors read the credentials off their transport (http/caller.ts); the
 * core sees only the resulting caller.
 */
import { UnauthorizedError } from '../errors.js';
import type { TokenVerifier } from './tokens.js';

export const PUBLIC_ROLE = 'public';

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
   * API token, `user:<id>` for an end user, else `address:<ip>` (behind a proxy, the client's
   * only when the app trusts the proxy: `app.proxy`).
   */
  readonly key: string;
}

/** What a login token says of its caller; the caller's key is added from the credentials. */
export type TokenCaller = Omit<Caller, 'key'>;

/** The caller of a login token, or null when the value is not one (it may be an API token). */
export type LoginTokenReader = (token: string) => Promise<TokenCaller | null>;

/** What a request presents. */
export interface Credentials {
  /** The bearer value of `Authorization: Bearer …`, or null. */
  readonly bearer: string | null;
  /** The user the host set on the request (`ctx.state.user`), if any. */
  readonly hostUser: unknown;
  /** The role the host's resolver gives the request, asked only without a bearer value (absent: the host user's role). */
  readonly hostRole?: () => Promise<string | null | undefined> | string | null | undefined;
  /** The client's address. */
  readonly address: string;
  /** Reads end users' login tokens, where the `users` option is on. */
  readonly loginTokens?: LoginTokenReader;
}

const NO_CLAIMS: Readonly<Record<string, unknown>> = Object.freeze({});

export async function callerFrom(credentials: Credentials, tokens: TokenVerifier, now: number): Promise<Caller> {
  const { bearer, address } = credentials;
  if (bearer !== null) {
    const endUser = await credentials.loginTokens?.(bearer);
    if (endUser) return { ...endUser, key: callerKey(address, endUser.user) };
    const record = tokens.verify(bearer, now);
    if (!record) throw new UnauthorizedError();
    return { role: record.role, identified: true, user: null, claims: record.claims ?? NO_CLAIMS, key: callerKey(address, null, record.name) };
  }
  const user = userOf(credentials.hostUser);
  const resolved = credentials.hostRole ? await credentials.hostRole() : roleOfUser(user);
  const key = callerKey(address, user);
  return resolved ? { role: resolved, identified: true, user, claims: NO_CLAIMS, key } : { role: PUBLIC_ROLE, identified: false, user: null, claims: NO_CLAIMS, key };
}

/** Caller.key: the API token's name, else the end user's id, else the client's address. */
function callerKey(address: string, user: Readonly<Record<string, unknown>> | null, tokenName?: string): string {
  if (tokenName !== undefined) return `token:${tokenName}`;
  const id = user?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? `user:${id}` : `address:${address}`;
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
