/**
 * `npm run bench`: serves a copy of the large conformance fixture (strapi-large.db) with
 * `content-api serve` (one process), on SQLite and — when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a PostgreSQL server — on the same data copied to PostgreSQL, and
 * measures the 17 queries of PERFORMANCE.md from a separate process: p50 and p99 at one
 * connection and at ten, requests per second at ten, the server's CPU per request, the floor's,
 * response bytes and statements per request. Prints one table per engine and the geometric mean;
 * a ratio to Strapi 4.26.2 comes from `npm run bench:strapi`, which measures the reference beside
 * the plugin in one run.
 *
 *   npm run bench [-- --seconds 3] [-- --only q3,q14] [-- --floor-seconds 1] [-- --json out.json] [-- --compare earlier.json] [-- --root DIR]
 *   npm run bench -- --workers 1,2 [--only q3,q14]
 *
 * What the CPU columns count (CPU time from Linux's /proc, user + system):
 * - `cpu ms`, per request at 10 connections: the `serve` process with all its threads (SQLite's
 *   read workers are threads) and any process it forked (`--workers N`); on PostgreSQL, also
 *   every backend connected to the bench's database (found in pg_stat_activity: the server's
 *   pool), so that the statements' own work is counted. PostgreSQL's shared processes
 *   (checkpointer, WAL writer) are not. The load generator (this process) is not.
 * - `floor ms`: the same statements (floor-plan.ts: planRead + compileRequest, as the server and
 *   `content-api explain` compile them) run by the driver in a loop in this process for
 *   `--floor-seconds`, one request at a time (floor.ts): this process's CPU (process.cpuUsage), on
 *   PostgreSQL plus its backend's (/proc of pg_backend_pid()). `*`: the entries statement is
 *   heavy and is sent joined by PostgreSQL, as the executor sends heavy shapes.
 * - `est÷n`, `est÷B`: the estimate the server makes before running a request (plugin/sql/estimate.ts,
 *   from the data's figures) ÷ what the answer held: its entries (objects with an id, at any
 *   depth) and its bytes.
 * - `÷floor`: `cpu ms` ÷ `floor ms`, what serving costs per request over the statements alone
 *   (HTTP, Koa, the query string, the plan cache, admission, the hop to a SQLite read worker, the
 *   joining of the rows into the body), like for like on both engines.
 *
 * `--json` writes the figures; `--compare` prints each query's requests/s, CPU, floor and ÷floor
 * as a ratio to an earlier run's file. `--root DIR` serves another schema folder of the fixture's
 * app (the repository's by default), e.g. one that declares an index (docs/indexes.md): the server
 * syncs it at start. `--workers 1,2` measures the populate queries with
 * `serve --workers N` instead (workers.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { postgresDialect } from '../plugin/sql/dialect/postgres.js';
import type { Dialect } from '../plugin/sql/dialect/dialect.js';
import { estimateRequest, type Estimate } from '../plugin/sql/estimate.js';
import { Statistics } from '../plugin/sql/statistics.js';
import type { RootQuery } from '../plugin/query/tree.js';
import { loadSchema } from '../plugin/schema/load.js';
import { openDatabase } from '../plugin/storage/database.js';
import { sqliteDialect } from '../plugin/sql/dialect/sqlite.js';
import { prepareDatabases, repoRoot, serve, type BenchDatabase } from './engines.js';
import { floorDriver, measureFloor } from './floor.js';
import { measureBusyFloor } from './floor-busy.js';
import { floorPlanner } from './floor-plan.js';
import { measureQuery, type QueryFigures } from './measure.js';
import { BENCH_QUERIES } from './queries.js';
import { fixed, geomean, ratio } from './table.js';
import { benchWorkers } from './workers.js';


interface Figures extends QueryFigures {
  path: string;
  /** The estimate made before running (plugin/sql/estimate.ts) ÷ what the answer held: entries, and bytes. */
  estimatedEntriesRatio?: number | null;
  estimatedBytesRatio?: number | null;
  /** The floor's CPU per request (ms): see the header. */
  floorCpuMsPerRequest: number;
  /** The floor's wall time per request, one at a time (ms). */
  floorMsPerRequest: number;
  /** cpuMsPerRequest ÷ floorCpuMsPerRequest. */
  overFloor: number | null;
  /** SQLite: the floor with a loop on every core at once (floor-busy.ts). */
  busyFloorCpuMsPerRequest?: number;
  /** cpuMsPerRequest ÷ busyFloorCpuMsPerRequest. */
  overBusyFloor?: number | null;
}

