#!/usr/bin/env node
// Records how the reference, Strapi 4.26.2, answers a corpus of reads and writes on a public
// Strapi v4 app other than the conformance kit's, as the expectations of test/apps/<app>.test.ts.
// Run by hand, never by `npm test`:
//
//   node test/apps/record.mjs <app> [--port 4610] [--keep]
//
// <app> is a folder of test/apps holding strapi-src/ (the app's schema files and plugins.json).
// Every run makes a private copy of the reference app in /tmp/oracle-<app>/ (reference-copy.mjs) with the app's schemas
// as its src/ (core routers, controllers and services for every type, nothing else of the app's
// code), installs the app's custom-field plugins into ORACLE_PLUGINS_DIR (default
// /tmp/oracle-plugins) when missing, boots on a fresh SQLite database on 127.0.0.1, adds the fr
// locale and a full-access token, and then:
//   1. uploads a few small PNGs made here (POST /api/upload): the files rows the replay inserts;
//   2. writes the data through the API from a seeded PRNG (creates, localizations, single types,
//      relations, components, zones, updates, deletes), recording every answer;
//   3. records reads generated from the schema (populate in every form, fields, filters, sort,
//      pagination, locales, publication states);
//   4. records reads as the public role (granted find and findOne on every type, find on files);
//   5. records a last group of writes (refusals, deletes, single-type deletes, to-many reorders).
// Timestamps the run itself produced are replaced by "<now>", as test/writes/recorded does.
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { sendToReference, stopReference, waitUntilServing } from '../support/reference-process.mjs';
import { bootReference, ensurePlugins, prepareAppCopy, readAppPlugins, readAppSchemas } from './reference-copy.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');

export const WRITER_TOKEN = 'writer-token';
const API_TOKEN_SALT = 'oracle-api-token-salt';

const app = process.argv[2];
if (!app || app.startsWith('--')) {
  console.error('usage: node test/apps/record.mjs <app> [--port N] [--keep]');
  process.exit(2);
}
function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4610'));
if (port < 4610 || port > 4629) throw new Error('the recorder uses ports 4610..4629 only');
const base = `http://127.0.0.1:${port}`;
const appDir = join(here, app);
const sourceDir = join(appDir, 'strapi-src');
const outDir = join(appDir, 'recorded');
const shadow = `/tmp/oracle-${app}`;

// ---------------------------------------------------------------------------------------------
// The app's schemas

const plugins = readAppPlugins(sourceDir);
const { types, components } = await readAppSchemas(sourceDir);
const byUid = new Map(types.map((type) => [type.uid, type]));
const customTypes = Object.fromEntries(plugins.flatMap((plugin) => Object.entries(plugin.customFields ?? {})));

const isLocalizedType = (type) => type.json.pluginOptions?.i18n?.localized === true;
const hasDrafts = (type) => type.json.options?.draftAndPublish === true;
const plural = (type) => type.json.info.pluralName;
const singular = (type) => type.json.info.singularName;
const isLocalizedAttribute = (attribute) => attribute.pluginOptions?.i18n?.localized !== false;
/** The stored type of an attribute: a custom field's is its plugin's. */
function storedType(attribute) {
  if (attribute.type !== 'customField') return attribute.type;
  const type = customTypes[attribute.customField];
  if (!type) throw new Error(`no stored type for custom field ${attribute.customField} in plugins.json`);
  return type;
}
const SCALAR = new Set(['string', 'text', 'richtext', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'enumeration', 'date', 'time', 'datetime', 'json', 'blocks', 'password']);
const isScalar = (attribute) => SCALAR.has(storedType(attribute));
// Polymorphic relations (morphOne, morphToOne…) are left out, as the importer leaves them out.
const isRelation = (attribute) => attribute.type === 'relation' && !String(attribute.relation).startsWith('morph');
const ownsRelation = (attribute) => isRelation(attribute) && !attribute.mappedBy && byUid.has(attribute.target);
const toMany = (attribute) => ['oneToMany', 'manyToMany'].includes(attribute.relation);
/** The inverse side of a to-many pair (`mappedBy`) whose owner names it back with `inversedBy`: written too. */
const isNamedInverse = (type, name, attribute) =>
  isRelation(attribute) && toMany(attribute) && typeof attribute.mappedBy === 'string' && byUid.get(attribute.target)?.attributes[attribute.mappedBy]?.inversedBy === name && byUid.get(attribute.target)?.attributes[attribute.mappedBy]?.target === type.uid;

// ---------------------------------------------------------------------------------------------
// Seeded data

function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seededRandom(20240101);
const pick = (list) => list[Math.floor(random() * list.length)];
const int = (low, high) => low + Math.floor(random() * (high - low + 1));
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'indigo', 'juniper', 'kestrel', 'lumen', 'meadow', 'nectar', 'orchid', 'prairie', 'quartz', 'river', 'summit', 'tundra', 'umber', 'valley', 'willow', 'yarrow', 'zephyr'];
const words = (count) => Array.from({ length: count }, () => pick(WORDS)).join(' ');
const pad = (value) => String(value).padStart(2, '0');
let counter = 0;
const next = () => (counter += 1);

