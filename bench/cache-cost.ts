/**
 * What the response cache costs where it does not help: a write, and a read whose answer a write
 * has just dropped (a miss). On each engine, two copies of the small fixture — one served without
 * the cache (and without change triggers), one with `--cache 64MB` (whose sync adds the triggers)
 * — take the same loop, one request at a time: update an article, then read a list that includes
 * it. Prints the p50 of each with and without the cache, and the p50 of a hit for scale. Run by
 * beside-strapi.ts after its table, or alone:
 *
 *   node dist/bench/cache-cost.js [--requests 300]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadSchema } from '../plugin/schema/load.js';
import { copyDatabase } from '../plugin/storage/copy.js';
import { openDatabase } from '../plugin/storage/database.js';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { createTestDatabase, mysqlServerUrl, postgresServerUrl, type TestDatabase } from '../test/support/databases.js';
import { startServer, type RunningServer } from '../test/support/server.js';
import { TOKEN, writerRoot } from './writer-root.js';

const READ = '/api/articles?populate=*&pagination[pageSize]=10';

const p50 = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

async function timed(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`answered ${response.status}`);
  return performance.now() - started;
}

interface Costs {
  writes: number[];
  reads: number[];
  hits: number[];
}

/**
 * Writes then reads, `requests` times, on both servers in turn (the machine's other load falls on
 * both alike): the times of each, and of reads answered from the cache.
 */
async function loop(servers: readonly RunningServer[], requests: number): Promise<Costs[]> {
  const put = (server: RunningServer, index: number) => () =>
    fetch(`${server.baseUrl}/api/articles/1`, { method: 'PUT', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ data: { title: `Cost ${index}` } }) });
  const get = (server: RunningServer) => () => fetch(`${server.baseUrl}${READ}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  const costs = servers.map((): Costs => ({ writes: [], reads: [], hits: [] }));
  for (let index = -20; index < requests; index += 1) {
    for (const [at, server] of servers.entries()) {
      const write = await timed(put(server, index));
      const read = await timed(get(server));
      if (index >= 0) costs[at]!.writes.push(write), costs[at]!.reads.push(read);
    }
    // The write's echo (PostgreSQL's notification, MariaDB's versions) is heard before the next write.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (let index = 0; index < requests; index += 1) for (const [at, server] of servers.entries()) costs[at]!.hits.push(await timed(get(server)));
  return costs;
}

/** A copy of the small fixture on `client`. */
async function fixtureCopy(client: 'sqlite' | 'postgres' | 'mysql', dir: string, name: string, root: string): Promise<{ url: string; drop(): Promise<void> }> {
  const fixture = join(conformanceKitDir(), 'db', 'strapi-small.db');
  if (client === 'sqlite') {
    copyFileSync(fixture, join(dir, `${name}.db`));
    return { url: `sqlite:${join(dir, `${name}.db`)}`, drop: async () => undefined };
  }
  const target: TestDatabase = await createTestDatabase(client);
  const source = openDatabase(`sqlite:${fixture}`);
  try {
    await copyDatabase({ from: source, to: target.knex, registry: await loadSchema(root) });
  } finally {
    await source.destroy();
  }
  return target;
}

/** One line per engine: the p50 of a write and of a miss without and with the cache, and of a hit. */
export async function measureCacheCost(requests: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'content-api-bench-cache-'));
  const root = writerRoot(dir);
  const clients: ('sqlite' | 'postgres' | 'mysql')[] = ['sqlite', ...(postgresServerUrl() ? (['postgres'] as const) : []), ...(mysqlServerUrl() ? (['mysql'] as const) : [])];
  const lines: string[] = [];
  try {
    for (const client of clients) {
      const databases = [await fixtureCopy(client, dir, 'plain', root), await fixtureCopy(client, dir, 'cached', root)];
      const servers: RunningServer[] = [];
      try {
        servers.push(await startServer({ root, database: databases[0]!.url, args: ['--workers', '1', '--quiet'] }));
        servers.push(await startServer({ root, database: databases[1]!.url, args: ['--workers', '1', '--quiet', '--cache', '64MB'] }));
        const [off, on] = (await loop(servers, requests)) as [Costs, Costs];
        const change = (without: number[], withCache: number[]) => `${p50(without).toFixed(2)} → ${p50(withCache).toFixed(2)} ms (${p50(withCache) >= p50(without) ? '+' : ''}${(p50(withCache) - p50(without)).toFixed(2)})`;
        lines.push(`${client}: a write ${change(off.writes, on.writes)}, a miss ${change(off.reads, on.reads)}; a hit ${p50(on.hits).toFixed(2)} ms, the same read without the cache ${p50(off.hits).toFixed(2)} ms`);
      } finally {
        for (const server of servers) await server.stop();
        for (const database of databases) await database.drop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { requests: { type: 'string', default: '300' } } });
  measureCacheCost(Number(values.requests)).then(
    (lines) => process.stdout.write(`what the response cache adds, without → with it:\n${lines.join('\n')}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