/** What `--json` writes: per engine (or `<engine> --workers N`), per query id. */
type Results = Record<string, Record<string, QueryFigures & Partial<Figures>>>;

interface Options {
  seconds: number;
  samples: number;
  floorSeconds: number;
  /** The schema folder served. */
  root: string;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '2' },
      only: { type: 'string' },
      samples: { type: 'string', default: '30' },
      'floor-seconds': { type: 'string', default: '1' },
      workers: { type: 'string' },
      json: { type: 'string' },
      compare: { type: 'string' },
      root: { type: 'string', default: repoRoot },
    },
  });
  const only = values.only ? new Set(values.only.split(',')) : null;
  const workerCounts = values.workers ? values.workers.split(',').map(Number) : null;
  if (workerCounts?.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--workers expects process counts, e.g. 1,2; got "${values.workers}"`);
  const queries = BENCH_QUERIES.filter((query) => (!only || only.has(query.id)) && (!workerCounts || query.path.includes('populate')));
  const earlier: Results | null = values.compare ? (JSON.parse(readFileSync(values.compare, 'utf8')) as Results) : null;
  const options: Options = { seconds: Number(values.seconds), samples: Number(values.samples), floorSeconds: Number(values['floor-seconds']), root: values.root };
  const databases = await prepareDatabases();
  const results: Results = {};
  try {
    for (const database of databases) {
      if (workerCounts) {
        const byCount = await benchWorkers(database, queries, workerCounts, options);
        for (const [count, figures] of Object.entries(byCount)) results[`${database.name} --workers ${count}`] = figures;
      } else {
        results[database.name] = await benchDatabase(database, queries, options, earlier?.[database.name] ?? null);
      }
    }
  } finally {
    for (const database of databases) await database.drop();
  }
  if (values.json) {
    writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nfigures written to ${values.json}\n`);
  }
}

async function benchDatabase(database: BenchDatabase, queries: typeof BENCH_QUERIES, options: Options, earlier: Results[string] | null): Promise<Record<string, Figures>> {
  const dialect = database.name === 'postgres' ? postgresDialect : sqliteDialect;
  const statementsOf = await floorPlanner(options.root, dialect);
  const estimateOf = await estimator(database.url, dialect, options.root);
  const server = await serve(database, 1, options.root);
  const driver = floorDriver(database);
  process.stdout.write(`\n${database.name} (${database.description})\n`);
  const compareHeader = earlier ? ['rps ×', 'cpu ×', 'floor ×', '÷fl ×'].map((title) => title.padStart(8)).join('') : '';
  process.stdout.write(
    `${'query'.padEnd(6)}${'est÷n'.padStart(7)}${'est÷B'.padStart(7)}${'p50'.padStart(8)}${'p99'.padStart(8)}${'p50@10'.padStart(8)}${'p99@10'.padStart(8)}${'req/s'.padStart(8)}${'cpu ms'.padStart(8)}${'floor ms'.padStart(10)}${'÷floor'.padStart(8)}${'busy fl'.padStart(8)}${'÷busy'.padStart(8)}${'KB'.padStart(7)}${'stmts'.padStart(6)}${compareHeader}  path (latencies in ms)\n`,
  );
  const figures: Record<string, Figures> = {};
  try {
    for (const query of queries) {
      const served = await measureQuery(server.baseUrl, query.path, { seconds: options.seconds, samples: options.samples, connections: 10, serverCpu: server.cpu });
      const statements = statementsOf(query.path);
      const floor = await measureFloor(driver, statements, options.floorSeconds);
      const busy = database.name === 'sqlite' ? await measureBusyFloor(database.url.slice('sqlite:'.length), statements.body, options.floorSeconds) : null;
      const actual = await answerOf(server.baseUrl, query.path);
      const estimate = estimateOf(statements.root);
      const result: Figures = {
        ...served,
        path: query.path,
        estimatedEntriesRatio: ratio(estimate?.entries, actual.entries),
        estimatedBytesRatio: ratio(estimate?.bytes, actual.bytes),
        floorCpuMsPerRequest: floor.cpuMsPerRequest,
        floorMsPerRequest: floor.msPerRequest,
        overFloor: ratio(served.cpuMsPerRequest, floor.cpuMsPerRequest),
        ...(busy === null ? {} : { busyFloorCpuMsPerRequest: busy, overBusyFloor: ratio(served.cpuMsPerRequest, busy) }),
      };
      figures[query.id] = result;
      process.stdout.write(`${row(query.id, result, earlier !== null, earlier?.[query.id])}  ${query.path}\n`);
    }
  } finally {
    driver.close();
    await server.stop();
  }
  const all = Object.values(figures);
  const mean = geomean(all.map((result) => result.rps));
  // A ratio to Strapi means something only from one run beside it: npm run bench:strapi.
  process.stdout.write(`geometric mean: ${mean.toFixed(0)} req/s at 10 connections (beside Strapi 4.26.2: npm run bench:strapi)\n`);
  const overFloor = all.map((result) => result.overFloor).filter((value): value is number => value !== null);
  if (overFloor.length) process.stdout.write(`÷floor geometric mean: ${geomean(overFloor).toFixed(2)}\n`);
  const overBusy = all.map((result) => result.overBusyFloor).filter((value): value is number => typeof value === 'number');
  if (overBusy.length) process.stdout.write(`÷busy floor geometric mean: ${geomean(overBusy).toFixed(2)} (the floor with a loop on every core at once)\n`);
  return figures;
}

