/**
 * The login tokens of Strapi v4's users-permissions plugin: JWTs signed with HS256 and the
 * configured secret, payload `{ id, iat, exp }` (seconds), as `jsonwebtoken` writes them. So a
 * token issued by Strapi is accepted here and the reverse, for the same secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header `jsonwebtoken` writes for HS256, byte for byte. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** Strapi's default lifetime of a login token. */
export const DEFAULT_JWT_EXPIRES_IN = '30d';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_557_600_000 };
/** `ms`'s grammar (what `jsonwebtoken` reads `expiresIn` with): `30d`, `12h`, `2.5 hrs`, `1y`; a bare number is milliseconds. */
const TIMESPAN = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i;

function unitOf(word: string): number {
  const lower = word.toLowerCase();
  if (lower.startsWith('ms') || lower.startsWith('milli') || lower.startsWith('msec')) return UNIT_MS.ms;
  return UNIT_MS[lower[0]];
}

/**
 * The lifetime in seconds of `expiresIn`: a number of seconds, or a timespan string as Strapi's
 * `jwt.expiresIn` takes it (`'30d'`). Throws on anything else, at start.
 */
export function expiresInSeconds(expiresIn: string | number, option = 'users.jwtExpiresIn'): number {
  if (typeof expiresIn === 'number') {
    if (!Number.isInteger(expiresIn) || expiresIn <= 0) throw new Error(`${option}: ${expiresIn} is not a whole positive number of seconds`);
    return expiresIn;
  }
  const match = TIMESPAN.exec(expiresIn.trim());
  const milliseconds = match ? parseFloat(match[1]) * unitOf(match[2] ?? 'ms') : NaN;
  if (!(milliseconds > 0)) throw new Error(`${option}: "${expiresIn}" is not a timespan such as 30d, 12h or 3600 (seconds, as a number)`);
  return milliseconds / 1000;
}

function signature(secret: string, signed: string): Buffer {
  return createHmac('sha256', secret).update(signed).digest();
}

/** A token for user `id`, issued at `now` (epoch ms), as Strapi's `jwt.issue({ id })` makes it. */
export function signUserToken(id: number, secret: string, lifetimeSeconds: number, now: number): string {
  const iat = Math.floor(now / 1000);
  // As jsonwebtoken rounds a timespan's end: down to the second.
  const payload = Buffer.from(JSON.stringify({ id, iat, exp: Math.floor(iat + lifetimeSeconds) })).toString('base64url');
  const signed = `${HEADER}.${payload}`;
  return `${signed}.${signature(secret, signed).toString('base64url')}`;
}

/** Whether `value` is shaped like a JWT (three base64url parts): never an API token, which has no dot. */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
}

function decodePart(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The payload of a token signed with `secret` and in force at `now` (epoch ms), or null: a bad
 * signature, another algorithm than HS256, an `exp` passed or an `nbf` to come, as
 * `jsonwebtoken.verify` refuses them. The signature is compared in constant time.
 */
export function verifyToken(token: string, secret: string, now: number): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = decodePart(headerPart);
  if (header?.alg !== 'HS256') return null;
  const expected = signature(secret, `${headerPart}.${payloadPart}`);
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = decodePart(payloadPart);
  if (!payload) return null;
  const clock = Math.floor(now / 1000);
  if (payload.exp !== undefined && (typeof payload.exp !== 'number' || clock >= payload.exp)) return null;
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > clock)) return null;
  return payload;
}
