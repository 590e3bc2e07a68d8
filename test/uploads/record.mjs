#!/usr/bin/env node
// Records how the reference, Strapi 4.26.2, answers the upload cases of cases.source.mjs, and what
// each case wrote: the rows of `files`, `files_related_morphs`, `files_folder_links` and
// `upload_folders` it added, changed or removed, and the objects it added to or removed from
// public/uploads. Run by hand, never by `npm test`:
//
//   node test/uploads/record.mjs [--port 4750] [--out test/uploads/recorded] [--keep]
//
// The reference runs as a private copy of the installed app (config, src, database, public copied,
// node_modules linked) whose body parser takes files up to MAX_FILE_BYTES, on a fresh copy of the
// small conformance fixture holding the full-access token `writer-token`. Random hash suffixes and
// the run's own timestamps are normalized (normalize.mjs), so a recording compares with a replay.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cases, MAX_FILE_BYTES } from './cases.source.mjs';
import { buildForm, requestPath } from './requests.mjs';
import { diffRows, normalize, normalizeObjectNames, ROW_TABLES, snapshotSqlite } from './normalize.mjs';
import { stopReference, waitUntilServing, watchReference } from '../support/reference-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const shared = process.env.SHARED_DIR ?? resolve(repo, '..', 'shared');
const fixture = join(shared, 'conformance', 'db', 'strapi-small.db');
const installed = resolve(process.env.ORACLE_DIR ?? join(homedir(), '.cache', 'strapi-oracle'), 'strapi-app');

export const WRITER_TOKEN = 'writer-token';
const API_TOKEN_SALT = 'oracle-api-token-salt';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4750'));
const out = resolve(option('out', join(here, 'recorded')));
const base = `http://127.0.0.1:${port}`;
const require = createRequire(join(repo, 'package.json'));
const Database = require('better-sqlite3');

/** The private app: the install's files copied, its node_modules linked, a body limit of MAX_FILE_BYTES. */
function prepareApp(dir) {
  const app = join(dir, 'app');
  mkdirSync(join(app, '.tmp'), { recursive: true });
  for (const entry of ['config', 'src', 'database', 'public', 'package.json', '.env']) cpSync(join(installed, entry), join(app, entry), { recursive: true });
  symlinkSync(join(installed, 'node_modules'), join(app, 'node_modules'));
  writeFileSync(
    join(app, 'config', 'middlewares.js'),
    `module.exports = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query',
  { name: 'strapi::body', config: { formidable: { maxFileSize: ${MAX_FILE_BYTES} } } }, 'strapi::session', 'strapi::favicon', 'strapi::public'];\n`,
  );
  const db = join(app, '.tmp', 'data.db');
  copyFileSync(fixture, db);
  const sqlite = new Database(db);
  const accessKey = createHmac('sha512', API_TOKEN_SALT).update(WRITER_TOKEN).digest('hex');
  const at = Date.parse('2024-01-01T08:00:00Z');
  sqlite.prepare(`INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ('writer', '', 'full-access', ?, ?, ?)`).run(accessKey, at, at);
  sqlite.close();
  return { app, db };
}

function serve(app) {
  const child = spawn(process.execPath, [join(installed, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'start'], {
    cwd: app,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATABASE_FILENAME: '.tmp/data.db', STRAPI_TELEMETRY_DISABLED: 'true', STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchReference(child);
}

async function send(testCase, saved) {
  const path = requestPath(testCase, saved);
  const method = testCase.method ?? 'POST';
  const headers = { Accept: 'application/json' };
  if (testCase.token !== 'none') headers.Authorization = `Bearer ${WRITER_TOKEN}`;
  let body;
  if (testCase.parts) body = buildForm(testCase.parts, join(here, 'files'));
  else if (testCase.json !== undefined) {
    body = JSON.stringify(testCase.json);
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = { text };
  }
  return { method, path, status: response.status, response: parsed };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'record-uploads-'));
  const { app, db } = prepareApp(dir);
  const uploads = join(app, 'public', 'uploads');
  const child = serve(app);
  try {
    await waitUntilServing(child, `${base}/api/articles?pagination[pageSize]=1`, (response) => response.status === 200);
    const runStartedAt = Date.now();
    const sqlite = new Database(db, { readonly: true });
    let rows = snapshotSqlite(sqlite);
    let objects = new Set(readdirSync(uploads));
    const saved = {};
    const recorded = [];
    for (const [index, testCase] of cases.entries()) {
      const result = await send(testCase, saved);
      if (testCase.save) saved[testCase.save] = Array.isArray(result.response) ? result.response : [result.response];
      const nextRows = snapshotSqlite(sqlite);
      const nextObjects = new Set(readdirSync(uploads));
      const entry = {
        seq: index + 1,
        name: testCase.name,
        request: { method: result.method, path: result.path, ...(testCase.parts ? { parts: testCase.parts } : {}), ...(testCase.json ? { json: testCase.json } : {}), ...(testCase.token ? { token: testCase.token } : {}) },
        status: result.status,
        response: result.response,
        rows: Object.fromEntries(ROW_TABLES.map((table) => [table, diffRows(rows[table], nextRows[table])])),
        objects: {
          added: normalizeObjectNames([...nextObjects].filter((name) => !objects.has(name))),
          removed: normalizeObjectNames([...objects].filter((name) => !nextObjects.has(name))),
        },
      };
      recorded.push(normalize(entry, runStartedAt));
      rows = nextRows;
      objects = nextObjects;
      console.log(`${result.status >= 500 ? '!' : ' '}${String(index + 1).padStart(3)} ${result.status} ${testCase.name}`);
    }
    sqlite.close();
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'cases.json'), JSON.stringify({ reference: 'Strapi 4.26.2', fixture: 'conformance/db/strapi-small.db', maxFileBytes: MAX_FILE_BYTES, cases: recorded }, null, 2) + '\n');
    console.log(`${recorded.length} cases recorded in ${out}`);
  } finally {
    await stopReference(child);
    if (process.argv.includes('--keep')) console.log(`app kept: ${app}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