/** The estimate of a query tree's cost from the bench database's figures, as the server gathers them. */
async function estimator(url: string, dialect: Dialect, root: string): Promise<(root: RootQuery) => Estimate | null> {
  const knex = openDatabase(url);
  try {
    const statistics = new Statistics(knex, dialect, await loadSchema(root));
    await statistics.gather();
    return (root) => estimateRequest(root, statistics);
  } finally {
    await knex.destroy();
  }
}

/** What an answer holds: its entries (objects with an id, at any depth) and its bytes. */
async function answerOf(baseUrl: string, path: string): Promise<{ entries: number; bytes: number }> {
  const text = await (await fetch(new URL(path, baseUrl))).text();
  const count = (value: unknown): number => {
    if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + count(item), 0);
    if (!value || typeof value !== 'object') return 0;
    return ('id' in value ? 1 : 0) + Object.values(value).reduce((sum: number, item) => sum + count(item), 0);
  };
  return { entries: count(JSON.parse(text)), bytes: Buffer.byteLength(text) };
}

/** One query's line; with `comparing`, its ratios to `before` (dashes for figures the earlier run lacks). */
function row(id: string, result: Figures, comparing: boolean, before: (QueryFigures & Partial<Figures>) | undefined): string {
  const floor = `${fixed(result.floorCpuMsPerRequest, 2, 0)} `.padStart(10);
  const comparison = comparing
    ? [ratio(result.rps, before?.rps), ratio(result.cpuMsPerRequest, before?.cpuMsPerRequest), ratio(result.floorCpuMsPerRequest, before?.floorCpuMsPerRequest), ratio(result.overFloor, before?.overFloor)]
        .map((value) => fixed(value, 2, 8))
        .join('')
    : '';
  return `${id.padEnd(6)}${fixed(result.estimatedEntriesRatio, 2, 7)}${fixed(result.estimatedBytesRatio, 2, 7)}${fixed(result.p50, 2, 8)}${fixed(result.p99, 2, 8)}${fixed(result.p50Loaded, 1, 8)}${fixed(result.p99Loaded, 1, 8)}${fixed(result.rps, 0, 8)}${fixed(result.cpuMsPerRequest, 2, 8)}${floor}${fixed(result.overFloor, 2, 8)}${fixed(result.busyFloorCpuMsPerRequest ?? null, 2, 8)}${fixed(result.overBusyFloor ?? null, 2, 8)}${fixed(result.bytes / 1024, 0, 7)}${String(result.statements).padStart(6)}${comparison}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
