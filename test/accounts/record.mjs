#!/usr/bin/env node
// Records how the reference, Strapi 4.26.2 with its i18n and users-permissions plugins, answers
// `GET /api/i18n/locales`, the account flows (forgot and reset password, change password, email
// confirmation) with the mails it sends, and the users routes (count, create, update, delete): the expectations of test/accounts/replay.test.ts. Run by
// hand, never by `npm test`, after a build (the mail server is test/support/mail-box.ts):
//
//   npx tsc -p tsconfig.json && node test/accounts/record.mjs [--port 4701] [--smtp 4711] [--out test/accounts/recorded]
//   npx tsc -p tsconfig.json && node test/accounts/record.mjs --app getstarted [--port 4701] [--smtp 4711]
//
// With `--app <name>`, the reference serves that app of test/apps/ instead (a private copy made as
// test/apps/record.mjs makes it, on a fresh database: no users but the ones the cases register),
// the cases are app-cases.mjs's, and the recording goes to test/accounts/apps/<name>/.
//
// The reference serves a fresh copy of the small conformance fixture (users user01…user08,
// passwords `Password-<n>!`; user04 and user08 unconfirmed, user08 blocked) from a private copy of
// its app whose email plugin sends through `sendmail` to a mail server this script runs on
// loopback. Before each case the store's advanced settings and templates, and the roles' right to
// list the locales, are written into the database as the case asks (cases.mjs); Strapi reads them
// at every request. A token the flows need is read from the link of the mail that carried it.
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopReference, waitUntilServing, watchReference } from '../support/reference-process.mjs';
import { normalizeRunDates, sendFrom, writeGroupedRecordings } from '../support/reference-requests.mjs';
import { appGroups } from './app-cases.mjs';
import { CUSTOM_TEMPLATES, groups as fixtureGroups, JWT_SECRET, PROVIDERS, STOCK } from './cases.mjs';
import { bootReference, ensurePlugins, prepareAppCopy, readAppPlugins, readAppSchemas } from '../apps/reference-copy.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const shared = process.env.SHARED_DIR ?? resolve(repo, '..', 'shared');
const fixture = join(shared, 'conformance', 'db', 'strapi-small.db');
const oracleApp = join(process.env.ORACLE_DIR ?? join(process.env.HOME ?? '', '.cache', 'strapi-oracle'), 'strapi-app');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4701'));
const smtpPort = Number(option('smtp', '4711'));
const appName = option('app', null);
const out = resolve(option('out', appName ? join(here, 'apps', appName) : join(here, 'recorded')));
const server = `http://127.0.0.1:${port}`;

const require = createRequire(join(repo, 'package.json'));
const Database = require('better-sqlite3');
const { MailBox, linkIn } = await import(pathToFileURL(join(repo, 'dist', 'test', 'support', 'mail-box.js')).href);

/** A private copy of the reference app whose email plugin delivers to the loopback mail server. */
function prepareApp(dir) {
  const app = join(dir, 'app');
  mkdirSync(join(app, '.tmp'), { recursive: true });
  for (const entry of ['config', 'src', 'database', 'public', 'package.json', '.env']) cpSync(join(oracleApp, entry), join(app, entry), { recursive: true });
  symlinkSync(join(oracleApp, 'node_modules'), join(app, 'node_modules'));
  writeFileSync(
    join(app, 'config', 'plugins.js'),
    `module.exports = ({ env }) => ({
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } },
  email: { config: { provider: 'sendmail', providerOptions: { devHost: '127.0.0.1', devPort: ${smtpPort}, silent: true } } },
});\n`,
  );
  // Served over plain HTTP in production mode: the session cookie of third-party login may not be `secure`.
  const middlewares = join(app, 'config', 'middlewares.js');
  writeFileSync(middlewares, readFileSync(middlewares, 'utf8').replace("'strapi::session',", "{ name: 'strapi::session', config: { secure: false } },"));
  const db = join(app, '.tmp', 'data.db');
  copyFileSync(fixture, db);
  return { app, db };
}

/** Strapi's own attributes of users-permissions' user: an app's extension adds the others. */
const STOCK_USER_ATTRIBUTES = new Set(['username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role']);

/** The attributes an app's extension of the user adds (none when it does not extend it). */
function extraUserAttributes(sourceDir) {
  const file = join(sourceDir, 'src', 'extensions', 'users-permissions', 'content-types', 'user', 'schema.json');
  if (!existsSync(file)) return {};
  const { attributes } = JSON.parse(readFileSync(file, 'utf8'));
  return Object.fromEntries(Object.entries(attributes).filter(([name]) => !STOCK_USER_ATTRIBUTES.has(name)));
}

