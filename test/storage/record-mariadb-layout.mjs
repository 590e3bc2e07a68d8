#!/usr/bin/env node
// Records the layout Strapi 4.26.2 creates on MariaDB for the conformance kit's app, for the
// storage layout suite to compare `sync` with: the reference booted once on an empty MariaDB
// database (its config/database.js with client 'mysql2', see ../shared/oracle/README.md), then
// this reads that database's catalog (after a build: npx tsc first) and writes
// strapi-mariadb-layout.json beside it:
//
//   node test/storage/record-mariadb-layout.mjs mysql://root@127.0.0.1:3306/strapi_ref_layout
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '..', '..', 'dist');
const url = process.argv[2];
if (!url?.startsWith('mysql://')) {
  console.error('usage: node test/storage/record-mariadb-layout.mjs mysql://user@host:port/database');
  process.exit(2);
}
const { openDatabase } = await import(pathToFileURL(join(dist, 'plugin', 'storage', 'database.js')).href);
const catalog = await import(pathToFileURL(join(dist, 'test', 'storage', 'catalog.js')).href);
const knex = openDatabase(url);
try {
  const inScope = ([table]) => catalog.isInScope(table);
  const columns = Object.fromEntries([...(await catalog.readColumns(knex))].filter(inScope));
  const types = Object.fromEntries([...(await catalog.readColumnTypes(knex))].filter(([column]) => catalog.isInScope(column.split('.')[0])).sort());
  const foreignKeys = Object.fromEntries([...(await catalog.readForeignKeys(knex))].filter(inScope).sort());
  const indexes = await catalog.readIndexes(knex);
  const [[{ version }]] = await knex.raw('SELECT VERSION() AS version');
  const recorded = { recordedFrom: `Strapi 4.26.2 on MariaDB ${version}`, columns, types, indexes, foreignKeys };
  writeFileSync(join(here, 'strapi-mariadb-layout.json'), JSON.stringify(recorded, null, 1) + '\n');
  console.log(`${Object.keys(columns).length} tables, ${indexes.length} indexes recorded`);
} finally {
  await knex.destroy();
}
