/**
 * `npm run bench -- --workers 1,2`: the populate queries (their path names `populate`) served by
 * `content-api serve --workers N` for each N, one server at a time: requests/s at 10 connections,
 * its ratio to the first N, the server's CPU per request (all its processes, and PostgreSQL's
 * backends), and the CPU the load generator (this process) used meanwhile — it runs on the same
 * cores as the server, so a ratio below N may be the generator's share as much as the server's.
 */
import { availableParallelism } from 'node:os';
import type { BenchDatabase } from './engines.js';
import { serve } from './engines.js';
import { measureQuery, type QueryFigures } from './measure.js';
import type { BENCH_QUERIES } from './queries.js';
import { fixed, ratio } from './table.js';

/** Per N (as a string, for JSON), per query id. */
export type WorkerResults = Record<string, Record<string, QueryFigures & { path: string }>>;

export async function benchWorkers(
  database: BenchDatabase,
  queries: typeof BENCH_QUERIES,
  counts: readonly number[],
  options: { seconds: number; samples: number },
): Promise<WorkerResults> {
  const results: WorkerResults = {};
  for (const workers of counts) {
    const server = await serve(database, workers);
    try {
      const figures: WorkerResults[string] = {};
      for (const query of queries) {
        figures[query.id] = { ...(await measureQuery(server.baseUrl, query.path, { ...options, connections: 10, serverCpu: server.cpu })), path: query.path };
      }
      results[workers] = figures;
    } finally {
      await server.stop();
    }
  }
  printWorkers(database, queries, counts, results);
  return results;
}

function printWorkers(database: BenchDatabase, queries: typeof BENCH_QUERIES, counts: readonly number[], results: WorkerResults): void {
  const base = counts[0]!;
  process.stdout.write(`\n${database.name} (${database.description}), serve --workers N, 10 connections\n`);
  process.stdout.write(`${'query'.padEnd(6)}${'N'.padStart(3)}${'req/s'.padStart(8)}${`×N=${base}`.padStart(7)}${'cpu ms'.padStart(8)}${'p50@10'.padStart(8)}${'load cpu'.padStart(10)}  path\n`);
  for (const query of queries) {
    for (const workers of counts) {
      const figures = results[workers]![query.id]!;
      const relative = ratio(figures.rps, results[base]![query.id]!.rps);
      process.stdout.write(
        `${query.id.padEnd(6)}${String(workers).padStart(3)}${fixed(figures.rps, 0, 8)}${fixed(relative, 2, 7)}${fixed(figures.cpuMsPerRequest, 2, 8)}${fixed(figures.p50Loaded, 1, 8)}${`${fixed(figures.loaderCpuPercent, 0, 0)} %`.padStart(10)}  ${query.path}\n`,
      );
    }
  }
  process.stdout.write(`load cpu: the load generator's own CPU while loading, in % of one core; it shares the machine's ${availableParallelism()} cores with the server\n`);
}
