#!/usr/bin/env node
// Records how the reference, Strapi 4.26.2 with its users-permissions plugin, answers the end-user
// routes (login, register, /users/me) and content routes called with a login token: the
// expectations of test/auth/replay.test.ts. Run by hand, never by `npm test`, after a build (one
// case sends a token the plugin signed, to show the reference accepts it):
//
//   npx tsc -p tsconfig.json && node test/auth/record.mjs [--port 4700] [--out test/auth/recorded]
//
// The run serves a fresh copy of the small conformance fixture (users user01…user08, passwords
// `Password-<n>!`; user04 and user08 unconfirmed, user08 blocked) with JWT_SECRET set to
// AUTH_JWT_SECRET, after giving the Authenticated role `find` on restaurants (the Public role has
// only `findOne` there), so a login token visibly reads as that role. The advanced settings
// (allow_register, email_confirmation) are written into the store before each case, as a case
// asks; Strapi reads them at every request. Every case is sent from its own loopback address
// (127.0.0.N), since Strapi's rate limiter counts per address; the rate-limit cases share one.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopReference, waitUntilServing, watchReference } from '../support/reference-process.mjs';
import { LASTING, normalizeRunDates, sendFrom, signedToken, writeGroupedRecordings } from '../support/reference-requests.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const shared = process.env.SHARED_DIR ?? resolve(repo, '..', 'shared');
const fixture = join(shared, 'conformance', 'db', 'strapi-small.db');
const serveScript = join(shared, 'oracle', 'serve.sh');

/** The secret the reference signs login tokens with during the recording. */
export const AUTH_JWT_SECRET = 'auth-recording-secret';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4700'));
const out = resolve(option('out', join(here, 'recorded')));

const require = createRequire(join(repo, 'package.json'));
const Database = require('better-sqlite3');

const signed = (payload, secret = AUTH_JWT_SECRET) => signedToken(payload, secret);

const login = (identifier, password) => ({ method: 'POST', path: '/api/auth/local', body: { identifier, password } });
const register = (body) => ({ method: 'POST', path: '/api/auth/local/register', body });
const me = (bearer, query = '') => ({ method: 'GET', path: `/api/users/me${query}`, bearer });

const OFF = { register: false, emailConfirmation: false };
const OPEN = { register: true, emailConfirmation: false };
const CONFIRMING = { register: true, emailConfirmation: true };

