/**
 * `npm run bench:rules`: what a row rule of permissions.yaml costs. Serves a copy of the large
 * fixture three times in turn — the example permissions, a scalar rule on articles and
 * categories, and a rule with a relation and a caller variable — and measures q1 and q3 of the
 * bench on each, on SQLite and (with TEST_DATABASE_URL) PostgreSQL, in one run. The rules match
 * every row, so the answers are the same bytes and only the rule's own work differs.
 *
 *   npm run bench:rules [-- --seconds 3]
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../test/support/server.js';
import { prepareDatabases, repoRoot } from './engines.js';
import { measureQuery } from './measure.js';
import { BENCH_QUERIES } from './queries.js';
import { fixed } from './table.js';

/** The public role's article and category grants replaced by rules that every row satisfies. */
const VARIANTS: readonly { name: string; article: string; category: string }[] = [
  { name: 'no rule', article: '[find, findOne]', category: '[find, findOne]' },
  { name: 'scalar rule', article: '{ find: { where: { views: { $gte: 0 } } }, findOne: true }', category: '{ find: { where: { name: { $notNull: true } } }, findOne: true }' },
  {
    name: 'relation + $user rule',
    article: '{ find: { where: { $or: [ { views: { $gte: 0 } }, { author: { id: $user.id } } ] } }, findOne: true }',
    category: '{ find: { where: { $or: [ { name: { $notNull: true } }, { articles: { author: { id: $user.id } } } ] } }, findOne: true }',
  },
];

const QUERIES = BENCH_QUERIES.filter((query) => query.id === 'q1' || query.id === 'q3');

/** A schema folder like the example app's, with the public role's article and category grants replaced. */
function rootWith(variant: (typeof VARIANTS)[number]): string {
  const root = mkdtempSync(join(tmpdir(), 'content-api-bench-rules-'));
  for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  const permissions = readFileSync(join(repoRoot, 'permissions.yaml'), 'utf8')
    .replace(/^( {2}public:\n(?: {4}.*\n)*?) {4}article: .*\n/m, `$1    article: ${variant.article}\n`)
    .replace(/^( {2}public:\n(?: {4}.*\n)*?) {4}category: .*\n/m, `$1    category: ${variant.category}\n`);
  writeFileSync(join(root, 'permissions.yaml'), permissions);
  return root;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '3' } } });
  const seconds = Number(values.seconds);
  const databases = await prepareDatabases();
  try {
    for (const database of databases) {
      console.log(`\n${database.name}: ${database.description}; ${seconds} s per query, 10 connections`);
      console.log(['rules'.padEnd(22), ...QUERIES.map((query) => `${query.id} req/s`.padStart(12)), ...QUERIES.map((query) => `${query.id} p50 ms`.padStart(12)), 'statements'.padStart(11), 'bytes same'.padStart(11)].join(' '));
      let baseline: number[] | null = null;
      for (const variant of VARIANTS) {
        const root = rootWith(variant);
        const server = await startServer({ root, database: database.url, args: ['--workers', '1'] });
        try {
          const figures = [];
          for (const query of QUERIES) figures.push(await measureQuery(server.baseUrl, query.path, { seconds, samples: 200, connections: 10 }));
          const bytes = figures.map((figure) => figure.bytes);
          baseline ??= bytes;
          console.log(
            [
              variant.name.padEnd(22),
              ...figures.map((figure) => fixed(figure.rps, 0, 12)),
              ...figures.map((figure) => fixed(figure.p50, 2, 12)),
              figures.map((figure) => figure.statements).join('/').padStart(11),
              String(bytes.every((size, index) => size === baseline![index])).padStart(11),
            ].join(' '),
          );
        } finally {
          await server.stop();
          rmSync(root, { recursive: true, force: true });
        }
      }
    }
  } finally {
    for (const database of databases) await database.drop();
  }
}

await main();
