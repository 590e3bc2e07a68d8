#!/usr/bin/env node
// Records how the reference, Strapi 4.26.2, answers the write cases of cases.source.mjs, as the
// expectations the plugin's write replay compares against. Run by hand, never by `npm test`:
//
//   node test/writes/record.mjs [--port 4502] [--out test/writes/recorded] [--keep]
//
// Every run starts from a fresh copy of the small conformance fixture with a full-access API token
// (and a restricted one) inserted, serves it with the reference (../shared/oracle/serve.sh; install.sh first), sends the
// cases in order and writes <out>/<group>.json plus <out>/index.json. Ids are kept exact: the
// replay sends the same requests in the same order to a fresh copy, so it is assigned the same ids.
// Timestamps the run itself produced are replaced by "<now>" (see recorded/README.md).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groups, readBackQuery } from './cases.source.mjs';
import { sendToReference, stopReference, waitUntilServing, watchReference } from '../support/reference-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const shared = process.env.SHARED_DIR ?? resolve(repo, '..', 'shared');
const fixture = join(shared, 'conformance', 'db', 'strapi-small.db');
const serveScript = join(shared, 'oracle', 'serve.sh');

/** The token every case sends unless it says `token: "none"`; the app's salt is fixed. */
export const WRITER_TOKEN = 'writer-token';
/** A custom token with a few read and create permissions (insertRestrictedToken). */
export const RESTRICTED_TOKEN = 'restricted-token';
const API_TOKEN_SALT = 'oracle-api-token-salt';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4502'));
const out = resolve(option('out', join(here, 'recorded')));
const base = `http://127.0.0.1:${port}`;

/** A fresh copy of the small fixture holding one full-access token named `writer`. */
function prepareDatabase(dir) {
  const db = join(dir, 'strapi-small.db');
  copyFileSync(fixture, db);
  const require = createRequire(join(repo, 'package.json'));
  const Database = require('better-sqlite3');
  const sqlite = new Database(db);
  const accessKey = createHmac('sha512', API_TOKEN_SALT).update(WRITER_TOKEN).digest('hex');
  // Fixed timestamps, so nothing of the token depends on the clock.
  const at = Date.parse('2024-01-01T08:00:00Z');
  sqlite
    .prepare(`INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at)
              VALUES ('writer', '', 'full-access', ?, ?, ?)`)
    .run(accessKey, at, at);
  insertRestrictedToken(sqlite, at);
  sqlite.close();
  return db;
}

/**
 * A custom token that may create and read articles and find categories, nothing else: the cases
 * that relate to types a role may not read send it.
 */
function insertRestrictedToken(sqlite, at) {
  const accessKey = createHmac('sha512', API_TOKEN_SALT).update(RESTRICTED_TOKEN).digest('hex');
  const token = sqlite
    .prepare(`INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at)
              VALUES ('restricted', '', 'custom', ?, ?, ?)`)
    .run(accessKey, at, at).lastInsertRowid;
  const actions = ['api::article.article.create', 'api::article.article.find', 'api::article.article.findOne', 'api::category.category.find'];
  for (const [order, action] of actions.entries()) {
    const permission = sqlite
      .prepare('INSERT INTO strapi_api_token_permissions (action, created_at, updated_at) VALUES (?, ?, ?)')
      .run(action, at, at).lastInsertRowid;
    sqlite
      .prepare('INSERT INTO strapi_api_token_permissions_token_links (api_token_permission_id, api_token_id, api_token_permission_order) VALUES (?, ?, ?)')
      .run(permission, token, order + 1);
  }
}

function serve(db, dir) {
  const child = spawn('bash', [serveScript, String(port), db], {
    env: { ...process.env, SHADOW_DIR: join(dir, 'shadow') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchReference(child);
}

/** Sends one request the way the replay will: JSON body (padded where the case says), the writer token unless `token: "none"`. */
function send(request) {
  return sendToReference(base, WRITER_TOKEN, request, request.body === undefined ? undefined : padded(request.body, request.padding));
}

/** The body with a string of `length` "x" at `path`: a body too large to keep in the recording. */
function padded(body, padding) {
  if (!padding) return body;
  const copy = structuredClone(body);
  const parent = padding.path.slice(0, -1).reduce((node, key) => node[key], copy);
  parent[padding.path[padding.path.length - 1]] = 'x'.repeat(padding.length);
  return copy;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = 24 * 60 * 60 * 1000;

/** Replaces every date-time within a day of the run (produced by it) with "<now>"; nothing else. */
function normalize(value, runStartedAt) {
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) {
    return Math.abs(Date.parse(value) - runStartedAt) <= DAY ? '<now>' : value;
  }
  if (Array.isArray(value)) return value.map((item) => normalize(item, runStartedAt));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalize(item, runStartedAt)]));
  }
  return value;
}