/** A private copy of the reference serving an app of test/apps/, its mails sent to the loopback mail server. */
async function prepareCorpusApp(dir) {
  const sourceDir = join(here, '..', 'apps', appName, 'strapi-src');
  const plugins = readAppPlugins(sourceDir);
  ensurePlugins(plugins);
  const { types } = await readAppSchemas(sourceDir);
  const email = `  email: { config: { provider: 'sendmail', providerOptions: { devHost: '127.0.0.1', devPort: ${smtpPort}, silent: true } } },`;
  prepareAppCopy({ shadow: dir, sourceDir, types, plugins, extraPlugins: email });
  return { app: dir, db: join(dir, '.tmp', 'data.db'), groups: appGroups(extraUserAttributes(sourceDir)) };
}

function serve(app) {
  if (appName) return bootReference(app, port);
  const child = spawn(process.execPath, [join(oracleApp, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'start'], {
    cwd: app,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATABASE_FILENAME: '.tmp/data.db', JWT_SECRET, STRAPI_TELEMETRY_DISABLED: 'true', STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchReference(child);
}

const STORE_KEY = 'plugin_users-permissions_';

/** Writes what `settings` says into the store and the permissions of the database being served. */
function applySettings(db, settings) {
  const sqlite = new Database(db);
  try {
    const read = (key) => JSON.parse(sqlite.prepare('SELECT value FROM strapi_core_store_settings WHERE key = ?').get(STORE_KEY + key).value);
    const write = (key, value) => sqlite.prepare('UPDATE strapi_core_store_settings SET value = ? WHERE key = ?').run(JSON.stringify(value), STORE_KEY + key);
    write('advanced', {
      ...read('advanced'),
      allow_register: settings.register,
      email_confirmation: settings.emailConfirmation,
      email_reset_password: settings.resetPasswordUrl,
      email_confirmation_redirection: settings.confirmationRedirect,
    });
    const email = read('email');
    if (!applySettings.stockTemplates) applySettings.stockTemplates = structuredClone(email);
    const templates = settings.templates === 'custom' ? CUSTOM_TEMPLATES : Object.fromEntries(Object.entries(applySettings.stockTemplates).map(([key, value]) => [key, value.options]));
    write('email', Object.fromEntries(Object.entries(email).map(([key, value]) => [key, { ...value, options: templates[key] }])));
    const providers = read('grant');
    for (const [name, provider] of Object.entries(PROVIDERS)) providers[name] = { ...providers[name], ...provider, enabled: settings.providers.includes(name) };
    write('grant', providers);
    for (const type of ['public', 'authenticated']) grant(sqlite, type, LIST_LOCALES, settings.locales[type]);
    for (const action of PLUGIN_ACTIONS) grant(sqlite, 'authenticated', `plugin::users-permissions.${action}`, settings.authenticated.includes(action));
  } finally {
    sqlite.close();
  }
}

const LIST_LOCALES = 'plugin::i18n.locales.listLocales';
/** The users-permissions actions a case's settings may give the Authenticated role. */
const PLUGIN_ACTIONS = ['user.count', 'user.create', 'user.update', 'user.destroy', 'role.find', 'role.findOne', 'role.createRole', 'role.updateRole', 'role.deleteRole', 'permissions.getPermissions'];

/** Gives the role of `type` the permission `action`, or takes it away. */
function grant(sqlite, type, action, granted) {
  const role = sqlite.prepare('SELECT id FROM up_roles WHERE type = ?').get(type).id;
  const held = sqlite.prepare('SELECT p.id FROM up_permissions p JOIN up_permissions_role_links l ON l.permission_id = p.id WHERE l.role_id = ? AND p.action = ?').get(role, action);
  if (held && !granted) {
    sqlite.prepare('DELETE FROM up_permissions_role_links WHERE permission_id = ?').run(held.id);
    sqlite.prepare('DELETE FROM up_permissions WHERE id = ?').run(held.id);
  }
  if (!held && granted) {
    const at = Date.parse('2024-01-01T08:00:00Z');
    const permission = sqlite.prepare('INSERT INTO up_permissions (action, created_at, updated_at) VALUES (?, ?, ?)').run(action, at, at).lastInsertRowid;
    sqlite.prepare('INSERT INTO up_permissions_role_links (permission_id, role_id, permission_order) VALUES (?, ?, ?)').run(permission, role, 100);
  }
}

/** `{{name}}` in a string replaced by the token kept under that name. */
function withTokens(value, kept) {
  if (typeof value === 'string') {
    return value.replace(/\{\{([^}]+)\}\}/g, (_, name) => {
      if (!(name in kept)) throw new Error(`no token kept as "${name}"`);
      return kept[name];
    });
  }
  if (Array.isArray(value)) return value.map((item) => withTokens(item, kept));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withTokens(item, kept)]));
  return value;
}

