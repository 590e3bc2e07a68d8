// A private copy of the reference app (Strapi 4.26.2, installed once at ORACLE_APP) serving the
// schemas of one app of test/apps/, as the recorders of test/apps and test/graphql boot it (run by
// hand, never by npm test). The copy has the app's schemas as its src/ with Strapi's core routers,
// controllers and services for every type (nothing else of the app's code), the app's custom-field
// plugins installed apart into ORACLE_PLUGINS_DIR, and a fresh SQLite database.
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { watchReference } from '../support/reference-process.mjs';

const ORACLE_DIR = process.env.ORACLE_DIR ?? join(process.env.HOME ?? '/root', '.cache', 'strapi-oracle');
/** The installed reference app whose node_modules every copy links to. */
export const referenceApp = process.env.ORACLE_APP ?? join(ORACLE_DIR, 'strapi-app');
/** Where the apps' custom-field plugins are installed, apart from the reference's own install. */
export const pluginsDir = process.env.ORACLE_PLUGINS_DIR ?? '/tmp/oracle-plugins';

/**
 * The content types (uid, api folder or local plugin, name, schema) and components of an app's
 * strapi-src/. A local plugin's types are read as the importer reads them (schema.json, or a
 * module exporting a plain object literal): the package must be built.
 */
export async function readAppSchemas(sourceDir) {
  const types = [];
  const apiDir = join(sourceDir, 'src', 'api');
  for (const api of readdirSync(apiDir).sort()) {
    const ctDir = join(apiDir, api, 'content-types');
    if (!existsSync(ctDir)) continue;
    for (const name of readdirSync(ctDir).sort()) {
      const json = JSON.parse(readFileSync(join(ctDir, name, 'schema.json'), 'utf8'));
      types.push({ uid: `api::${api}.${name}`, api, name, json, attributes: json.attributes, single: json.kind === 'singleType' });
    }
  }
  types.push(...(await readLocalPluginTypes(sourceDir)));
  const components = new Map();
  const compDir = join(sourceDir, 'src', 'components');
  for (const category of existsSync(compDir) ? readdirSync(compDir).sort() : []) {
    for (const file of readdirSync(join(compDir, category)).sort()) {
      if (!file.endsWith('.json')) continue;
      const json = JSON.parse(readFileSync(join(compDir, category, file), 'utf8'));
      components.set(`${category}.${file.slice(0, -5)}`, { uid: `${category}.${file.slice(0, -5)}`, json, attributes: json.attributes });
    }
  }
  return { types, components };
}

/** The content types of the app's own plugins (src/plugins/<dir>/server/content-types/<name>/). */
async function readLocalPluginTypes(sourceDir) {
  const { readSchemaModule } = await import('../../dist/plugin/schema/schema-modules.js');
  const types = [];
  const pluginsDir = join(sourceDir, 'src', 'plugins');
  for (const dir of existsSync(pluginsDir) ? readdirSync(pluginsDir).sort() : []) {
    const manifest = join(pluginsDir, dir, 'package.json');
    const plugin = (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).strapi?.name) || dir;
    const ctDir = join(pluginsDir, dir, 'server', 'content-types');
    for (const name of existsSync(ctDir) ? readdirSync(ctDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort() : []) {
      const jsonFile = join(ctDir, name, 'schema.json');
      const json = existsSync(jsonFile) ? JSON.parse(readFileSync(jsonFile, 'utf8')) : (await readSchemaModule(sourceDir, `src/plugins/${dir}/server/content-types/${name}`))?.json;
      if (json) types.push({ uid: `plugin::${plugin}.${name}`, api: `${plugin}-${name}`, plugin, pluginDir: dir, name, json, attributes: json.attributes, single: json.kind === 'singleType' });
    }
  }
  return types;
}

