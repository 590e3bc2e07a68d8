/**
 * Custom fields of a Strapi v4 app. A schema says `"type": "customField", "customField":
 * "plugin::ckeditor.CKEditor"`; Strapi replaces the type at boot by the one the field was
 * registered with (`strapi.customFields.register({ name, plugin, type })`), so the column holds a
 * plain string, text, json… The importer needs that stored type. It is read, never run, from the
 * registering code: the app's plugins under node_modules and src/plugins, and the app's own
 * src/index (for `global::` fields). Code that builds the call from variables is not understood;
 * the database's column or an explicit option then says the type.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Knex } from 'knex';
import { columnName } from '../storage/naming.js';

/** The types Strapi 4.26.2 lets a custom field store (its registry's ALLOWED_TYPES). */
export const CUSTOM_FIELD_TYPES = [
  'biginteger', 'boolean', 'date', 'datetime', 'decimal', 'email', 'enumeration', 'float',
  'integer', 'json', 'password', 'richtext', 'string', 'text', 'time', 'uid',
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export function isCustomFieldType(type: string): type is CustomFieldType {
  return (CUSTOM_FIELD_TYPES as readonly string[]).includes(type);
}

/** A registration found in an app: the field's uid and stored type, and the file that says so. */
export interface RegisteredCustomField {
  readonly uid: string;
  readonly type: CustomFieldType;
  /** Relative to the app folder: `node_modules/@ckeditor/strapi-plugin-ckeditor/server/register.js`. */
  readonly source: string;
}

/** A plugin's code folder and the plugin names Strapi knows it by. */
interface PluginFolder {
  readonly dir: string;
}

const CODE_FILE = /\.(c|m)?(j|t)s$/;
/** Folders whose code never runs on the server, or is not the plugin's own. */
const SKIPPED_FOLDERS = new Set(['admin', 'node_modules', '__tests__', 'test', 'tests', 'docs', '.git']);
/** Enough for any plugin's server code; a runaway package is not read to its end. */
const MAX_FILES_PER_PLUGIN = 400;

/**
 * Every custom field registered by code the app holds, by uid. A plugin field is
 * `plugin::<plugin>.<name>` (the `plugin` key names an installed plugin), else `global::<name>`.
 */
export async function findRegisteredCustomFields(appDir: string): Promise<Map<string, RegisteredCustomField>> {
  const found = new Map<string, RegisteredCustomField>();
  const plugins = [...(await installedPlugins(join(appDir, 'node_modules'))), ...(await localPlugins(join(appDir, 'src', 'plugins')))];
  const files = [...(await Promise.all(plugins.map((plugin) => codeFiles(plugin.dir, MAX_FILES_PER_PLUGIN)))).flat(), ...(await appEntryFiles(appDir))];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (!text.includes('customFields')) continue;
    for (const field of registrationsIn(text)) {
      const uid = field.plugin ? `plugin::${field.plugin}.${field.name}` : `global::${field.name}`;
      if (!found.has(uid)) found.set(uid, { uid, type: field.type, source: relative(appDir, file) });
    }
  }
  return found;
}

/** The stored type Strapi's own layout gives a column: what a custom field holds in a database written by Strapi. */
export async function columnTypeInDatabase(knex: Knex, table: string, attributeName: string): Promise<CustomFieldType | null> {
  const columns = (await knex(table).columnInfo().catch(() => ({}))) as Record<string, { type: string }>;
  const sqlType = columns[columnName(attributeName)]?.type.toLowerCase();
  return sqlType === undefined ? null : strapiTypeOfColumn(sqlType);
}

/** A column's SQL type (SQLite's declared type, PostgreSQL's data_type) as the Strapi type that creates it. */
function strapiTypeOfColumn(sqlType: string): CustomFieldType | null {
  if (/^(varchar|character varying)/.test(sqlType)) return 'string';
  if (sqlType === 'text') return 'text';
  if (sqlType === 'integer' || sqlType === 'int') return 'integer';
  if (sqlType === 'bigint' || sqlType === 'biginteger') return 'biginteger';
  if (/^(float|double|real)/.test(sqlType)) return 'float';
  if (/^(decimal|numeric)/.test(sqlType)) return 'decimal';
  if (sqlType === 'boolean') return 'boolean';
  if (sqlType === 'date') return 'date';
  if (/^time(\(\d\))?( without time zone)?$/.test(sqlType)) return 'time';
  if (/^(datetime|timestamp)/.test(sqlType)) return 'datetime';
  if (sqlType === 'json' || sqlType === 'jsonb') return 'json';
  return null;
}