/** The reference's address, as it is or encoded in a query, written `<server>`. */
const withoutServer = (text) => text.replaceAll(server, '<server>').replaceAll(encodeURIComponent(server), '<server>');

/** A mail as recorded: the run's tokens and the reference's address left out. */
function recordedMail(mail) {
  const tidy = (text) => (text === null ? null : text.replaceAll(server, '<server>').replace(/\b[0-9a-f]{40}(?:[0-9a-f]{88})?\b/g, '<token>'));
  return { to: mail.envelope.to, from: mail.from, replyTo: mail.replyTo, subject: tidy(mail.subject), text: tidy(mail.text), html: tidy(mail.html) };
}

function tokenOf(mail, marker) {
  const link = linkIn(mail, marker);
  return new URL(link, 'http://link.invalid').searchParams.get(marker.slice(1, -1));
}

async function runCase(testCase, context) {
  const { db, box, kept, saved } = context;
  const settings = testCase.settings ?? STOCK;
  applySettings(db, settings);
  const before = box.mails.length;
  const bearer = testCase.bearer?.from ? saved[testCase.bearer.from] : testCase.bearer?.token;
  if (testCase.bearer?.from && !bearer) throw new Error(`no jwt saved by "${testCase.bearer.from}"`);
  const request = { method: testCase.method, path: withTokens(testCase.path, kept), headers: bearer ? { Authorization: `Bearer ${bearer}` } : {}, body: withTokens(testCase.body, kept) };
  const result = await sendFrom(port, testCase.address, request);
  // The reference answers once the mail is accepted; a moment for the mail server's own bookkeeping.
  await new Promise((done) => setTimeout(done, 100));
  const mails = box.mails.slice(before);
  if (testCase.keep) {
    if (mails.length !== 1) throw new Error(`"${testCase.name}" was to send one mail, it sent ${mails.length}`);
    kept[testCase.keep.name] = tokenOf(mails[0], testCase.keep.marker);
  }
  if (testCase.save) saved[testCase.save] = result.response?.jwt;
  return { result, mails };
}

async function runCases(groups, db, box, runStartedAt) {
  const context = { db, box, kept: {}, saved: {} };
  const recorded = [];
  let seq = 0;
  for (const { group, note, cases: groupCases } of groups) {
    const cases = [];
    for (const testCase of groupCases) {
      seq += 1;
      const address = testCase.address ?? `127.0.${Math.floor((seq + 1) / 250)}.${((seq + 1) % 250) + 1}`;
      const { result, mails } = await runCase({ ...testCase, address }, context);
      const request = { method: testCase.method, path: testCase.path, ...(testCase.body !== undefined ? { body: testCase.body } : {}), ...(testCase.bearer ? { bearer: testCase.bearer } : {}) };
      const entry = { seq, name: testCase.name, settings: testCase.settings ?? STOCK, address, request, status: result.status, response: result.response };
      for (const key of ['save', 'keep']) if (testCase[key]) entry[key] = testCase[key];
      if (result.responseText !== undefined) entry.responseText = withoutServer(result.responseText);
      if (result.location !== undefined) entry.location = withoutServer(result.location);
      entry.mails = mails.map(recordedMail);
      cases.push(normalizeRunDates(entry, runStartedAt));
      console.log(`${String(seq).padStart(3)} ${group.padEnd(18)} ${result.status} ${mails.length ? `${mails.length} mail ` : ''}${testCase.name}`);
    }
    recorded.push({ group, ...(note ? { note } : {}), cases });
  }
  return recorded;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'record-accounts-'));
  // The app copy's users-permissions reads its secret from the environment.
  process.env.JWT_SECRET = JWT_SECRET;
  const { app, db, groups } = appName ? await prepareCorpusApp(join(dir, 'app')) : { ...prepareApp(dir), groups: fixtureGroups };
  const box = await MailBox.start(smtpPort);
  const child = serve(app);
  try {
    await waitUntilServing(child, `${server}/_health`, (response) => response.status === 204);
    const runStartedAt = Date.now();
    writeGroupedRecordings(out, await runCases(groups, db, box, runStartedAt), {
      reference: 'Strapi 4.26.2, users-permissions 4.26.2, i18n 4.26.2, email 4.26.2 (sendmail to a loopback mail server)',
      fixture: appName ? `test/apps/${appName} on a fresh database` : 'conformance/db/strapi-small.db',
      jwtSecret: JWT_SECRET,
      recordedAt: new Date(runStartedAt).toISOString(),
    });
  } finally {
    await stopReference(child);
    await box.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
