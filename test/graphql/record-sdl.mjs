#!/usr/bin/env node
// Records the GraphQL schema the reference (Strapi 4.26.2 with @strapi/plugin-graphql 4.26.2)
// generates for the conformance kit's app and for each app of test/apps/, as the expectations of
// test/graphql/sdl.test.ts. Run by hand, never by `npm test`:
//
//   node test/graphql/record-sdl.mjs [name…] [--port 4720]
//
// With no name, records every schema below. For each one it makes a private copy of the reference
// app (test/apps/reference-copy.mjs) with the app's schemas and the GraphQL plugin enabled with
// introspection on, boots it on a fresh SQLite database on 127.0.0.1, sends the standard
// introspection query to POST /graphql, and writes
// printSchema(lexicographicSortSchema(buildClientSchema(answer))) to test/graphql/sdl/<name>.graphql.
// The plugin must be installed into the reference once, without changing its lock file:
//   (cd "$ORACLE_DIR/strapi-app" && npm install --no-save --no-audit --no-fund @strapi/plugin-graphql@4.26.2)
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClientSchema, getIntrospectionQuery, isSpecifiedScalarType, lexicographicSortSchema, printSchema } from 'graphql';
import { stopReference, waitUntilServing } from '../support/reference-process.mjs';
import { bootReference, ensurePlugins, prepareAppCopy, readAppPlugins, readAppSchemas, referenceApp } from '../apps/reference-copy.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const appsDir = resolve(here, '..', 'apps');
const outDir = join(here, 'sdl');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', '4720'));
if (port < 4720 || port > 4739) throw new Error('the SDL recorder uses ports 4720..4739 only');

/**
 * The plugin's entry in config/plugins.js: its `config` as given, introspection always on. The
 * reference's package.json does not list the plugin (it is installed without saving), so the
 * entry says where it is.
 */
const graphqlPlugin = (config = {}) => {
  const resolve = JSON.stringify(join(referenceApp, 'node_modules', '@strapi', 'plugin-graphql'));
  return `  graphql: { enabled: true, resolve: ${resolve}, config: ${JSON.stringify({ ...config, apolloServer: { introspection: true } })} },`;
};

/**
 * The schemas recorded: the kit's app (its src/ is the installed reference's own), the kit's app
 * with shadowCRUD off (the one plugin setting that changes the schema: depthLimit, defaultLimit,
 * maxLimit and amountLimit are read at run time only), and every app of test/apps/.
 */
function recordings() {
  const kit = { sourceDir: referenceApp };
  const apps = readdirSync(appsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(appsDir, entry.name, 'strapi-src')))
    .map((entry) => ({ name: entry.name, sourceDir: join(appsDir, entry.name, 'strapi-src'), config: {} }));
  return [
    { name: 'kit', ...kit, config: {} },
    { name: 'kit-shadow-crud-off', ...kit, config: { shadowCRUD: false } },
    ...apps,
  ];
}

async function introspect(base) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  const answer = await response.json();
  if (response.status !== 200 || answer.errors) throw new Error(`introspection answered ${response.status}: ${JSON.stringify(answer).slice(0, 2000)}`);
  return answer.data;
}

async function record({ name, sourceDir, config }) {
  const shadow = join(process.env.TMPDIR ?? '/tmp', `oracle-sdl-${name}`);
  const plugins = readAppPlugins(sourceDir);
  ensurePlugins(plugins);
  prepareAppCopy({ shadow, sourceDir, types: (await readAppSchemas(sourceDir)).types, plugins, extraPlugins: graphqlPlugin(config) });
  const child = bootReference(shadow, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(child, `${base}/_health`, (response) => response.status < 500);
    const schema = lexicographicSortSchema(buildClientSchema(await introspect(base)));
    writeFileSync(join(outDir, `${name}.graphql`), printSchema(schema) + '\n');
    const named = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__') && !isSpecifiedScalarType(type));
    console.log(`${name}: ${named.length} types`);
  } finally {
    await stopReference(child);
    rmSync(shadow, { recursive: true, force: true });
  }
}

async function main() {
  const wanted = process.argv.slice(2).filter((argument, at, all) => !argument.startsWith('--') && all[at - 1] !== '--port');
  const chosen = recordings().filter((entry) => wanted.length === 0 || wanted.includes(entry.name));
  if (chosen.length === 0) throw new Error(`nothing to record: known names are ${recordings().map((entry) => entry.name).join(', ')}`);
  mkdirSync(outDir, { recursive: true });
  for (const entry of chosen) await record(entry);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