/** The path to read a written entry back: the case's own, or the entry by id with the type's populate. */
function readBackPath(testCase, request, result, saved) {
  if (testCase.readBack === false) return undefined;
  if (typeof testCase.readBack === 'function') return testCase.readBack(saved, result.response);
  if (typeof testCase.readBack === 'string') return testCase.readBack;
  const [pathname] = request.path.split('?');
  const plural = pathname.split('/')[2];
  if (request.method === 'DELETE') return result.status < 300 ? pathname : undefined;
  const id = writtenId(result) ?? (request.method === 'PUT' ? pathname.split('/')[3] : undefined);
  if (id === undefined || !readBackQuery[plural]) return undefined;
  return `/api/${plural}/${id}?${readBackQuery[plural]}`;
}

/** The written entry's id: in the envelope, or at the top level for the localizations route's bare entry. */
function writtenId(result) {
  if (result.status >= 300) return undefined;
  return result.response?.data?.id ?? result.response?.id;
}

function resolveValue(value, saved) {
  return typeof value === 'function' ? value(saved) : value;
}

async function runCases(runStartedAt) {
  const saved = {};
  const recorded = [];
  let seq = 0;
  for (const group of groups) {
    const cases = [];
    for (const testCase of group.cases) {
      seq += 1;
      const request = { method: testCase.method, path: resolveValue(testCase.path, saved) };
      if (testCase.rawBody !== undefined) request.rawBody = resolveValue(testCase.rawBody, saved);
      else if (testCase.body !== undefined) request.body = resolveValue(testCase.body, saved);
      if (testCase.padding) request.padding = testCase.padding;
      if (testCase.headers) request.headers = testCase.headers;
      if (testCase.token) request.token = testCase.token;
      const result = await send(request);
      const entry = { seq, name: testCase.name, request, status: result.status, response: result.response };
      if (result.responseText !== undefined) entry.responseText = result.responseText;
      const path = readBackPath(testCase, request, result, saved);
      if (path) {
        const back = await send({ method: 'GET', path });
        entry.readBack = { path, status: back.status, response: back.response };
        if (back.responseText !== undefined) entry.readBack.responseText = back.responseText;
      }
      // Later cases address what this one wrote (its id, its components' ids) through `saved`.
      if (testCase.save) {
        saved[testCase.save] = { id: writtenId(result), response: result.response, readBack: entry.readBack?.response };
      }
      if (testCase.note) entry.note = testCase.note;
      cases.push(normalize(entry, runStartedAt));
      const mark = result.status >= 500 ? '!' : ' ';
      console.log(`${mark}${String(seq).padStart(3)} ${group.group.padEnd(14)} ${result.status} ${testCase.name}`);
    }
    recorded.push({ group: group.group, cases });
  }
  return recorded;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'record-writes-'));
  const db = prepareDatabase(dir);
  const child = serve(db, dir);
  try {
    await waitUntilServing(child, `${base}/api/articles?pagination[pageSize]=1`, (response) => response.status === 200);
    const runStartedAt = Date.now();
    const recorded = await runCases(runStartedAt);
    mkdirSync(out, { recursive: true });
    // Only the recordings are replaced; the README beside them stays.
    for (const name of readdirSync(out)) if (name.endsWith('.json')) rmSync(join(out, name));
    for (const [order, { group, cases }] of recorded.entries()) {
      writeFileSync(join(out, `${group}.json`), JSON.stringify({ group, order: order + 1, cases }, null, 2) + '\n');
    }
    const index = {
      reference: 'Strapi 4.26.2',
      fixture: 'conformance/db/strapi-small.db',
      token: { name: 'writer', type: 'full-access', value: WRITER_TOKEN },
      groups: recorded.map(({ group, cases }) => ({ group, file: `${group}.json`, cases: cases.length })),
      total: recorded.reduce((sum, { cases }) => sum + cases.length, 0),
    };
    writeFileSync(join(out, 'index.json'), JSON.stringify(index, null, 2) + '\n');
    console.log(`${index.total} cases recorded in ${out}`);
  } finally {
    await stopReference(child);
    // --keep leaves the database the run wrote, to look at what the API does not show (hashes, private values).
    if (process.argv.includes('--keep')) console.log(`database kept: ${join(dir, 'shadow', '.tmp', 'data.db')}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
