/**
 * `npm run bench`: serves a copy of the large conformance fixture (strapi-large.db) with
 * `content-api serve` (one process), on SQLite and — when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a PostgreSQL server — on the same data copied to PostgreSQL, and
 * measures the 17 queries of PERFORMANCE.md from a separate process: p50 and p99 at one
 * connection and at ten, requests per second at ten, response bytes, statements per request, and
 * the server's CPU time per request. Prints one table per engine and the geometric mean next to
 * Strapi 4.26.2's recorded 22 req/s (for a ratio that means something, run `npm run bench:strapi`,
 * which measures the reference beside the plugin in one run).
 *
 *   npm run bench [-- --seconds 3] [-- --only q3,q14] [-- --json out.json] [-- --compare earlier.json]
 *
 * `--json` writes the figures; `--compare` prints each query's requests/s and CPU per request as
 * a ratio to an earlier run's file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BENCH_QUERIES } from './queries.js';
import { measureQuery, type QueryFigures } from './measure.js';
import { prepareEngines, type BenchEngine } from './engines.js';

const STRAPI_GEOMEAN_RPS = 22;

/** What `--json` writes: per engine, per query id. */
type Results = Record<string, Record<string, QueryFigures & { path: string }>>;

const geomean = (values: readonly number[]) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
const fixed = (value: number | null, digits: number, width: number) => (value === null || Number.isNaN(value) ? '—' : value.toFixed(digits)).padStart(width);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '2' },
      only: { type: 'string' },
      samples: { type: 'string', default: '30' },
      json: { type: 'string' },
      compare: { type: 'string' },
    },
  });
  const only = values.only ? new Set(values.only.split(',')) : null;
  const queries = BENCH_QUERIES.filter((query) => !only || only.has(query.id));
  const earlier: Results | null = values.compare ? (JSON.parse(readFileSync(values.compare, 'utf8')) as Results) : null;
  const engines = await prepareEngines();
  const results: Results = {};
  try {
    for (const engine of engines) results[engine.name] = await benchEngine(engine, queries, Number(values.seconds), Number(values.samples), earlier?.[engine.name] ?? null);
  } finally {
    for (const engine of engines) await engine.stop();
  }
  if (values.json) {
    writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nfigures written to ${values.json}\n`);
  }
}

async function benchEngine(
  engine: BenchEngine,
  queries: typeof BENCH_QUERIES,
  seconds: number,
  samples: number,
  earlier: Results[string] | null,
): Promise<Results[string]> {
  process.stdout.write(`\n${engine.name} (${engine.description})\n`);
  const compareHeader = earlier ? `${'rps ×'.padStart(7)}${'cpu ×'.padStart(7)}` : '';
  process.stdout.write(
    `${'query'.padEnd(6)}${'p50'.padStart(8)}${'p99'.padStart(8)}${'p50@10'.padStart(8)}${'p99@10'.padStart(8)}${'req/s'.padStart(8)}${'cpu ms'.padStart(8)}${'KB'.padStart(7)}${'stmts'.padStart(6)}${compareHeader}  path (latencies in ms)\n`,
  );
  const figures: Results[string] = {};
  for (const query of queries) {
    const result = await measureQuery(engine.baseUrl, query.path, { seconds, samples, connections: 10, serverPid: engine.pid });
    figures[query.id] = { ...result, path: query.path };
    const before = earlier?.[query.id];
    const compared = earlier
      ? `${fixed(before ? result.rps / before.rps : null, 2, 7)}${fixed(before?.cpuMsPerRequest && result.cpuMsPerRequest ? result.cpuMsPerRequest / before.cpuMsPerRequest : null, 2, 7)}`
      : '';
    process.stdout.write(
      `${query.id.padEnd(6)}${fixed(result.p50, 2, 8)}${fixed(result.p99, 2, 8)}${fixed(result.p50Loaded, 1, 8)}${fixed(result.p99Loaded, 1, 8)}${fixed(result.rps, 0, 8)}${fixed(result.cpuMsPerRequest, 2, 8)}${fixed(result.bytes / 1024, 0, 7)}${String(result.statements).padStart(6)}${compared}  ${query.path}\n`,
    );
  }
  const mean = geomean(Object.values(figures).map((result) => result.rps));
  process.stdout.write(`geometric mean: ${mean.toFixed(0)} req/s at 10 connections — ${(mean / STRAPI_GEOMEAN_RPS).toFixed(1)}× Strapi 4.26.2's recorded ${STRAPI_GEOMEAN_RPS} req/s\n`);
  return figures;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
