/**
 * API tokens: random secrets handed out once; permissions.yaml keeps only a salted SHA-256 hash
 * (`sha256:<salt>:<digest>`). Tokens carry 256 bits of entropy, so a fast hash is enough.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface TokenRecord {
  readonly name: string;
  readonly role: string;
  readonly hash: string;
  /** Epoch milliseconds after which the token is refused; null: never. */
  readonly expiresAt: number | null;
  /** Values row rules read as `$claims.<name>` for requests with this token. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

const HASH_FORMAT = /^sha256:([A-Za-z0-9_-]{16,}):([0-9a-f]{64})$/;

export function isTokenHash(value: string): boolean {
  return HASH_FORMAT.test(value);
}

/** A new token and the hash to store for it. */
export function createToken(): { token: string; hash: string } {
  const token = `cat_${randomBytes(32).toString('base64url')}`;
  return { token, hash: tokenHash(token, randomBytes(16).toString('base64url')) };
}

/**
 * The hash to store for `token` with `salt` (at least 16 URL-safe characters): the
 * `sha256:<salt>:<digest>` string {@link tokenMatches} accepts. Exported so a test or a host can
 * write a permissions file for a token it already knows.
 */
export function tokenHash(token: string, salt: string): string {
  const hash = `sha256:${salt}:${digest(salt, token)}`;
  if (!isTokenHash(hash)) throw new Error('a token salt is at least 16 URL-safe characters (A-Z a-z 0-9 _ -)');
  return hash;
}

function digest(salt: string, token: string): string {
  return createHash('sha256').update(salt).update(':').update(token).digest('hex');
}

export function tokenMatches(hash: string, token: string): boolean {
  const match = HASH_FORMAT.exec(hash);
  if (!match) return false;
  const expected = Buffer.from(match[2], 'hex');
  const actual = Buffer.from(digest(match[1], token), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Finds the record of a presented token. Successful lookups are remembered (a bounded map), so
 * a client's steady stream of requests costs one hash per token record once.
 */
export class TokenVerifier {
  private readonly records: readonly TokenRecord[];
  private readonly known = new Map<string, TokenRecord>();

  constructor(records: readonly TokenRecord[]) {
    this.records = records;
  }

  /** The token's record, or null when no record matches or it has expired. */
  verify(token: string, now: number): TokenRecord | null {
    let record = this.known.get(token);
    if (!record) {
      record = this.records.find((candidate) => tokenMatches(candidate.hash, token));
      if (!record) return null;
      if (this.known.size >= 1000) this.known.clear();
      this.known.set(token, record);
    }
    return record.expiresAt !== null && record.expiresAt <= now ? null : record;
  }
}