/** The cases, in order; `save` keeps the answer's jwt for a later `bearer: { from }`. */
const groups = [
  {
    group: 'login',
    cases: [
      { name: 'logs in by username', ...login('user01', 'Password-1!'), save: 'user01', settings: OFF },
      { name: 'logs in by email, any case', ...login('USER02@Example.com', 'Password-2!'), save: 'user02', settings: OFF },
      { name: 'wrong password', ...login('user01', 'wrong-password'), settings: OFF },
      { name: 'unknown identifier', ...login('nobody', 'Password-1!'), settings: OFF },
      { name: 'username is case-sensitive', ...login('USER01', 'Password-1!'), settings: OFF },
      { name: 'missing password', method: 'POST', path: '/api/auth/local', body: { identifier: 'user01' }, settings: OFF },
      { name: 'missing identifier', method: 'POST', path: '/api/auth/local', body: { password: 'Password-1!' }, settings: OFF },
      { name: 'empty body', method: 'POST', path: '/api/auth/local', body: {}, settings: OFF },
      { name: 'empty password', ...login('user01', ''), settings: OFF },
      { name: 'identifier not a string', ...login(['user01'], 'Password-1!'), settings: OFF },
      { name: 'identifier a number', ...login(1, 'Password-1!'), settings: OFF },
      { name: 'identifier null', ...login(null, 'Password-1!'), settings: OFF },
      { name: 'password a number', ...login('user01', 123456), settings: OFF },
      { name: 'body a list', method: 'POST', path: '/api/auth/local', body: ['user01', 'Password-1!'], settings: OFF },
      { name: 'unconfirmed user, confirmation off', ...login('user04', 'Password-4!'), settings: OFF },
      { name: 'blocked user', ...login('user08', 'Password-8!'), settings: OFF },
      { name: 'blocked user, wrong password', ...login('user08', 'wrong-password'), settings: OFF },
      { name: 'unconfirmed user, confirmation on', ...login('user04', 'Password-4!'), settings: CONFIRMING },
      { name: 'unconfirmed user, confirmation on, wrong password', ...login('user04', 'wrong-password'), settings: CONFIRMING },
      { name: 'blocked and unconfirmed user, confirmation on', ...login('user08', 'Password-8!'), settings: CONFIRMING },
      { name: 'confirmed user, confirmation on', ...login('user03', 'Password-3!'), settings: CONFIRMING },
    ],
  },
  {
    group: 'register',
    cases: [
      { name: 'register off', ...register({ username: 'newcomer', email: 'newcomer@example.com', password: 'Password-new!' }), settings: OFF },
      {
        name: 'registers with the default role',
        ...register({ username: 'newcomer', email: 'Newcomer@Example.com', password: 'Password-new!' }),
        save: 'newcomer',
        settings: OPEN,
      },
      { name: 'the new user logs in', ...login('newcomer@example.com', 'Password-new!'), settings: OPEN },
      { name: 'duplicate username', ...register({ username: 'newcomer', email: 'other@example.com', password: 'Password-new!' }), settings: OPEN },
      { name: 'duplicate email, other case', ...register({ username: 'other', email: 'USER03@example.com', password: 'Password-new!' }), settings: OPEN },
      { name: 'username equal to an email', ...register({ username: 'user05@example.com', email: 'fresh@example.com', password: 'Password-new!' }), settings: OPEN },
      { name: 'invalid email', ...register({ username: 'bademail', email: 'not-an-email', password: 'Password-new!' }), settings: OPEN },
      { name: 'short password', ...register({ username: 'shortpass', email: 'shortpass@example.com', password: 'abc' }), settings: OPEN },
      { name: 'short username', ...register({ username: 'ab', email: 'shortname@example.com', password: 'Password-new!' }), settings: OPEN },
      { name: 'missing fields', ...register({}), settings: OPEN },
      { name: 'missing password', ...register({ username: 'nopass', email: 'nopass@example.com' }), settings: OPEN },
      {
        name: 'privileged fields are ignored',
        ...register({ username: 'climber', email: 'climber@example.com', password: 'Password-new!', confirmed: false, blocked: true, role: 2, provider: 'github' }),
        save: 'climber',
        settings: OPEN,
      },
      { name: 'the climber is neither blocked nor another role', ...me({ from: 'climber' }, '?populate=role'), settings: OPEN },
    ],
  },
  {
    group: 'me',
    cases: [
      { name: 'me with a login token', ...me({ from: 'user01' }), settings: OFF },
      { name: 'me with the token of a registered user', ...me({ from: 'newcomer' }), settings: OFF },
      { name: 'me with role populated', ...me({ from: 'user02' }, '?populate=role'), settings: OFF },
      { name: 'me without a token', ...me(undefined), settings: OFF },
      { name: 'me with a malformed token', ...me({ token: 'not-a-token' }), settings: OFF },
      { name: 'me with a token of another secret', ...me({ token: signed({ id: 1, ...LASTING }, 'another-secret') }), settings: OFF },
      { name: 'me with an expired token', ...me({ token: signed({ id: 1, iat: 1704067200, exp: 1704153600 }) }), settings: OFF },
      { name: 'me with a token of no user', ...me({ token: signed({ id: 9999, ...LASTING }) }), settings: OFF },
      { name: 'me with a token without id', ...me({ token: signed({ sub: 1, ...LASTING }) }), settings: OFF },
      { name: 'me with a token of a blocked user', ...me({ token: signed({ id: 8, ...LASTING }) }), settings: OFF },
      { name: 'me with a token of an unconfirmed user, confirmation off', ...me({ token: signed({ id: 4, ...LASTING }) }), settings: OFF },
      { name: 'me with a token of an unconfirmed user, confirmation on', ...me({ token: signed({ id: 4, ...LASTING }) }), settings: CONFIRMING },
      { name: 'me with a token the plugin signed', ...me({ signedBy: 'plugin', id: 3 }), settings: OFF },
      { name: 'me with a Basic authorization', method: 'GET', path: '/api/users/me', headers: { Authorization: 'Basic dXNlcjAxOlBhc3N3b3JkLTEh' }, settings: OFF },
    ],
  },
  {
    group: 'content',
    cases: [
      { name: 'a login token reads as its role: restaurants', method: 'GET', path: '/api/restaurants?fields[0]=name&sort=id&pagination[pageSize]=2', bearer: { from: 'user01' }, settings: OFF },
      { name: 'the public role may not list restaurants', method: 'GET', path: '/api/restaurants?fields[0]=name&sort=id&pagination[pageSize]=2', settings: OFF },
      { name: 'a login token reads as its role, not public: articles', method: 'GET', path: '/api/articles?fields[0]=title&sort=id&pagination[pageSize]=2', bearer: { from: 'user01' }, settings: OFF },
      { name: 'the public role lists articles', method: 'GET', path: '/api/articles?fields[0]=title&sort=id&pagination[pageSize]=2', settings: OFF },
      { name: 'a bad token on a public route', method: 'GET', path: '/api/articles?fields[0]=title&sort=id&pagination[pageSize]=2', bearer: { token: signed({ id: 1, ...LASTING }, 'another-secret') }, settings: OFF },
      { name: 'a blocked user on a content route', method: 'GET', path: '/api/restaurants?fields[0]=name&sort=id&pagination[pageSize]=2', bearer: { token: signed({ id: 8, ...LASTING }) }, settings: OFF },
    ],
  },
  {
    group: 'rate-limit',
    note: 'One address for the first 12 cases: Strapi allows 10 requests a minute per address and path.',
    cases: [
      // Five identifiers, two failures each: only the address is counted past its allowance.
      ...Array.from({ length: 10 }, (_, index) => ({ name: `failed login ${index + 1} of 10 allowed`, ...login(`user0${(index % 5) + 1}`, 'wrong-password'), settings: OFF, address: '127.0.0.250' })),
      { name: 'the 11th login from the address is refused', ...login('user05', 'wrong-password'), settings: OFF, address: '127.0.0.250' },
      { name: 'even with the right password', ...login('user05', 'Password-5!'), settings: OFF, address: '127.0.0.250' },
      { name: 'another address still logs in', ...login('user05', 'Password-5!'), settings: OFF, address: '127.0.0.251' },
    ],
  },
];

