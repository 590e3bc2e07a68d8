/**
 * `npm run bench`: serves a copy of the large conformance fixture (strapi-large.db) with
 * `content-api serve`, on SQLite and — when BENCH_DATABASE_URL or TEST_DATABASE_URL names a
 * PostgreSQL server — on the same data copied to PostgreSQL, and measures the 17 queries of
 * PERFORMANCE.md from a separate process: latency at one connection (p50) and throughput at ten
 * (requests per second), with the statements each request ran. Prints one table per engine and
 * the geometric mean next to Strapi 4.26.2's measured 22 req/s.
 *
 *   npm run bench [-- --seconds 3] [-- --only q3,q14]
 */
import { parseArgs } from 'node:util';
import { BENCH_QUERIES } from './queries.js';
import { measureQuery, type QueryFigures } from './measure.js';
import { prepareEngines, type BenchEngine } from './engines.js';

const STRAPI_GEOMEAN_RPS = 22;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '2' }, only: { type: 'string' }, samples: { type: 'string', default: '30' } },
  });
  const only = values.only ? new Set(values.only.split(',')) : null;
  const queries = BENCH_QUERIES.filter((query) => !only || only.has(query.id));
  const engines = await prepareEngines();
  try {
    for (const engine of engines) await benchEngine(engine, queries, Number(values.seconds), Number(values.samples));
  } finally {
    for (const engine of engines) await engine.stop();
  }
}

async function benchEngine(engine: BenchEngine, queries: typeof BENCH_QUERIES, seconds: number, samples: number): Promise<void> {
  process.stdout.write(`\n${engine.name} (${engine.description})\n`);
  process.stdout.write(`${'query'.padEnd(6)}${'p50 ms'.padStart(9)}${'req/s'.padStart(9)}${'KB'.padStart(8)}${'stmts'.padStart(7)}  path\n`);
  const figures: QueryFigures[] = [];
  for (const query of queries) {
    const result = await measureQuery(engine.baseUrl, query.path, { seconds, samples, connections: 10 });
    figures.push(result);
    process.stdout.write(
      `${query.id.padEnd(6)}${result.p50.toFixed(2).padStart(9)}${result.rps.toFixed(0).padStart(9)}${(result.bytes / 1024).toFixed(0).padStart(8)}${String(result.statements).padStart(7)}  ${query.path}\n`,
    );
  }
  const geomean = Math.exp(figures.reduce((sum, result) => sum + Math.log(result.rps), 0) / figures.length);
  process.stdout.write(`geometric mean: ${geomean.toFixed(0)} req/s at 10 connections — ${(geomean / STRAPI_GEOMEAN_RPS).toFixed(1)}× Strapi 4.26.2's ${STRAPI_GEOMEAN_RPS} req/s\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
