/**
 * `npm run bench:worst`: the most one anonymous request can cost the server at `serve`'s defaults,
 * searched on the large fixture. Requests are sent one at a time, each with the server's CPU time
 * (all its processes and threads, and on PostgreSQL the backends serving it) read before and
 * after, so that each figure is that request's work alone. Sent: the heavy and hostile requests
 * of the load run, populates through 1 to 6 hops of relations at page sizes 1 to 100 (the
 * costliest are those just under the estimate's refusal), filters through 1 to 8 hops, random queries of the
 * query language (the fuzzer's grammar) and broken ones (the garbage generator).
 *
 * Prints per engine the costliest requests with their status, CPU and wall time and size, and the CPU
 * time's p50, p99 and maximum over everything sent. CPU time is counted in the kernel's 10 ms
 * ticks: figures under 10 ms are rounding.
 *
 *   npm run bench:worst [-- --random 1500]
 */
import { parseArgs } from 'node:util';
import { loadSchema } from '../plugin/schema/load.js';
import { garbageQueries } from '../test/support/garbage-queries.js';
import { queryGrammar } from '../test/support/query-grammar.js';
import { prepareDatabases, repoRoot, serve, type BenchServer } from './engines.js';
import { deepFilter, deepPopulate, HEAVY, HOSTILE, HUGE_ESTIMATED } from './hostile-paths.js';
import { cpuSpent } from './proc-cpu.js';

interface Cost {
  readonly path: string;
  readonly status: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly bytes: number;
}

/** One request alone: its status, the server's CPU time it took, and its wall time. */
async function measure(server: BenchServer, path: string): Promise<Cost> {
  const before = await server.cpu();
  const started = performance.now();
  const response = await fetch(new URL(path, server.baseUrl));
  const { byteLength } = await response.arrayBuffer();
  const wallMs = performance.now() - started;
  return { path, status: response.status, cpuMs: cpuSpent(before, await server.cpu()), wallMs, bytes: byteLength };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { random: { type: 'string', default: '1500' } } });
  const count = Number(values.random);
  const registry = await loadSchema(repoRoot);
  const grammar = queryGrammar(registry, 20261126);
  const garbage = garbageQueries(registry, 20261126, { longValueBytes: 64 * 1024 });
  const paths = [
    HEAVY,
    ...HOSTILE,
    HUGE_ESTIMATED,
    // Every depth at every page size: the costliest run just under the estimate's refusal.
    ...[1, 2, 3, 4, 5, 6].flatMap((depth) => [1, 3, 10, 25, 50, 100].map((pageSize) => deepPopulate(depth, pageSize))),
    ...Array.from({ length: 8 }, (_, index) => deepFilter(index + 1)),
    ...Array.from({ length: count }, () => grammar()),
    ...Array.from({ length: Math.ceil(count / 5) }, () => garbage()),
  ];
  for (const database of await prepareDatabases()) {
    const server = await serve(database, 1);
    try {
      // The first request of each shape pays for its plan: warm up with every path once.
      for (const path of paths) await measure(server, path);
      const costs: Cost[] = [];
      for (const path of paths) costs.push(await measure(server, path));
      const cpu = costs.map((cost) => cost.cpuMs).sort((a, b) => a - b);
      process.stdout.write(`\n${database.name} (${database.description}), ${costs.length} requests one at a time, serve at its defaults\n`);
      process.stdout.write(`server CPU per request: p50 ${percentile(cpu, 0.5)} ms, p99 ${percentile(cpu, 0.99)} ms, max ${cpu[cpu.length - 1]} ms\n`);
      process.stdout.write(`${'cpu ms'.padStart(7)}${'wall ms'.padStart(9)}${'status'.padStart(7)}${'MB'.padStart(7)}  path\n`);
      for (const cost of [...costs].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 12)) {
        process.stdout.write(`${cost.cpuMs.toFixed(0).padStart(7)}${cost.wallMs.toFixed(1).padStart(9)}${String(cost.status).padStart(7)}${(cost.bytes / 1e6).toFixed(1).padStart(7)}  ${cost.path.slice(0, 150)}\n`);
      }
    } finally {
      await server.stop();
      await database.drop();
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