function scalarValue(name, attribute) {
  const type = storedType(attribute);
  switch (type) {
    case 'string': {
      if (attribute.regex) {
        // Words joined by dashes, else a hex colour (color-picker fields): the first the pattern takes.
        const pattern = new RegExp(attribute.regex);
        const colour = `#${Array.from({ length: 6 }, () => '0123456789abcdef'[int(0, 15)]).join('')}`;
        const candidates = [`${pick(WORDS)}-${pick(WORDS)}-${'abcdefghij'[next() % 10]}`.replace(/[^a-z-]/g, ''), colour];
        return candidates.find((candidate) => pattern.test(candidate)) ?? candidates[0];
      }
      if (/email/i.test(name)) return `${pick(WORDS)}${next()}@example.com`;
      if (/url|href/i.test(name)) return `https://example.com/${pick(WORDS)}/${next()}`;
      const text = `${words(int(1, 3))} ${next()}`;
      return attribute.maxLength ? text.slice(0, attribute.maxLength) : text;
    }
    case 'text':
    case 'richtext': {
      const text = `${words(int(4, 9))}. ${words(int(2, 5))} ${next()}.`;
      return attribute.maxLength ? text.slice(0, attribute.maxLength) : text;
    }
    case 'email':
      return `${pick(WORDS)}${next()}@example.com`;
    case 'uid':
      return `${pick(WORDS)}-${pick(WORDS)}-${next()}`;
    case 'integer':
      return int(attribute.min ?? 0, attribute.max ?? 500);
    case 'biginteger':
      return String(int(0, 1_000_000));
    case 'float':
    case 'decimal': {
      const low = attribute.min ?? 0;
      const high = attribute.max ?? 100;
      return Math.round((low + random() * (high - low)) * 100) / 100;
    }
    case 'boolean':
      return random() < 0.5;
    case 'enumeration':
      return pick(attribute.enum);
    case 'date':
      return `2024-${pad(int(1, 12))}-${pad(int(1, 28))}`;
    case 'time':
      return `${pad(int(8, 20))}:${pad(pick([0, 15, 30, 45]))}:00.000`;
    case 'datetime':
      return `2024-${pad(int(1, 12))}-${pad(int(1, 28))}T${pad(int(0, 23))}:${pad(int(0, 59))}:00.000Z`;
    case 'json':
      if (attribute.type === 'customField' && Array.isArray(attribute.options)) {
        const values = attribute.options.map((option) => String(option).split(':').pop()).filter(Boolean);
        return [...new Set(Array.from({ length: int(1, 3) }, () => pick(values)))];
      }
      return { kind: pick(WORDS), count: int(1, 9), tags: [pick(WORDS), pick(WORDS)] };
    case 'blocks':
      return [{ type: 'paragraph', children: [{ type: 'text', text: `${words(int(3, 6))} ${next()}` }] }];
    default:
      return undefined;
  }
}

/** The uploaded files (images): what media attributes are given. */
let fileIds = [];
function mediaValue(attribute) {
  if (fileIds.length === 0) return undefined;
  const allowed = attribute.allowedTypes;
  if (allowed && !allowed.includes('images')) return undefined;
  if (attribute.multiple) return [...new Set([pick(fileIds), pick(fileIds), pick(fileIds)])];
  return pick(fileIds);
}

/**
 * Whether every required attribute of a component can be given a value here (a required video
 * cannot: only images are uploaded). Strapi does not enforce `required` on media, so such items
 * would be stored by the reference and refused by a stricter API, and every later id would shift:
 * the data leaves them out, and writes-after records that one refusal on its own.
 */
function fillable(uid) {
  return Object.values(components.get(uid).attributes).every(
    (attribute) => !attribute.required || attribute.type !== 'media' || !attribute.allowedTypes || attribute.allowedTypes.includes('images'),
  );
}

/** Entries created so far: { [uid]: [{ id, locale, draft }] }. */
const entries = new Map(types.map((type) => [type.uid, []]));
function existing(uid, locale) {
  return (entries.get(uid) ?? []).filter((entry) => !entry.deleted && (locale === undefined || entry.locale === locale));
}

/** The zone components some write has given so far. */
const zoneComponentsWritten = new Set();
function zoneItem(uid, options) {
  zoneComponentsWritten.add(uid);
  return { __component: uid, ...dataFor(components.get(uid).attributes, options) };
}

/**
 * A data object for a type or component: scalars (required always, others mostly), media,
 * components (nesting up to `depth`), zones and, when `withRelations`, relations to existing entries.
 */
function dataFor(attributes, { depth = 0, localizedOnly = false, withRelations = true, locale = 'en' } = {}) {
  const data = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    if (localizedOnly && !isLocalizedAttribute(attribute)) continue;
    if (attribute.private || storedType(attribute) === 'password') continue;
    const wanted = attribute.required || random() < 0.85;
    if (!wanted) continue;
    if (isScalar(attribute)) {
      const value = scalarValue(name, attribute);
      if (value !== undefined) data[name] = value;
    } else if (attribute.type === 'media') {
      const value = mediaValue(attribute);
      if (value !== undefined) data[name] = value;
    } else if (attribute.type === 'component') {
      if (depth > 3 || (!attribute.required && !fillable(attribute.component))) continue;
      const component = components.get(attribute.component);
      // A repeatable component's min (Strapi checks it on published entries) is honoured.
      const fewest = Math.max(attribute.required ? 1 : 0, attribute.min ?? 0);
      const most = Math.min(attribute.max ?? 3, Math.max(fewest, 3));
      if (attribute.repeatable) data[name] = Array.from({ length: int(fewest, most) }, () => dataFor(component.attributes, { depth: depth + 1, locale }));
      else data[name] = dataFor(component.attributes, { depth: depth + 1, locale });
    } else if (attribute.type === 'dynamiczone') {
      if (depth > 3) continue;
      const choices = attribute.components.filter(fillable);
      if (choices.length === 0) continue;
      data[name] = Array.from({ length: int(1, 3) }, () => zoneItem(pick(choices), { depth: depth + 1, locale }));
    } else if (withRelations && ownsRelation(attribute)) {
      const targets = existing(attribute.target, byUid.get(attribute.target) && isLocalizedType(byUid.get(attribute.target)) ? locale : undefined);
      if (targets.length === 0) continue;
      if (toMany(attribute)) data[name] = [...new Set([pick(targets).id, pick(targets).id])];
      else data[name] = pick(targets).id;
    }
  }
  return data;
}

