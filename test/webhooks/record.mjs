#!/usr/bin/env node
// Records the webhook requests the reference, Strapi 4.26.2, sends for entry and media events, as
// the payloads test/webhooks/delivery.test.ts compares the plugin's against. Run by hand,
// never by `npm test`:
//
//   node test/webhooks/record.mjs [--port 4800] [--receiver-port 4801] [--out test/webhooks/recorded]
//
// A fresh copy of the small conformance fixture gets a full-access API token and one webhook (the
// `strapi_webhooks` row Strapi's admin would write) listening to every event, pointing at a
// receiver of this script. Entries are created, updated and deleted through the content API;
// publish and unpublish are sent through the admin's content manager (the only place Strapi
// emits them), with the first admin registered by the script; a file is uploaded and deleted.
// Each request the receiver gets is written to <out>/<step>.json with its headers (and the write
// that made it, as `sent`, where a test sends it again); timestamps the run produced are "<now>".
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopReference, waitUntilServing, watchReference } from '../support/reference-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const shared = process.env.SHARED_DIR ?? resolve(repo, '..', 'shared');
const fixture = join(shared, 'conformance', 'db', 'strapi-small.db');
const serveScript = join(shared, 'oracle', 'serve.sh');

const TOKEN = 'webhook-recorder-token';
const API_TOKEN_SALT = 'oracle-api-token-salt';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4800'));
const receiverPort = Number(option('receiver-port', '4801'));
const out = resolve(option('out', join(here, 'recorded')));
const base = `http://127.0.0.1:${port}`;

const EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'];

function prepareDatabase(dir) {
  const db = join(dir, 'strapi-small.db');
  copyFileSync(fixture, db);
  const require = createRequire(join(repo, 'package.json'));
  const Database = require('better-sqlite3');
  const sqlite = new Database(db);
  const at = Date.parse('2024-01-01T08:00:00Z');
  const accessKey = createHmac('sha512', API_TOKEN_SALT).update(TOKEN).digest('hex');
  sqlite
    .prepare(`INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ('recorder', '', 'full-access', ?, ?, ?)`)
    .run(accessKey, at, at);
  sqlite
    .prepare('INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, 1)')
    .run('recorder', `http://127.0.0.1:${receiverPort}/hook`, JSON.stringify({ Authorization: 'Bearer receiver-secret' }), JSON.stringify(EVENTS));
  sqlite.close();
  return db;
}

/** Every request the receiver gets, in order. */
function listen() {
  const received = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, headers: request.headers, body: JSON.parse(body) });
      response.end('ok');
    });
  });
  return new Promise((done) => server.listen(receiverPort, '127.0.0.1', () => done({ server, received })));
}

async function call(method, path, body, headers = { Authorization: `Bearer ${TOKEN}` }) {
  const isForm = body instanceof FormData;
  const response = await fetch(base + path, {
    method,
    headers: isForm || body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: isForm ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Waits until the receiver has `count` requests (Strapi sends after answering). */
async function received(list, count) {
  for (let waited = 0; list.length < count; waited += 50) {
    if (waited > 10_000) throw new Error(`the receiver got ${list.length} requests, ${count} expected`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
function normalize(value, startedAt) {
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return Math.abs(Date.parse(value) - startedAt) <= 86_400_000 ? '<now>' : value;
  if (Array.isArray(value)) return value.map((item) => normalize(item, startedAt));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalize(item, startedAt)]));
  return value;
}

async function script(list) {
  const steps = [];
  const step = async (name, action, sent) => {
    const before = list.length;
    const answer = await action();
    await received(list, before + 1);
    // A moment for a second event of the same write, if Strapi sends one.
    await new Promise((done) => setTimeout(done, 300));
    steps.push({ name, ...(sent ? { sent } : {}), requests: list.slice(before) });
    return answer;
  };
  const article = {
    title: 'Webhook article',
    description: 'Written to record webhooks',
    internalNotes: 'never in a payload',
    accessCode: 'secret-password',
    views: 3,
    category: 1,
    seo: { metaTitle: 'Webhook SEO', metaDescription: 'A description long enough for the component' },
    links: [{ label: 'Home', url: 'https://example.com' }],
  };
  const created = await step('create', () => call('POST', '/api/articles', { data: article }), { method: 'POST', path: '/api/articles', body: { data: article } });
  const id = created.data.id;
  await step('update', () => call('PUT', `/api/articles/${id}`, { data: { title: 'Webhook article changed' } }));
  await step('update-unpublish-through-content-api', () => call('PUT', `/api/articles/${id}`, { data: { publishedAt: null } }));
  await step('create-draft', () => call('POST', '/api/articles', { data: { title: 'Webhook draft', publishedAt: null } }));

  const admin = { firstname: 'Web', lastname: 'Hook', email: 'webhooks@example.com', password: 'Recorder-Password-1' };
  const registered = await call('POST', '/admin/register-admin', admin, {});
  const jwt = { Authorization: `Bearer ${registered.data.token}` };
  const uid = 'api::article.article';
  await step('publish', () => call('POST', `/content-manager/collection-types/${uid}/${id}/actions/publish`, {}, jwt));
  await step('unpublish', () => call('POST', `/content-manager/collection-types/${uid}/${id}/actions/unpublish`, {}, jwt));
  await step('delete', () => call('DELETE', `/api/articles/${id}`));
  await step('create-category', () => call('POST', '/api/categories', { data: { name: 'Webhook category' } }));

  const form = new FormData();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  form.append('files', new Blob([png], { type: 'image/png' }), 'pixel.png');
  const uploaded = await step('media-create', () => call('POST', '/api/upload', form));
  const info = new FormData();
  info.append('fileInfo', JSON.stringify({ alternativeText: 'A pixel', caption: 'Recorded' }));
  await step('media-update', () => call('POST', `/api/upload?id=${uploaded[0].id}`, info));
  await step('media-delete', () => call('DELETE', `/api/upload/files/${uploaded[0].id}`));
  return steps;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'record-webhooks-'));
  const db = prepareDatabase(dir);
  const { server, received: list } = await listen();
  const child = watchReference(spawn('bash', [serveScript, String(port), db], { env: { ...process.env, SHADOW_DIR: join(dir, 'shadow') }, stdio: ['ignore', 'pipe', 'pipe'] }));
  try {
    await waitUntilServing(child, `${base}/api/articles?pagination[pageSize]=1`, (response) => response.status === 200);
    const startedAt = Date.now();
    const steps = await script(list);
    mkdirSync(out, { recursive: true });
    for (const { name, sent, requests } of steps) {
      writeFileSync(join(out, `${name}.json`), JSON.stringify({ reference: 'Strapi 4.26.2', step: name, ...(sent ? { sent } : {}), requests: normalize(requests, startedAt) }, null, 2) + '\n');
      console.log(`${name}: ${requests.map((request) => request.body.event).join(', ')}`);
    }
  } finally {
    await stopReference(child);
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