function prepareDatabase(dir) {
  const db = join(dir, 'strapi-small.db');
  copyFileSync(fixture, db);
  const sqlite = new Database(db);
  const at = Date.parse('2024-01-01T08:00:00Z');
  const role = sqlite.prepare("SELECT id FROM up_roles WHERE type = 'authenticated'").get().id;
  const permission = sqlite.prepare('INSERT INTO up_permissions (action, created_at, updated_at) VALUES (?, ?, ?)').run('api::restaurant.restaurant.find', at, at).lastInsertRowid;
  sqlite.prepare('INSERT INTO up_permissions_role_links (permission_id, role_id, permission_order) VALUES (?, ?, ?)').run(permission, role, 100);
  sqlite.close();
  return db;
}

/** Writes allow_register and email_confirmation into the store of the database the reference serves. */
function applySettings(db, settings) {
  const sqlite = new Database(db);
  const key = 'plugin_users-permissions_advanced';
  const current = JSON.parse(sqlite.prepare('SELECT value FROM strapi_core_store_settings WHERE key = ?').get(key).value);
  const next = { ...current, allow_register: settings.register, email_confirmation: settings.emailConfirmation };
  sqlite.prepare('UPDATE strapi_core_store_settings SET value = ? WHERE key = ?').run(JSON.stringify(next), key);
  sqlite.close();
}

function serve(db, dir) {
  const child = spawn('bash', [serveScript, String(port), db], {
    env: { ...process.env, SHADOW_DIR: join(dir, 'shadow'), JWT_SECRET: AUTH_JWT_SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchReference(child);
}

/** Sends from `localAddress`, which is the address Strapi's rate limiter counts. */
const send = (localAddress, request) => sendFrom(port, localAddress, request);

async function pluginSignedToken(id) {
  const jwt = await import(pathToFileURL(join(repo, 'dist', 'plugin', 'auth', 'jwt.js')).href);
  return jwt.signUserToken(id, AUTH_JWT_SECRET, jwt.expiresInSeconds(jwt.DEFAULT_JWT_EXPIRES_IN), Date.now());
}

async function authorization(bearer, saved) {
  if (!bearer) return undefined;
  if (bearer.from) return `Bearer ${saved[bearer.from]}`;
  if (bearer.signedBy === 'plugin') return `Bearer ${await pluginSignedToken(bearer.id)}`;
  return `Bearer ${bearer.token}`;
}

async function runCases(db, runStartedAt) {
  const saved = {};
  const recorded = [];
  let seq = 0;
  for (const { group, note, cases: groupCases } of groups) {
    const cases = [];
    for (const testCase of groupCases) {
      seq += 1;
      applySettings(db, testCase.settings);
      const address = testCase.address ?? `127.0.0.${seq + 1}`;
      const header = await authorization(testCase.bearer, saved);
      const headers = { ...(testCase.headers ?? {}), ...(header ? { Authorization: header } : {}) };
      const request = { method: testCase.method, path: testCase.path, ...(testCase.body !== undefined ? { body: testCase.body } : {}) };
      if (testCase.headers) request.headers = testCase.headers;
      if (testCase.bearer) request.bearer = testCase.bearer.from || testCase.bearer.signedBy ? testCase.bearer : { token: testCase.bearer.token };
      const result = await send(address, { ...request, headers });
      if (testCase.save) saved[testCase.save] = result.response?.jwt;
      const entry = { seq, name: testCase.name, settings: testCase.settings, address, request, status: result.status, response: result.response };
      if (testCase.save) entry.save = testCase.save;
      if (result.responseText !== undefined) entry.responseText = result.responseText;
      cases.push(normalizeRunDates(entry, runStartedAt));
      console.log(`${String(seq).padStart(3)} ${group.padEnd(11)} ${result.status} ${testCase.name}`);
    }
    recorded.push({ group, ...(note ? { note } : {}), cases });
  }
  return recorded;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'record-auth-'));
  const db = prepareDatabase(dir);
  const child = serve(db, dir);
  // serve.sh copies the database into the shadow app: the settings are written to that copy.
  const served = join(dir, 'shadow', '.tmp', 'data.db');
  try {
    await waitUntilServing(child, `http://127.0.0.1:${port}/_health`, (response) => response.status === 204);
    const runStartedAt = Date.now();
    const recorded = await runCases(served, runStartedAt);
    writeGroupedRecordings(out, recorded, {
      reference: 'Strapi 4.26.2, users-permissions 4.26.2',
      fixture: 'conformance/db/strapi-small.db, Authenticated role given find on restaurants',
      jwtSecret: AUTH_JWT_SECRET,
      recordedAt: new Date(runStartedAt).toISOString(),
    });
  } finally {
    await stopReference(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