/** The packages under node_modules (scoped ones included) whose package.json says they are Strapi plugins. */
async function installedPlugins(nodeModules: string): Promise<PluginFolder[]> {
  const plugins: PluginFolder[] = [];
  for (const name of await folderNames(nodeModules)) {
    const dirs = name.startsWith('@') ? (await folderNames(join(nodeModules, name))).map((inner) => join(nodeModules, name, inner)) : [join(nodeModules, name)];
    for (const dir of dirs) {
      const manifest = await readManifest(dir);
      if (manifest?.strapi?.kind === 'plugin') plugins.push({ dir });
    }
  }
  return plugins;
}

/** The app's own plugins under src/plugins, whatever their manifest says. */
async function localPlugins(pluginsDir: string): Promise<PluginFolder[]> {
  return (await folderNames(pluginsDir)).map((name) => ({ dir: join(pluginsDir, name) }));
}

/** The app's src/index, where `register` may add `global::` fields. */
async function appEntryFiles(appDir: string): Promise<string[]> {
  const src = join(appDir, 'src');
  return (await readdir(src).catch(() => [] as string[])).filter((name) => /^index\.(c|m)?(j|t)s$/.test(name)).map((name) => join(src, name));
}

async function readManifest(dir: string): Promise<{ strapi?: { kind?: string } } | null> {
  try {
    return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { strapi?: { kind?: string } };
  } catch {
    return null;
  }
}

/** The code files under `dir`, breadth first, without admin bundles, tests and nested packages. */
async function codeFiles(dir: string, limit: number): Promise<string[]> {
  const files: string[] = [];
  const queue = [dir];
  while (queue.length && files.length < limit) {
    const current = queue.shift()!;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) queue.push(join(current, entry.name));
      else if (entry.isFile() && CODE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(join(current, entry.name));
    }
  }
  return files.slice(0, limit);
}

async function folderNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory() || entry.isSymbolicLink()).map((entry) => entry.name).sort();
}

interface Registration {
  name: string;
  plugin: string | null;
  type: CustomFieldType;
}

/**
 * The `{ name, plugin, type }` objects passed to `customFields.register(…)` in a file's text,
 * one object or an array of them, keys written as string literals.
 */
export function registrationsIn(text: string): Registration[] {
  const registrations: Registration[] = [];
  const call = /customFields\s*\.\s*register\s*\(/g;
  for (let match = call.exec(text); match; match = call.exec(text)) {
    const argument = balancedFrom(text, match.index + match[0].length - 1, '(', ')');
    for (const object of topLevelObjects(argument)) {
      const name = stringKey(object, 'name');
      const type = stringKey(object, 'type');
      if (name && type && isCustomFieldType(type)) registrations.push({ name, plugin: stringKey(object, 'plugin'), type });
    }
  }
  return registrations;
}

/** The text from the opening bracket at `start` to its matching close (string literals skipped). */
function balancedFrom(text: string, start: number, open: string, close: string): string {
  let depth = 0;
  let quote: string | null = null;
  for (let at = start; at < text.length; at++) {
    const char = text[at]!;
    if (quote) {
      if (char === '\\') at++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === open) depth++;
    else if (char === close && --depth === 0) return text.slice(start, at + 1);
  }
  return text.slice(start);
}

/** The outermost `{…}` blocks of a call's argument text. */
function topLevelObjects(argument: string): string[] {
  const objects: string[] = [];
  for (let at = argument.indexOf('{'); at >= 0; ) {
    const object = balancedFrom(argument, at, '{', '}');
    objects.push(object);
    at = argument.indexOf('{', at + object.length);
  }
  return objects;
}

/** The string literal given to `key` at the object's top level, or null. */
function stringKey(object: string, key: string): string | null {
  const literal = new RegExp(`(?:^|[{,\\s])["']?${key}["']?\\s*:\\s*(["'\`])([^"'\`]*)\\1`).exec(object);
  return literal ? literal[2]! : null;
}
