/**
 * What the end-user suites share: the recorded cases of test/auth/recorded (see its README), the
 * permissions that match the recorded database's (the fixture's Public role, and the Authenticated
 * role given `find` on restaurants), and an API with the `users` option over a fresh copy of it.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { verifyToken } from '../../plugin/auth/jwt.js';
import type { UsersOptions } from '../../plugin/auth/options.js';
import type { ContentApiOptions } from '../../plugin/index.js';
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { readGroupedCases, readGroupedIndex } from '../support/grouped-cases.js';

export const RECORDED_DIR = join(repoRoot, 'test', 'auth', 'recorded');

/** The fixture's Public permissions, and the Authenticated role as the recording set it up. */
export const AUTH_PERMISSIONS = `
roles:
  public:
    article: [find, findOne]
    category: [find, findOne]
    restaurant: [findOne]
    file: [find, findOne]
    user: [find, findOne]
  authenticated:
    restaurant: [find]
`;

export interface Settings {
  readonly register: boolean;
  readonly emailConfirmation: boolean;
}

export interface RecordedCase {
  readonly seq: number;
  readonly group: string;
  readonly name: string;
  readonly settings: Settings;
  /** The address it was sent from: the replay sends it as X-Forwarded-For. */
  readonly address: string;
  readonly request: {
    readonly method: 'GET' | 'POST';
    readonly path: string;
    readonly body?: unknown;
    readonly headers?: Readonly<Record<string, string>>;
    /** The answer's jwt of an earlier case (`from`), one signed by the plugin for user `id`, or a token as it is. */
    readonly bearer?: { readonly from?: string; readonly signedBy?: 'plugin'; readonly id?: number; readonly token?: string };
  };
  readonly save?: string;
  readonly status: number;
  readonly response: unknown;
}

/** Every recorded case in `seq` order. */
export function recordedCases(): RecordedCase[] {
  return readGroupedCases<RecordedCase>(RECORDED_DIR);
}

export const JWT_SECRET = readGroupedIndex(RECORDED_DIR).jwtSecret;

/** The `users` option that behaves as the reference did with `settings` in its store. */
export function usersOption(settings: Settings, more: Partial<UsersOptions> = {}): UsersOptions {
  return { jwtSecret: JWT_SECRET, register: settings.register, emailConfirmation: settings.emailConfirmation, ...more };
}

/** The API over `fixture` with end users on; trusts X-Forwarded-For, so a test picks its address. */
export async function serveUsers(fixture: FreshFixture, users: UsersOptions, options: Partial<ContentApiOptions> = {}): Promise<ServedApi> {
  const served = await serveApi({ root: fixture.root, database: fixture.url, sync: false, watchPermissions: false, sqliteReadWorkers: 0, users, ...options });
  served.app.proxy = true;
  return served;
}

export function authFixture(client: DatabaseClient): Promise<FreshFixture> {
  return freshFixture(client, AUTH_PERMISSIONS);
}

function decodePart(token: string, part: number): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[part], 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * Checks a token the plugin issued against one the reference issued for the same login: the same
 * header bytes, the claims `id, iat, exp` in that order, the same id and lifetime, issued close to
 * now, and signed with the secret. The strings differ only by `iat`/`exp` (the clock) and so the signature.
 */
export function expectSameKindOfToken(actual: unknown, recorded: string, now: number, secret = JWT_SECRET): void {
  expect(actual, 'jwt').to.be.a('string');
  const token = actual as string;
  expect(token.split('.')[0], 'JWT header').to.equal(recorded.split('.')[0]);
  const claims = decodePart(token, 1);
  const expected = decodePart(recorded, 1);
  expect(Object.keys(claims), 'JWT claims').to.deep.equal(['id', 'iat', 'exp']);
  expect(claims.id, 'JWT id').to.equal(expected.id);
  expect((claims.exp as number) - (claims.iat as number), 'JWT lifetime').to.equal((expected.exp as number) - (expected.iat as number));
  expect(Math.abs((claims.iat as number) - Math.floor(now / 1000)), 'JWT issued now').to.be.at.most(60);
  expect(verifyToken(token, secret, now), 'JWT signed with the secret').to.not.equal(null);
}

/** Password-like keys no answer about a user may hold, at any depth. */
export const SECRET_KEYS = ['password', 'resetPasswordToken', 'confirmationToken', 'reset_password_token', 'confirmation_token'];

export function secretKeysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(secretKeysIn);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [...(SECRET_KEYS.includes(key) ? [key] : []), ...secretKeysIn(item)]);
  }
  return [];
}