// ---------------------------------------------------------------------------------------------
// The reference: a private copy of the installed app with this app's src/

/** The fr locale and the writer's full-access token, written beside the running reference. */
function addLocaleAndToken() {
  const require = createRequire(join(repo, 'package.json'));
  const Database = require('better-sqlite3');
  const sqlite = new Database(join(shadow, '.tmp', 'data.db'));
  const at = Date.parse('2024-01-01T08:00:00Z');
  sqlite.prepare(`INSERT INTO i18n_locale (name, code, created_at, updated_at) VALUES ('French (fr)', 'fr', ?, ?)`).run(at, at);
  const accessKey = createHmac('sha512', API_TOKEN_SALT).update(WRITER_TOKEN).digest('hex');
  sqlite
    .prepare(`INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ('writer', '', 'full-access', ?, ?, ?)`)
    .run(accessKey, at, at);
  sqlite.close();
}

// ---------------------------------------------------------------------------------------------
// Requests

function send(request) {
  return sendToReference(base, WRITER_TOKEN, request);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = 24 * 60 * 60 * 1000;
let runStartedAt = Date.now();
function normalize(value) {
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return Math.abs(Date.parse(value) - runStartedAt) <= DAY ? '<now>' : value;
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalize(item)]));
  return value;
}

/** Bracket notation, brackets unescaped as Strapi's own clients write them; values URI-encoded. */
function query(object, prefix = '') {
  const parts = [];
  const walk = (value, key) => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${key}[${index}]`));
    else if (value && typeof value === 'object') for (const [name, item] of Object.entries(value)) walk(item, key ? `${key}[${name}]` : name);
    else parts.push(`${key}=${encodeURIComponent(String(value))}`);
  };
  walk(object, prefix);
  return parts.join('&');
}
const withQuery = (path, object) => {
  const text = typeof object === 'string' ? object : query(object);
  return text ? `${path}?${text}` : path;
};

let seq = 0;
const groups = [];
function group(name) {
  const cases = [];
  groups.push({ group: name, cases });
  return cases;
}

async function step(cases, name, request) {
  seq += 1;
  const result = await send(request);
  const entry = { seq, name, request, status: result.status, response: result.response };
  if (result.responseText !== undefined) entry.responseText = result.responseText;
  cases.push(normalize(entry));
  const mark = result.status >= 500 ? '!' : result.status >= 400 ? '?' : ' ';
  if (request.method !== 'GET' || result.status >= 400) console.log(`${mark}${String(seq).padStart(4)} ${result.status} ${request.method} ${request.path.slice(0, 110)}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// 1. Uploads

function crc32(buffer) {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function png(width, height, [r, g, b]) {
  const chunk = (kind, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(kind, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(Buffer.from([0]));
    for (let x = 0; x < width; x += 1) rows.push(Buffer.from([(r + x * 3) & 255, (g + y * 3) & 255, b]));
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

async function uploadFiles() {
  const cases = group('uploads');
  const colours = [[200, 40, 40], [40, 160, 60], [30, 60, 200], [220, 180, 20], [120, 40, 160], [20, 170, 170]];
  for (const [index, colour] of colours.entries()) {
    const width = 8 + index * 6;
    const height = 6 + index * 4;
    const name = `${WORDS[index]}-${index + 1}.png`;
    const form = new FormData();
    form.append('files', new Blob([png(width, height, colour)], { type: 'image/png' }), name);
    form.append('fileInfo', JSON.stringify({ alternativeText: `${WORDS[index]} picture`, caption: `A ${WORDS[index]} square` }));
    seq += 1;
    const response = await fetch(`${base}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${WRITER_TOKEN}` }, body: form });
    const body = await response.json();
    if (response.status !== 200 && response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(body)}`);
    cases.push(normalize({ seq, name: `uploads ${name}`, request: { method: 'POST', path: '/api/upload', file: { name, width, height } }, status: response.status, response: body }));
    fileIds.push(body[0].id);
    console.log(` ${String(seq).padStart(4)} ${response.status} upload ${name} → file ${body[0].id}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Writes

const collectionTypes = () => types.filter((type) => !type.single);
const singleTypes = () => types.filter((type) => type.single);

/** Creation order: a type after the types its owned to-one relations aim at, where possible. */
function creationOrder() {
  const order = [];
  const pending = [...collectionTypes()];
  while (pending.length) {
    const ready = pending.findIndex((type) =>
      Object.values(type.attributes).every((attribute) => !ownsRelation(attribute) || attribute.target === type.uid || !pending.some((other) => other.uid === attribute.target)),
    );
    order.push(...pending.splice(ready >= 0 ? ready : 0, 1));
  }
  return order;
}

function remember(type, result, locale, draft) {
  const id = result.response?.data?.id ?? result.response?.id;
  if (result.status < 300 && id !== undefined) entries.get(type.uid).push({ id, locale, draft, response: result.response });
  return id;
}

async function writeData() {
  const cases = group('writes');
  const order = creationOrder();
  for (const type of order) {
    const count = type.uid.includes('submission') || type.uid.includes('contact') ? 3 : 5;
    for (let index = 0; index < count; index += 1) {
      const draft = hasDrafts(type) && index % 3 === 2;
      const data = dataFor(type.attributes, { locale: 'en' });
      if (draft) data.publishedAt = null;
      const populate = index === 0 ? { populate: '*' } : {};
      const result = await step(cases, `creates ${singular(type)} ${index + 1}${draft ? ' (draft)' : ''}`, { method: 'POST', path: withQuery(`/api/${plural(type)}`, populate), body: { data } });
      remember(type, result, 'en', draft);
    }
    if (isLocalizedType(type)) {
      // A French entry of its own, and French localizations of the first English ones.
      const data = { ...dataFor(type.attributes, { locale: 'fr' }), locale: 'fr' };
      const own = await step(cases, `creates a ${singular(type)} in fr`, { method: 'POST', path: `/api/${plural(type)}`, body: { data } });
      remember(type, own, 'fr', false);
      for (const source of existing(type.uid, 'en').slice(0, 2)) {
        const body = { locale: 'fr', ...dataFor(type.attributes, { localizedOnly: true, withRelations: false, locale: 'fr' }) };
        const result = await step(cases, `creates the fr localization of ${singular(type)} ${source.id}`, { method: 'POST', path: `/api/${plural(type)}/${source.id}/localizations`, body });
        remember(type, result, 'fr', true);
      }
    }
  }
  // Relations aimed at types created later, and to-many lists changed with connect and disconnect.
  for (const type of order) {
    for (const [name, attribute] of Object.entries(type.attributes)) {
      if (!ownsRelation(attribute)) continue;
      const targetType = byUid.get(attribute.target);
      for (const entry of existing(type.uid).slice(0, 3)) {
        const targets = existing(attribute.target, isLocalizedType(targetType) ? entry.locale : undefined).filter((target) => target.id !== entry.id);
        if (targets.length === 0) continue;
        let value;
        if (toMany(attribute)) {
          const connect = [...new Set([pick(targets).id, pick(targets).id])];
          value = entry.connected?.[name]?.length ? { connect: [{ id: pick(targets).id, position: { start: true } }], disconnect: [entry.connected[name][0]] } : { connect };
          entry.connected = { ...entry.connected, [name]: connect };
        } else value = pick(targets).id;
        await step(cases, `sets ${singular(type)} ${entry.id}.${name}`, { method: 'PUT', path: withQuery(`/api/${plural(type)}/${entry.id}`, { populate: { [name]: { fields: ['id'] } } }), body: { data: { [name]: value } } });
      }
    }
  }
  // The same pairs written from their inverse side (connect, then a disconnect of what was connected).
  for (const type of order) {
    for (const [name, attribute] of Object.entries(type.attributes)) {
      if (!isNamedInverse(type, name, attribute)) continue;
      const targetType = byUid.get(attribute.target);
      for (const entry of existing(type.uid).slice(0, 2)) {
        const targets = existing(attribute.target, isLocalizedType(targetType) ? entry.locale : undefined).filter((target) => target.id !== entry.id);
        if (targets.length === 0) continue;
        const connect = [...new Set([pick(targets).id, pick(targets).id])];
        const path = withQuery(`/api/${plural(type)}/${entry.id}`, { populate: { [name]: { fields: ['id'] } } });
        await step(cases, `connects ${singular(type)} ${entry.id}.${name} (inverse side)`, { method: 'PUT', path, body: { data: { [name]: { connect } } } });
        await step(cases, `disconnects ${singular(type)} ${entry.id}.${name} (inverse side)`, { method: 'PUT', path, body: { data: { [name]: { disconnect: [connect[0]] } } } });
      }
    }
  }
  // Updates: a scalar, a component in place (its id kept), a zone replaced, publication changes.
  for (const type of order) {
    const [first, second] = existing(type.uid, 'en');
    if (!first) continue;
    const scalars = Object.entries(type.attributes).filter(([, attribute]) => isScalar(attribute) && !attribute.private && storedType(attribute) !== 'uid' && !attribute.unique);
    if (scalars.length) {
      const [name, attribute] = pick(scalars);
      await step(cases, `updates ${singular(type)} ${first.id}.${name}`, { method: 'PUT', path: `/api/${plural(type)}/${first.id}`, body: { data: { [name]: scalarValue(name, attribute) } } });
    }
    for (const [name, attribute] of Object.entries(type.attributes)) {
      if (attribute.type === 'component' && !attribute.repeatable) {
        const existingComponent = first.response?.data?.attributes?.[name];
        const component = components.get(attribute.component);
        const scalarName = Object.keys(component.attributes).find((key) => isScalar(component.attributes[key]) && storedType(component.attributes[key]) !== 'uid');
        if (existingComponent?.id && scalarName) {
          await step(cases, `updates ${singular(type)} ${first.id}.${name} in place`, {
            method: 'PUT',
            path: withQuery(`/api/${plural(type)}/${first.id}`, { populate: { [name]: { populate: '*' } } }),
            body: { data: { [name]: { id: existingComponent.id, [scalarName]: scalarValue(scalarName, component.attributes[scalarName]) } } },
          });
        }
        if (second) {
          await step(cases, `replaces ${singular(type)} ${second.id}.${name}`, {
            method: 'PUT',
            path: withQuery(`/api/${plural(type)}/${second.id}`, { populate: { [name]: { populate: '*' } } }),
            body: { data: { [name]: dataFor(component.attributes, { depth: 1 }) } },
          });
        }
      }
      if (attribute.type === 'dynamiczone' && second) {
        const items = Array.from({ length: 2 }, () => zoneItem(pick(attribute.components.filter(fillable)), { depth: 1 }));
        await step(cases, `replaces ${singular(type)} ${second.id}.${name}`, { method: 'PUT', path: withQuery(`/api/${plural(type)}/${second.id}`, { populate: { [name]: { populate: '*' } } }), body: { data: { [name]: items } } });
      }
      if (attribute.type === 'component' && attribute.repeatable && second) {
        const component = components.get(attribute.component);
        await step(cases, `replaces ${singular(type)} ${second.id}.${name}`, {
          method: 'PUT',
          path: withQuery(`/api/${plural(type)}/${second.id}`, { populate: { [name]: { populate: '*' } } }),
          body: { data: { [name]: Array.from({ length: Math.min(attribute.max ?? 2, 2) }, () => dataFor(component.attributes, { depth: 1 })) } },
        });
      }
    }
    if (hasDrafts(type) && second) {
      await step(cases, `unpublishes ${singular(type)} ${second.id}`, { method: 'PUT', path: `/api/${plural(type)}/${second.id}`, body: { data: { publishedAt: null } } });
      second.draft = true;
      const draft = existing(type.uid, 'en').find((entry) => entry.draft && entry !== second);
      if (draft) {
        await step(cases, `publishes ${singular(type)} ${draft.id}`, { method: 'PUT', path: `/api/${plural(type)}/${draft.id}`, body: { data: { publishedAt: '2024-03-01T10:00:00.000Z' } } });
        draft.draft = false;
      }
    }
  }
  // Single types: created by PUT in en and fr, then changed.
  for (const type of singleTypes()) {
    const result = await step(cases, `puts ${singular(type)} (en)`, { method: 'PUT', path: withQuery(`/api/${singular(type)}`, { populate: '*' }), body: { data: dataFor(type.attributes, { locale: 'en' }) } });
    remember(type, result, 'en', false);
    if (isLocalizedType(type)) {
      // Once the entry exists, Strapi refuses a PUT in another locale (singleType.alreadyExists):
      // the other locale is made through the localizations route.
      // Both requests carry the same content, so that an API taking the PUT holds the same fr entry.
      const french = dataFor(type.attributes, { localizedOnly: true, locale: 'fr' });
      await step(cases, `puts ${singular(type)} (fr) once en exists`, { method: 'PUT', path: withQuery(`/api/${singular(type)}`, { locale: 'fr' }), body: { data: french } });
      const fr = await step(cases, `creates the fr localization of ${singular(type)}`, {
        method: 'POST',
        path: `/api/${singular(type)}/localizations`,
        body: { locale: 'fr', ...french },
      });
      remember(type, fr, 'fr', false);
    }
    const scalars = Object.entries(type.attributes).filter(([, attribute]) => attribute.type === 'component' && !attribute.repeatable);
    if (scalars.length) {
      const [name, attribute] = scalars[0];
      await step(cases, `puts ${singular(type)} (en) with a new ${name}`, {
        method: 'PUT',
        path: withQuery(`/api/${singular(type)}`, { populate: { [name]: { populate: '*' } } }),
        body: { data: { [name]: dataFor(components.get(attribute.component).attributes, { depth: 1 }) } },
      });
    }
  }
  // A few deletes: the last entry of every type.
  for (const type of order) {
    const last = existing(type.uid).at(-1);
    if (!last) continue;
    await step(cases, `deletes ${singular(type)} ${last.id}`, { method: 'DELETE', path: `/api/${plural(type)}/${last.id}` });
    last.deleted = true;
  }
  // Every component of a zone written at least once: the zone components the random data left
  // out, four to an entry, in new (English, published) entries.
  for (const type of order) {
    for (const [name, attribute] of Object.entries(type.attributes)) {
      if (attribute.type !== 'dynamiczone') continue;
      const left = attribute.components.filter((uid) => fillable(uid) && !zoneComponentsWritten.has(uid));
      for (let at = 0; at < left.length; at += 4) {
        const chunk = left.slice(at, at + 4);
        const data = { ...dataFor(type.attributes, { locale: 'en' }), [name]: chunk.map((uid) => zoneItem(uid, { depth: 1, locale: 'en' })) };
        const result = await step(cases, `creates a ${singular(type)} whose ${name} holds ${chunk.join(', ')}`, { method: 'POST', path: withQuery(`/api/${plural(type)}`, { populate: { [name]: { populate: '*' } } }), body: { data } });
        remember(type, result, 'en', false);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Reads

/** The first attributes of a type or component that a `fields` list may name. */
const fieldNames = (attributes) => Object.entries(attributes).filter(([, attribute]) => isScalar(attribute) && !attribute.private && storedType(attribute) !== 'password').map(([name]) => name);
const targetAttributes = (attribute) => (attribute.type === 'component' ? components.get(attribute.component).attributes : attribute.type === 'relation' && byUid.has(attribute.target) ? byUid.get(attribute.target).attributes : attribute.type === 'media' ? null : null);
const populatable = (attributes) => Object.entries(attributes).filter(([, attribute]) => ['component', 'dynamiczone', 'media'].includes(attribute.type) || (isRelation(attribute) && byUid.has(attribute.target)));
const SORTABLE = new Set(['string', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'enumeration', 'date', 'time', 'datetime']);

/** A populate object of everything down to `depth`, zones through `on`. */
function deepPopulate(attributes, depth) {
  const object = {};
  for (const [name, attribute] of populatable(attributes)) {
    if (attribute.type === 'media' || depth <= 1) object[name] = true;
    else if (attribute.type === 'dynamiczone') object[name] = { on: Object.fromEntries(attribute.components.map((uid) => [uid, { populate: deepPopulate(components.get(uid).attributes, depth - 1) }]).map(([uid, value]) => [uid, Object.keys(value.populate).length ? value : { populate: '*' }])) };
    else {
      const inner = deepPopulate(targetAttributes(attribute), depth - 1);
      object[name] = Object.keys(inner).length ? { populate: inner } : true;
    }
  }
  return object;
}

function scalarValueOf(entry, name) {
  return entry?.response?.data?.attributes?.[name];
}

async function readData() {
  const cases = group('reads');
  const read = (name, path) => step(cases, name, { method: 'GET', path });
  for (const type of types) {
    const base = type.single ? `/api/${singular(type)}` : `/api/${plural(type)}`;
    const localized = isLocalizedType(type);
    const drafts = hasDrafts(type);
    const locales = localized ? ['en', 'fr'] : [undefined];
    await read(`${singular(type)}: plain`, base);
    await read(`${singular(type)}: populate=*`, withQuery(base, 'populate=*'));
    if (localized) {
      await read(`${singular(type)}: fr`, withQuery(base, 'locale=fr'));
      await read(`${singular(type)}: fr populate=*`, withQuery(base, 'locale=fr&populate=*'));
      await read(`${singular(type)}: locale=all`, withQuery(base, { locale: 'all', sort: ['id:asc'] }));
    }
    if (drafts) {
      await read(`${singular(type)}: preview`, withQuery(base, 'publicationState=preview'));
      await read(`${singular(type)}: preview, fields`, withQuery(base, { publicationState: 'preview', fields: ['publishedAt'] }));
      if (localized) await read(`${singular(type)}: preview fr`, withQuery(base, 'publicationState=preview&locale=fr'));
    }
    for (const locale of locales) {
      const loc = locale ? { locale } : {};
      const tag = locale ? ` (${locale})` : '';
      await read(`${singular(type)}: deep populate, depth 3${tag}`, withQuery(base, { ...loc, populate: deepPopulate(type.attributes, 3) }));
      await read(`${singular(type)}: deep populate, depth 4${tag}`, withQuery(base, { ...loc, populate: deepPopulate(type.attributes, 4) }));
    }
    const fields = fieldNames(type.attributes);
    if (fields.length) {
      await read(`${singular(type)}: fields`, withQuery(base, { fields: fields.slice(0, 2) }));
      await read(`${singular(type)}: one field`, withQuery(base, { fields: [fields.at(-1)] }));
    }
    for (const [name, attribute] of populatable(type.attributes)) {
      await read(`${singular(type)}: populate[${name}]=*`, withQuery(base, { populate: { [name]: '*' } }));
      await read(`${singular(type)}: populate=${name}`, withQuery(base, `populate=${name}`));
      await read(`${singular(type)}: populate[0]=${name}`, withQuery(base, { populate: [name] }));
      if (attribute.type === 'dynamiczone') {
        await read(`${singular(type)}: populate[${name}][populate]=*`, withQuery(base, { populate: { [name]: { populate: '*' } } }));
        for (const uid of attribute.components.slice(0, 4)) {
          await read(`${singular(type)}: ${name} on ${uid}`, withQuery(base, { populate: { [name]: { on: { [uid]: { populate: '*' } } } } }));
        }
        continue;
      }
      const target = targetAttributes(attribute);
      if (!target) {
        await read(`${singular(type)}: ${name} fields`, withQuery(base, { populate: { [name]: { fields: ['name', 'mime', 'width'] } } }));
        continue;
      }
      const targetFields = fieldNames(target);
      if (targetFields.length) await read(`${singular(type)}: ${name} fields`, withQuery(base, { populate: { [name]: { fields: targetFields.slice(0, 1) } } }));
      await read(`${singular(type)}: populate[${name}][populate]=*`, withQuery(base, { populate: { [name]: { populate: '*' } } }));
      for (const [inner, innerAttribute] of populatable(target).slice(0, 3)) {
        await read(`${singular(type)}: populate=${name}.${inner}`, withQuery(base, `populate=${name}.${inner}`));
        const innerTarget = targetAttributes(innerAttribute);
        if (innerTarget && populatable(innerTarget).length) {
          const [deepest] = populatable(innerTarget)[0];
          await read(`${singular(type)}: ${name}.${inner}.${deepest}`, withQuery(base, { populate: { [name]: { populate: { [inner]: { populate: { [deepest]: '*' } } } } } }));
        }
      }
      if (isRelation(attribute) && targetFields.length && !type.single) {
        const targetType = byUid.get(attribute.target);
        const related = existing(attribute.target)[0];
        const field = targetFields.find((candidate) => typeof scalarValueOf(related, candidate) === 'string');
        if (field) {
          await read(`${singular(type)}: filter through ${name}.${field}`, withQuery(base, { filters: { [name]: { [field]: { $eq: scalarValueOf(related, field) } } }, populate: { [name]: { fields: [field] } } }));
        }
        await read(`${singular(type)}: filter ${name}.id`, withQuery(base, { filters: { [name]: { id: { $in: existing(attribute.target).slice(0, 2).map((entry) => entry.id) } } } }));
        await read(`${singular(type)}: filter ${name} null`, withQuery(base, { filters: { [name]: { id: { $null: true } } } }));
        const sortField = targetFields.find((candidate) => SORTABLE.has(storedType(targetType.attributes[candidate])));
        if (!toMany(attribute) && sortField) {
          await read(`${singular(type)}: sort by ${name}.${sortField}`, withQuery(base, { sort: [`${name}.${sortField}:asc`, 'id:asc'], populate: { [name]: { fields: [sortField] } } }));
        }
      }
      if (attribute.type === 'component' && !type.single) {
        const sample = existing(type.uid).map((entry) => entry.response?.data?.attributes?.[name]).find((value) => value && !Array.isArray(value));
        const field = targetFields.find((candidate) => typeof sample?.[candidate] === 'string');
        if (field) await read(`${singular(type)}: filter through component ${name}.${field}`, withQuery(base, { filters: { [name]: { [field]: { $eq: sample[field] } } }, fields: fields.slice(0, 1) }));
        const sortField = targetFields.find((candidate) => SORTABLE.has(storedType(target[candidate])));
        if (!attribute.repeatable && sortField) await read(`${singular(type)}: sort by ${name}.${sortField}`, withQuery(base, { sort: [`${name}.${sortField}:desc`, 'id:asc'], fields: fields.slice(0, 1) }));
      }
    }
    if (type.single) {
      for (const locale of locales.filter(Boolean)) await read(`${singular(type)}: locale ${locale}, populate=*`, withQuery(base, { locale, populate: '*' }));
      continue;
    }
    // Scalars: sort both ways, filters on values the data holds.
    const sample = existing(type.uid, localized ? 'en' : undefined).find((entry) => entry.response?.data?.attributes) ?? existing(type.uid)[0];
    for (const name of fields) {
      const attribute = type.attributes[name];
      const stored = storedType(attribute);
      if (SORTABLE.has(stored)) {
        await read(`${singular(type)}: sort ${name} asc`, withQuery(base, { sort: [`${name}:asc`, 'id:asc'], fields: [name] }));
        await read(`${singular(type)}: sort ${name} desc`, withQuery(base, `sort=${name}:desc,id:desc&fields[0]=${name}`));
      }
      const value = scalarValueOf(sample, name);
      if (value === undefined || value === null || typeof value === 'object') {
        if (stored !== 'json' && stored !== 'blocks') await read(`${singular(type)}: filter ${name} $null`, withQuery(base, { filters: { [name]: { $null: true } }, fields: [name] }));
        continue;
      }
      await read(`${singular(type)}: filter ${name} $eq`, withQuery(base, { filters: { [name]: { $eq: value } } }));
      await read(`${singular(type)}: filter ${name} $ne`, withQuery(base, { filters: { [name]: { $ne: value } }, fields: [name] }));
      if (typeof value === 'string' && ['string', 'text', 'richtext', 'email', 'uid'].includes(stored)) {
        const part = value.slice(1, 5).toLowerCase();
        await read(`${singular(type)}: filter ${name} $containsi`, withQuery(base, { filters: { [name]: { $containsi: part } }, fields: [name] }));
        await read(`${singular(type)}: filter ${name} $startsWith`, withQuery(base, { filters: { [name]: { $startsWith: value.slice(0, 3) } }, fields: [name] }));
      }
      if (['integer', 'float', 'decimal', 'date', 'datetime', 'time'].includes(stored)) {
        await read(`${singular(type)}: filter ${name} $gt`, withQuery(base, { filters: { [name]: { $gt: value } }, fields: [name] }));
        await read(`${singular(type)}: filter ${name} $lte`, withQuery(base, { filters: { [name]: { $lte: value } }, fields: [name] }));
      }
    }
    await read(`${singular(type)}: $or of ids`, withQuery(base, { filters: { $or: [{ id: { $eq: 1 } }, { id: { $gt: 3 } }] }, fields: fields.slice(0, 1) }));
    // Pagination.
    await read(`${singular(type)}: page 2 of 2`, withQuery(base, { pagination: { page: 2, pageSize: 2 } }));
    await read(`${singular(type)}: start 1 limit 2`, withQuery(base, { pagination: { start: 1, limit: 2 } }));
    await read(`${singular(type)}: without count`, withQuery(base, { pagination: { pageSize: 3, withCount: false } }));
    if (localized) await read(`${singular(type)}: fr page 1 of 1`, withQuery(base, { locale: 'fr', pagination: { page: 1, pageSize: 1 } }));
    // findOne: every live entry, drafts with preview.
    for (const entry of existing(type.uid)) {
      const state = entry.draft && drafts ? { publicationState: 'preview' } : {};
      await read(`${singular(type)} ${entry.id}`, withQuery(`${base}/${entry.id}`, state));
      await read(`${singular(type)} ${entry.id}: populate=*`, withQuery(`${base}/${entry.id}`, { ...state, populate: '*' }));
      if (localized) await read(`${singular(type)} ${entry.id}: localizations`, withQuery(`${base}/${entry.id}`, { ...state, populate: { localizations: { fields: ['locale'] } } }));
    }
    const gone = (entries.get(type.uid) ?? []).find((entry) => entry.deleted);
    if (gone) await read(`${singular(type)} ${gone.id}: deleted`, `${base}/${gone.id}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Writes after the reads

async function writeMore() {
  const cases = group('writes-after');
  for (const type of collectionTypes()) {
    const required = Object.entries(type.attributes).find(([, attribute]) => attribute.required && isScalar(attribute));
    if (required) {
      const data = dataFor(type.attributes);
      delete data[required[0]];
      await step(cases, `refuses a ${singular(type)} without ${required[0]}`, { method: 'POST', path: `/api/${plural(type)}`, body: { data } });
    }
    const [first] = existing(type.uid, isLocalizedType(type) ? 'en' : undefined);
    if (first) {
      await step(cases, `deletes ${singular(type)} ${first.id} with populate`, { method: 'DELETE', path: withQuery(`/api/${plural(type)}/${first.id}`, 'populate=*') });
      first.deleted = true;
      await step(cases, `reads the list after deleting ${singular(type)} ${first.id}`, { method: 'GET', path: withQuery(`/api/${plural(type)}`, 'publicationState=preview&locale=all&populate=*') });
    }
  }
  for (const type of collectionTypes()) {
    for (const [name, attribute] of Object.entries(type.attributes)) {
      if (attribute.type !== 'dynamiczone') continue;
      const uid = attribute.components.find((candidate) => !fillable(candidate));
      if (!uid) continue;
      const data = { ...dataFor(type.attributes), [name]: [{ __component: uid, ...dataFor(components.get(uid).attributes, { depth: 1 }) }] };
      await step(cases, `creates a ${singular(type)} whose ${uid} lacks its required media`, { method: 'POST', path: withQuery(`/api/${plural(type)}`, { populate: { [name]: { populate: '*' } } }), body: { data } });
    }
  }
  for (const type of singleTypes()) {
    if (isLocalizedType(type)) {
      await step(cases, `deletes ${singular(type)} (fr)`, { method: 'DELETE', path: withQuery(`/api/${singular(type)}`, 'locale=fr') });
      await step(cases, `reads ${singular(type)} (fr) after its delete`, { method: 'GET', path: withQuery(`/api/${singular(type)}`, 'locale=fr') });
    }
    await step(cases, `deletes ${singular(type)}`, { method: 'DELETE', path: `/api/${singular(type)}` });
    await step(cases, `reads ${singular(type)} after its delete`, { method: 'GET', path: `/api/${singular(type)}` });
  }
}

/**
 * The public role's find and findOne on every type and find on files, written beside the running
 * reference (Strapi reads them on every request), as the replay's permissions.yaml grants them.
 */
function grantPublicReads() {
  const require = createRequire(join(repo, 'package.json'));
  const Database = require('better-sqlite3');
  const sqlite = new Database(join(shadow, '.tmp', 'data.db'));
  const at = Date.parse('2024-01-01T08:00:00Z');
  const role = sqlite.prepare(`SELECT id FROM up_roles WHERE type = 'public'`).get().id;
  const actions = [...types.flatMap((type) => [`${type.uid}.find`, `${type.uid}.findOne`]), 'plugin::upload.content-api.find'];
  const insert = sqlite.prepare(`INSERT INTO up_permissions (action, created_at, updated_at) VALUES (?, ?, ?)`);
  const link = sqlite.prepare(`INSERT INTO up_permissions_role_links (permission_id, role_id, permission_order) VALUES (?, ?, ?)`);
  actions.forEach((action, index) => link.run(insert.run(action, at, at).lastInsertRowid, role, index + 1));
  sqlite.close();
}

/** Reads without a token: the public role, which may find and findOne every type and find files. */
async function readAsPublic() {
  grantPublicReads();
  const cases = group('public-reads');
  const read = (name, path) => step(cases, name, { method: 'GET', path, token: 'none' });
  for (const type of types) {
    const base = type.single ? `/api/${singular(type)}` : `/api/${plural(type)}`;
    await read(`public ${singular(type)}: plain`, base);
    await read(`public ${singular(type)}: populate=*`, withQuery(base, 'populate=*'));
    await read(`public ${singular(type)}: deep populate`, withQuery(base, { populate: deepPopulate(type.attributes, 3) }));
    if (isLocalizedType(type)) await read(`public ${singular(type)}: fr`, withQuery(base, { locale: 'fr', populate: '*' }));
    // The reference lets any role with find read drafts; the package asks for preview (docs/deviations.md, D7).
    if (hasDrafts(type)) await read(`public ${singular(type)}: preview`, withQuery(base, 'publicationState=preview'));
    const entry = type.single ? undefined : existing(type.uid).find((candidate) => !candidate.draft);
    if (entry) await read(`public ${singular(type)} ${entry.id}: populate=*`, withQuery(`${base}/${entry.id}`, 'populate=*'));
  }
  await read('public: upload files are not a content type route', '/api/files');
}

/** To-many lists reordered and shortened: connect with a position, disconnect, set. */
async function reorderRelations() {
  const cases = groups.find((entry) => entry.group === 'writes-after').cases;
  for (const type of collectionTypes()) {
    for (const [name, attribute] of Object.entries(type.attributes)) {
      if (!ownsRelation(attribute) || !toMany(attribute)) continue;
      const targetType = byUid.get(attribute.target);
      const entry = existing(type.uid, isLocalizedType(type) ? 'en' : undefined).find((candidate) => candidate.connected?.[name]?.length);
      if (!entry) continue;
      const targets = existing(attribute.target, isLocalizedType(targetType) ? entry.locale : undefined).filter((target) => target.id !== entry.id);
      if (targets.length < 2) continue;
      const populate = { populate: { [name]: { fields: ['id'] } }, publicationState: 'preview' };
      const path = withQuery(`/api/${plural(type)}/${entry.id}`, populate);
      const [first, second] = [targets[0].id, targets[1].id];
      await step(cases, `connects ${type.api} ${entry.id}.${name} ${first} at the start`, { method: 'PUT', path, body: { data: { [name]: { connect: [{ id: first, position: { start: true } }] } } } });
      await step(cases, `connects ${type.api} ${entry.id}.${name} ${second} after ${first}`, { method: 'PUT', path, body: { data: { [name]: { connect: [{ id: second, position: { after: first } }] } } } });
      await step(cases, `disconnects ${type.api} ${entry.id}.${name} ${first}`, { method: 'PUT', path, body: { data: { [name]: { disconnect: [first] } } } });
      await step(cases, `sets ${type.api} ${entry.id}.${name} to [${second}]`, { method: 'PUT', path, body: { data: { [name]: { set: [second] } } } });
      await step(cases, `empties ${type.api} ${entry.id}.${name}`, { method: 'PUT', path, body: { data: { [name]: [] } } });
    }
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  ensurePlugins(plugins);
  prepareAppCopy({ shadow, sourceDir, types, plugins });
  const child = bootReference(shadow, port);
  try {
    await waitUntilServing(child, `${base}/_health`, (response) => response.status < 500);
    addLocaleAndToken();
    runStartedAt = Date.now();
    await uploadFiles();
    await writeData();
    await readData();
    await readAsPublic();
    await writeMore();
    await reorderRelations();
    mkdirSync(outDir, { recursive: true });
    for (const name of readdirSync(outDir)) if (name.endsWith('.json')) rmSync(join(outDir, name));
    for (const [order, { group: name, cases }] of groups.entries()) {
      writeFileSync(join(outDir, `${name}.json`), JSON.stringify({ group: name, order: order + 1, cases }, null, 1) + '\n');
    }
    const index = {
      reference: 'Strapi 4.26.2',
      app,
      token: { name: 'writer', type: 'full-access', value: WRITER_TOKEN },
      locales: ['en', 'fr'],
      groups: groups.map(({ group: name, cases }) => ({ group: name, file: `${name}.json`, cases: cases.length })),
      total: groups.reduce((sum, { cases }) => sum + cases.length, 0),
    };
    writeFileSync(join(outDir, 'index.json'), JSON.stringify(index, null, 2) + '\n');
    console.log(`${index.total} steps recorded in ${outDir}: ${index.groups.map((entry) => `${entry.group} ${entry.cases}`).join(', ')}`);
  } finally {
    await stopReference(child);
    if (process.argv.includes('--keep')) console.log(`reference copy kept: ${shadow}`);
    else rmSync(shadow, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
