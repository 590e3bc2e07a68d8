#!/usr/bin/env node
// Checks that the reference, Strapi 4.26.2, reads what the plugin's uploads wrote: the plugin
// (built: npx tsc first) uploads files into a copy of the small fixture, with sync off as on a
// database Strapi serves; then the reference serves that database and the stored files, and
// must list the files with their formats, serve their objects, show them in its media library's
// API Uploads folder, and populate them on the entry they were attached to. Run by hand:
//
//   node test/uploads/reference-reads.mjs [--port 4762]
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopReference, waitUntilServing, watchReference } from '../support/reference-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const shared = process.env.SHARED_DIR ?? resolve(repo, '..', 'shared');
const installed = resolve(process.env.ORACLE_DIR ?? join(homedir(), '.cache', 'strapi-oracle'), 'strapi-app');
const at = process.argv.indexOf('--port');
const port = at > 0 ? Number(process.argv[at + 1]) : 4762;
const TOKEN = 'writer-token';
const require = createRequire(join(repo, 'package.json'));
const Database = require('better-sqlite3');
const Koa = require('koa');

const problems = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) problems.push(what);
};

async function uploadWithThePlugin(dir, db, storage) {
  const { contentApi } = await import(pathToFileURL(join(repo, 'dist', 'plugin', 'index.js')).href);
  const { tokenHash } = await import(pathToFileURL(join(repo, 'dist', 'plugin', 'access', 'tokens.js')).href);
  const root = join(dir, 'schema');
  for (const entry of ['content-types', 'components']) cpSync(join(repo, entry), join(root, entry), { recursive: true });
  writeFileSync(join(root, 'permissions.yaml'), `roles:\n  writer:\n    article: [find, findOne, update]\n    file: [find, findOne, upload, destroy]\ntokens:\n  - { name: writer, role: writer, hash: "${tokenHash(TOKEN, 'reference-reads-salt')}" }\n`);
  const api = await contentApi({ root, database: `sqlite:${db}`, sync: false, watchPermissions: false, upload: { folder: storage } });
  const server = new Koa().use(api.routes()).listen(port, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  try {
    const form = new FormData();
    for (const name of ['photo.jpg', 'notes.txt']) form.append('files', new Blob([readFileSync(join(here, 'files', name))]), name);
    form.append('fileInfo', JSON.stringify([{ alternativeText: 'A photo' }, { caption: 'Some notes' }]));
    form.append('ref', 'api::article.article');
    form.append('refId', '3');
    form.append('field', 'gallery');
    const response = await fetch(`http://127.0.0.1:${port}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` }, body: form });
    const files = await response.json();
    check(response.status === 200, `the plugin uploaded two files (${response.status})`);
    return files;
  } finally {
    server.close();
    await api.close();
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'reference-reads-'));
  const app = join(dir, 'app');
  mkdirSync(join(app, '.tmp'), { recursive: true });
  for (const entry of ['config', 'src', 'database', 'public', 'package.json', '.env']) cpSync(join(installed, entry), join(app, entry), { recursive: true });
  symlinkSync(join(installed, 'node_modules'), join(app, 'node_modules'));
  const db = join(app, '.tmp', 'data.db');
  copyFileSync(join(shared, 'conformance', 'db', 'strapi-small.db'), db);
  const sqlite = new Database(db);
  sqlite.prepare("INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ('writer', '', 'full-access', ?, 1, 1)").run(createHmac('sha512', 'oracle-api-token-salt').update(TOKEN).digest('hex'));
  sqlite.close();
  const uploaded = await uploadWithThePlugin(dir, db, join(app, 'public', 'uploads'));
  const child = watchReference(
    spawn(process.execPath, [join(installed, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'start'], {
      cwd: app,
      env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port + 1), DATABASE_FILENAME: '.tmp/data.db', STRAPI_TELEMETRY_DISABLED: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const base = `http://127.0.0.1:${port + 1}`;
  const get = async (path) => {
    const response = await fetch(base + path, { headers: { Authorization: `Bearer ${TOKEN}` } });
    return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? await response.json() : Buffer.from(await response.arrayBuffer()) };
  };
  try {
    await waitUntilServing(child, `${base}/api/articles?pagination[pageSize]=1`, (response) => response.status === 200);
    for (const file of uploaded) {
      const { status, body } = await get(`/api/upload/files/${file.id}`);
      check(status === 200 && JSON.stringify(body) === JSON.stringify(file), `Strapi answers file ${file.id} (${file.name}) exactly as the plugin did`);
      for (const url of [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)]) {
        const object = await get(url);
        check(object.status === 200 && object.body.length > 0, `Strapi serves ${url}`);
      }
    }
    check(Object.keys(uploaded[0].formats ?? {}).sort().join() === 'large,medium,small,thumbnail', 'the photo has its four formats');
    const entry = await get('/api/articles/3?populate[gallery][fields][0]=name&fields[0]=title');
    const names = entry.body?.data?.attributes?.gallery?.data?.map((file) => file.attributes.name) ?? [];
    check(uploaded.every((file) => names.includes(file.name)), `Strapi populates the gallery of article 3 with them (${names.join(', ')})`);
    const sqliteAfter = new Database(db, { readonly: true });
    const folder = sqliteAfter.prepare("SELECT f.id, f.path FROM upload_folders f WHERE f.name = 'API Uploads'").get();
    const linked = sqliteAfter.prepare('SELECT COUNT(*) AS count FROM files_folder_links WHERE folder_id = ?').get(folder?.id).count;
    sqliteAfter.close();
    check(folder !== undefined && linked === uploaded.length, `the files are in Strapi's API Uploads folder (${folder?.path}, ${linked} files)`);
  } finally {
    await stopReference(child);
    rmSync(dir, { recursive: true, force: true });
  }
  if (problems.length) {
    console.log(`${problems.length} problem(s)`);
    process.exitCode = 1;
  } else console.log('the reference reads the plugin\'s uploads');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
