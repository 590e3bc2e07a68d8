#!/usr/bin/env node
// Records where the reference, Strapi 4.26.2, answers the kit's cases differently on MariaDB than
// the kit's recording (made on SQLite). The reference is served on MariaDB databases filled by
// `content-api copy` from copies of the kit's fixtures (then booted once, and given the fixture's
// up_permissions, up_permissions_role_links and i18n_locale rows: see ../shared/oracle/README.md).
// Cases with a deviation are left out: their recording is this package's answer, not Strapi's.
// Writes mariadb-reference.json beside this file, which the conformance suite checks on MariaDB.
//
//   node test/conformance/record-mariadb.mjs --small http://127.0.0.1:24002 --large http://127.0.0.1:24003
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const kit = process.env.CONFORMANCE_DIR ?? resolve(here, '..', '..', '..', 'shared', 'conformance');
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const bases = { small: option('--small'), large: option('--large') };
if (!bases.small || !bases.large) {
  console.error('usage: node test/conformance/record-mariadb.mjs --small URL --large URL');
  process.exit(2);
}

/** Keys sorted at every level: the kit compares bodies with key order ignored. */
const sortKeys = (value) =>
  Array.isArray(value)
    ? value.map(sortKeys)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]))
      : value;

const directory = join(kit, 'cases', 'public');
const differences = [];
let equal = 0;
let asked = 0;
for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
  const recorded = JSON.parse(readFileSync(join(directory, file), 'utf8'));
  if (recorded.deviation) continue;
  asked += 1;
  const response = await fetch(bases[recorded.db ?? 'small'] + recorded.query, { headers: { accept: 'application/json', ...(recorded.headers ?? {}) } });
  const body = await response.json().catch(() => null);
  const same =
    response.status === recorded.status &&
    (response.status >= 300 ? body?.error?.name === recorded.body?.error?.name : isDeepStrictEqual(sortKeys(body), sortKeys(recorded.body)));
  if (same) equal += 1;
  else differences.push({ id: recorded.id, query: recorded.query, db: recorded.db ?? 'small', status: response.status, body });
}
const version = option('--version') ?? 'MariaDB 10.11';
writeFileSync(
  join(here, 'mariadb-reference.json'),
  JSON.stringify({ recordedFrom: `Strapi 4.26.2 on ${version}`, casesWithoutDeviation: asked, equalToTheKit: equal, differences }, null, 1) + '\n',
);
console.log(`${equal} of ${asked} cases without a deviation answered as the kit recorded them; ${differences.length} differ`);
for (const difference of differences) console.log(`  ${difference.id} ${difference.query}`);