/** The plugins of an app's plugins.json that the reference must load (those with custom fields or routes). */
export function readAppPlugins(sourceDir) {
  const file = join(sourceDir, 'plugins.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).plugins : [];
}

/** Whether the plugin is installed at the version plugins.json names (npm may keep a leading "v"). */
function installed(plugin) {
  const file = join(pluginsDir, 'node_modules', plugin.package, 'package.json');
  return existsSync(file) && String(JSON.parse(readFileSync(file, 'utf8')).version).replace(/^v/, '') === plugin.version;
}

/** Installs the plugins not yet installed at their version into pluginsDir. */
export function ensurePlugins(plugins) {
  const missing = plugins.filter((plugin) => !installed(plugin));
  if (missing.length === 0) return;
  mkdirSync(pluginsDir, { recursive: true });
  if (!existsSync(join(pluginsDir, 'package.json'))) writeFileSync(join(pluginsDir, 'package.json'), '{ "name": "oracle-plugins", "private": true }\n');
  execFileSync('npm', ['install', '--no-save', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund', ...missing.map((plugin) => `${plugin.package}@${plugin.version}`)], { cwd: pluginsDir, stdio: 'inherit' });
}

const coreFile = (factory, uid) => `'use strict';\n\nconst { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.${factory}('${uid}');\n`;

/**
 * Makes `shadow` afresh: the reference app's config, public folder, package.json and .env, its
 * node_modules linked, the app's src/ with core files for every type, and a config/plugins.js
 * loading the app's plugins plus `extraPlugins` (entries of that object, as JavaScript source).
 */
export function prepareAppCopy({ shadow, sourceDir, types, plugins, extraPlugins = '' }) {
  rmSync(shadow, { recursive: true, force: true });
  mkdirSync(join(shadow, '.tmp'), { recursive: true });
  for (const entry of ['config', 'public', 'package.json', '.env']) cpSync(join(referenceApp, entry), join(shadow, entry), { recursive: true });
  symlinkSync(join(referenceApp, 'node_modules'), join(shadow, 'node_modules'));
  cpSync(join(sourceDir, 'src'), join(shadow, 'src'), { recursive: true });
  // Only the app's schemas are kept: its own routes, controllers and middlewares (populate
  // middlewares rewriting queries) would not be Strapi's behaviour; every type gets the core ones.
  for (const type of types.filter((candidate) => !candidate.plugin)) {
    const folder = join(shadow, 'src', 'api', type.api);
    for (const [kind, factory] of [['routes', 'createCoreRouter'], ['controllers', 'createCoreController'], ['services', 'createCoreService']]) {
      mkdirSync(join(folder, kind), { recursive: true });
      writeFileSync(join(folder, kind, `${type.name}.js`), coreFile(factory, type.uid));
    }
  }
  const localPlugins = writeLocalPlugins(shadow, types);
  // A plugin's `config` in plugins.json (settings its config validator asks for at boot) is passed as the app passes it.
  const pluginEntries = plugins
    .map((plugin) => `  '${plugin.name}': { enabled: true, resolve: ${JSON.stringify(join(pluginsDir, 'node_modules', plugin.package))}${plugin.config ? `, config: ${JSON.stringify(plugin.config)}` : ''} },`)
    .join('\n');
  writePluginsConfig(shadow, [pluginEntries, localPlugins, extraPlugins].filter(Boolean).join('\n'));
}

/**
 * Each local plugin with content types, in the copy, as a plugin holding those types and Strapi's
 * core controller, service and content-API routes for each, at /api/<pluralName> as for the app's
 * own types (nothing else of the plugin's code: its routes, register and bootstrap are the app's).
 * Returns the config/plugins.js entries enabling them.
 */
function writeLocalPlugins(shadow, types) {
  const byPlugin = new Map();
  for (const type of types.filter((candidate) => candidate.plugin)) byPlugin.set(type.pluginDir, [...(byPlugin.get(type.pluginDir) ?? []), type]);
  const entries = [];
  for (const [dir, pluginTypes] of byPlugin) {
    const folder = join(shadow, 'src', 'plugins', dir);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const plugin = pluginTypes[0].plugin;
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: plugin, version: '0.0.0', strapi: { name: plugin, kind: 'plugin' } }, null, 2));
    const unprefixed = JSON.stringify(Object.fromEntries(['find', 'findOne', 'create', 'update', 'delete'].map((action) => [action, { prefix: '' }])));
    const map = (make) => `{ ${pluginTypes.map((type) => `${JSON.stringify(type.name)}: ${make(type)}`).join(', ')} }`;
    writeFileSync(
      join(folder, 'strapi-server.js'),
      `'use strict';\n\nconst { factories } = require('@strapi/strapi');\n\nmodule.exports = {\n` +
        `  contentTypes: ${map((type) => `{ schema: ${JSON.stringify(type.json)} }`)},\n` +
        `  controllers: ${map((type) => `factories.createCoreController('${type.uid}')`)},\n` +
        `  services: ${map((type) => `factories.createCoreService('${type.uid}')`)},\n` +
        `  routes: ${map((type) => `factories.createCoreRouter('${type.uid}', { config: ${unprefixed} })`)},\n};\n`,
    );
    entries.push(`  ${JSON.stringify(plugin)}: { enabled: true, resolve: './src/plugins/${dir}' },`);
  }
  return entries.join('\n');
}

/** The copy's config/plugins.js: the users-permissions secret, then `entries` (JavaScript source). */
export function writePluginsConfig(shadow, entries) {
  writeFileSync(
    join(shadow, 'config', 'plugins.js'),
    `module.exports = ({ env }) => ({\n  'users-permissions': { config: { jwtSecret: env('JWT_SECRET', 'oracle-jwt-secret') } },\n${entries}\n});\n`,
  );
}

/** Starts the reference in `shadow` on 127.0.0.1:port, in production mode, as a watched child process. */
export function bootReference(shadow, port) {
  const child = spawn(process.execPath, [join(referenceApp, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'start'], {
    cwd: shadow,
    // NODE_PATH: the plugins installed apart find their peer dependencies (yup, lodash…) in the
    // reference's node_modules, as they would in the app's own.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_FILENAME: '.tmp/data.db',
      STRAPI_TELEMETRY_DISABLED: 'true',
      STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true',
      NODE_PATH: [join(referenceApp, 'node_modules'), process.env.NODE_PATH].filter(Boolean).join(':'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchReference(child);
}
