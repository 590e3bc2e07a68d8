/**
 * `npm run bench:writes`: the time of one create — an article with a 3-item dynamic zone and 2
 * relations — sent one at a time, N times (default 1,000), to `content-api serve` on SQLite and
 * (when a PostgreSQL server is configured) PostgreSQL, and, when installed (../shared/oracle), to
 * the reference Strapi 4.26.2, each on a fresh copy of the small fixture. Prints p50, p90 and p99
 * per server, and each p50 as a ratio to Strapi's. The package's servers are also measured with a
 * token whose role has a `find` rule on categories (matching every row): what the checks of the
 * relation targets under a rule add to a create (docs/permissions.md, Writes).
 *
 *   npm run bench:writes [-- --requests 1000] [-- --no-strapi]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSchema } from '../plugin/schema/load.js';
import { copyDatabase } from '../plugin/storage/copy.js';
import { openDatabase } from '../plugin/storage/database.js';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { createTestDatabase, postgresServerUrl } from '../test/support/databases.js';
import { startServer } from '../test/support/server.js';
import { RULED_TOKEN, TOKEN, writerRoot } from './writer-root.js';
import { startStrapi } from './strapi-server.js';

/** The measured body: two relations (a to-one and a to-many) and three zone items, one with a relation and one with a file. */
const BODY = JSON.stringify({
  data: {
    title: 'Bench create',
    category: 3,
    categories: [2, 5],
    blocks: [
      { __component: 'shared.rich-text', body: 'Some text' },
      { __component: 'shared.quote', title: 'A quote', category: 4 },
      { __component: 'shared.media', file: 2 },
    ],
  },
});

interface Target {
  readonly name: string;
  readonly baseUrl: string;
  /** The token to write with (the full-access writer's by default). */
  readonly token?: string;
  stop(): Promise<void>;
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function timeCreates(target: Target, requests: number): Promise<number[]> {
  const post = () =>
    fetch(`${target.baseUrl}/api/articles`, { method: 'POST', headers: { Authorization: `Bearer ${target.token ?? TOKEN}`, 'Content-Type': 'application/json' }, body: BODY });
  for (let warm = 0; warm < 20; warm++) await (await post()).arrayBuffer();
  const times: number[] = [];
  for (let index = 0; index < requests; index++) {
    const started = process.hrtime.bigint();
    const response = await post();
    await response.arrayBuffer();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (response.status !== 200) throw new Error(`${target.name}: POST answered ${response.status}`);
  }
  return times.sort((a, b) => a - b);
}

async function ourTargets(dir: string): Promise<Target[]> {
  const root = writerRoot(dir);
  const file = join(dir, 'strapi-small.db');
  copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), file);
  const targets: Target[] = [];
  const sqlite = await startServer({ root, database: `sqlite:${file}`, args: ['--workers', '1', '--quiet'] });
  targets.push({ name: 'sqlite', baseUrl: sqlite.baseUrl, stop: () => sqlite.stop() });
  targets.push({ name: 'sqlite+rule', baseUrl: sqlite.baseUrl, token: RULED_TOKEN, stop: async () => undefined });
  if (postgresServerUrl()) {
    const database = await createTestDatabase('postgres');
    const source = openDatabase(`sqlite:${join(conformanceKitDir(), 'db', 'strapi-small.db')}`);
    await copyDatabase({ from: source, to: database.knex, registry: await loadSchema(root) });
    await source.destroy();
    const postgres = await startServer({ root, database: database.url, args: ['--workers', '1', '--quiet'] });
    targets.push({ name: 'postgres', baseUrl: postgres.baseUrl, stop: async () => (await postgres.stop(), await database.drop()) });
    targets.push({ name: 'pg+rule', baseUrl: postgres.baseUrl, token: RULED_TOKEN, stop: async () => undefined });
  }
  return targets;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { requests: { type: 'string', default: '1000' }, 'no-strapi': { type: 'boolean', default: false } } });
  const requests = Number(values.requests);
  const dir = mkdtempSync(join(tmpdir(), 'content-api-bench-writes-'));
  const targets: Target[] = [];
  try {
    if (!values['no-strapi']) targets.push(await startStrapi(join(conformanceKitDir(), 'db', 'strapi-small.db'), { writerToken: TOKEN, dir }));
    targets.push(...(await ourTargets(dir)));
    process.stdout.write(`\ncreate with a 3-item zone and 2 relations, ${requests} requests one at a time (ms)\n`);
    process.stdout.write(`${'server'.padEnd(12)}${'p50'.padStart(8)}${'p90'.padStart(8)}${'p99'.padStart(8)}${'p50 ÷ strapi'.padStart(14)}\n`);
    let strapiP50: number | null = null;
    for (const target of targets) {
      const times = await timeCreates(target, requests);
      const p50 = percentile(times, 50);
      if (target.name === 'strapi') strapiP50 = p50;
      const ratio = strapiP50 && target.name !== 'strapi' ? `${(p50 / strapiP50).toFixed(2)}×` : '';
      process.stdout.write(`${target.name.padEnd(12)}${p50.toFixed(2).padStart(8)}${percentile(times, 90).toFixed(2).padStart(8)}${percentile(times, 99).toFixed(2).padStart(8)}${ratio.padStart(14)}\n`);
    }
  } finally {
    for (const target of targets) await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
