/**
 * Where the OAuth dance keeps its state between the redirect to the provider and its return: a
 * cookie signed with a key derived from the login tokens' secret (HMAC-SHA256), so a caller can
 * neither read a state into another's session nor forge one. It holds no credential.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const GRANT_COOKIE = 'content-api-grant';

function keyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('third-party login session').digest();
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** The cookie's value for `session`. */
export function sealSession(secret: string, session: object): string {
  const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
  return `${payload}.${sign(keyOf(secret), payload)}`;
}

/** The session a cookie holds; an empty one when it is missing, altered or unreadable. */
export function openSession(secret: string, value: string | undefined): Record<string, unknown> {
  const [payload, signature, ...rest] = (value ?? '').split('.');
  if (!payload || !signature || rest.length) return {};
  const expected = Buffer.from(sign(keyOf(secret), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return {};
  try {
    const session: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return session && typeof session === 'object' && !Array.isArray(session) ? (session as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
