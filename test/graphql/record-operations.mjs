#!/usr/bin/env node
// Records how the reference (Strapi 4.26.2 with @strapi/plugin-graphql 4.26.2) answers the GraphQL
// operations of test/graphql/operations/kit.mjs, as the expectations of operations.test.ts. Run by
// hand, never by `npm test`:
//
//   node test/graphql/record-operations.mjs [--port 4780] [--serve]
//
// It makes a private copy of the reference app (test/apps/reference-copy.mjs) with the GraphQL
// plugin enabled (introspection on), whose database is a fresh copy of the conformance kit's small
// fixture with the API tokens of operations/tokens.mjs added, boots it in production mode on
// 127.0.0.1, sends every operation in the file's order (queries first, then the mutations, so that
// the ids a mutation is given depend only on the mutations before it) and writes
// test/graphql/recorded/kit.json. Date-times the run itself wrote are replaced by "<now>".
// `--serve` boots the same copy and keeps it running until interrupted, to try operations by hand.
import { createHmac } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootReference, prepareAppCopy, readAppSchemas, referenceApp } from '../apps/reference-copy.mjs';
import { stopReference, waitUntilServing } from '../support/reference-process.mjs';
import { operations } from './operations/kit.mjs';
import { normalizeAnswer, sendOperation } from './operations/send.mjs';
import { API_TOKEN_SALT, TOKENS } from './operations/tokens.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const shared = process.env.SHARED_DIR ?? resolve(repo, '..', 'shared');
const fixture = join(shared, 'conformance', 'db', 'strapi-small.db');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4780'));
if (port < 4780 || port > 4799) throw new Error('the operations recorder uses ports 4780..4799 only');
const base = `http://127.0.0.1:${port}`;

/** The plugin enabled by path (the reference's package.json does not list it), introspection on. */
function graphqlPlugin() {
  const path = JSON.stringify(join(referenceApp, 'node_modules', '@strapi', 'plugin-graphql'));
  return `  graphql: { enabled: true, resolve: ${path}, config: { apolloServer: { introspection: true } } },`;
}

/** The tokens of tokens.mjs, stored as Strapi stores them (HMAC-SHA512 of the key, hex), with their permissions. */
function insertTokens(file) {
  const require = createRequire(join(repo, 'package.json'));
  const Database = require('better-sqlite3');
  const sqlite = new Database(file);
  // Fixed timestamps, so nothing of a token depends on the clock.
  const at = Date.parse('2024-01-01T08:00:00Z');
  try {
    for (const token of TOKENS) {
      const accessKey = createHmac('sha512', API_TOKEN_SALT).update(token.key).digest('hex');
      const id = sqlite
        .prepare(`INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES (?, '', ?, ?, ?, ?)`)
        .run(token.name, token.type, accessKey, at, at).lastInsertRowid;
      for (const [order, action] of (token.actions ?? []).entries()) {
        const permission = sqlite
          .prepare('INSERT INTO strapi_api_token_permissions (action, created_at, updated_at) VALUES (?, ?, ?)')
          .run(action, at, at).lastInsertRowid;
        sqlite
          .prepare('INSERT INTO strapi_api_token_permissions_token_links (api_token_permission_id, api_token_id, api_token_permission_order) VALUES (?, ?, ?)')
          .run(permission, id, order + 1);
      }
    }
  } finally {
    sqlite.close();
  }
}

async function prepareCopy(shadow) {
  prepareAppCopy({ shadow, sourceDir: referenceApp, types: (await readAppSchemas(referenceApp)).types, plugins: [], extraPlugins: graphqlPlugin() });
  const database = join(shadow, '.tmp', 'data.db');
  copyFileSync(fixture, database);
  insertTokens(database);
}

/** Every operation in order, queries before mutations; what the reference answered to each. */
async function recordAll(runStartedAt) {
  const ordered = [...operations.filter((operation) => operation.kind !== 'mutation'), ...operations.filter((operation) => operation.kind === 'mutation')];
  const recorded = [];
  for (const operation of ordered) {
    const { request, status, body, text } = await sendOperation(base, operation);
    if (status >= 500) console.warn(`${operation.name}: ${status}`);
    const answer = text !== undefined ? { text } : { body: normalizeAnswer(body, runStartedAt) };
    recorded.push({ ...operation, kind: operation.kind ?? 'query', request, status, ...answer });
  }
  return recorded;
}

/** Something already answering on the port would be recorded instead of the fresh copy. */
async function refuseBusyPort() {
  const answered = await fetch(`${base}/_health`).then(
    () => true,
    () => false,
  );
  if (answered) throw new Error(`${base} already answers: stop what listens there, or pass --port`);
}

async function main() {
  const names = new Set();
  for (const operation of operations) {
    if (names.has(operation.name)) throw new Error(`two operations are named ${operation.name}`);
    names.add(operation.name);
  }
  await refuseBusyPort();
  const shadow = join(process.env.TMPDIR ?? '/tmp', 'oracle-graphql-operations');
  await prepareCopy(shadow);
  const child = bootReference(shadow, port);
  try {
    await waitUntilServing(child, `${base}/_health`, (response) => response.status < 500);
    if (process.argv.includes('--serve')) {
      console.log(`serving ${base}/graphql (tokens: ${TOKENS.map((token) => token.key).join(', ')}); Ctrl-C stops it`);
      await new Promise((done) => process.once('SIGINT', done));
      return;
    }
    const runStartedAt = Date.now();
    const recorded = await recordAll(runStartedAt);
    const out = join(here, 'recorded');
    mkdirSync(out, { recursive: true });
    const file = { recordedWith: 'Strapi 4.26.2, @strapi/plugin-graphql 4.26.2, small fixture', tokens: TOKENS, operations: recorded };
    writeFileSync(join(out, 'kit.json'), JSON.stringify(file, null, 1) + '\n');
    const counts = recorded.reduce((sum, entry) => ({ ...sum, [entry.kind]: (sum[entry.kind] ?? 0) + 1 }), {});
    console.log(`recorded ${recorded.length} operations: ${JSON.stringify(counts)}`);
  } finally {
    await stopReference(child);
    rmSync(shadow, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
