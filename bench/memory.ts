/**
 * `npm run bench:memory`: what each `serve --workers N` costs in memory and buys in throughput,
 * on the large fixture (SQLite, and PostgreSQL when one is configured), one server at a time:
 * the resident memory of the server's whole process tree once it has started and answered one
 * request (idle), its largest value while 50 connections send random queries of the query
 * language for `--seconds` (peak, sampled every 100 ms), and the requests answered per second.
 * `--strapi` measures the reference Strapi 4.26.2 the same way first, on a copy of the same
 * fixture (its own copy of the app, on `--strapi-port`). The load generator is this process, on
 * the same cores; its memory is not counted. On PostgreSQL, the backends' memory is PostgreSQL's
 * and is not counted either.
 *
 * `--cache SIZE` measures each server once more with the response cache (`serve --cache SIZE`),
 * the row after the one without. `--distinct N` sends, instead of the random queries, N distinct
 * lists of articles in turn (pages and page sizes: bodies of 10–35 entries, 10–40 KB), so that a
 * cache keeps as many answers as it may hold and then drops the oldest. `--repeat N` measures
 * each server N times, alternating with and without the cache, and ends with the median peaks and
 * the median of what the cache added in each round (a single peak moves by tens of MB between runs).
 *
 *   npm run bench:memory [-- --workers 1,2] [-- --seconds 20] [-- --engines sqlite] [-- --strapi [--strapi-port 23337]]
 *   npm run bench:memory -- --workers 1 --engines sqlite --distinct 10000 --cache 64MB [--repeat 5]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSchema } from '../plugin/schema/load.js';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { queryGrammar } from '../test/support/query-grammar.js';
import { prepareDatabases, repoRoot, serve } from './engines.js';
import { load, tally } from './http-load.js';
import { processTreeRss, sampleRss } from './proc-rss.js';
import { startStrapi } from './strapi-server.js';

const MB = 1024 * 1024;
/** Seconds left to the server after its first answer, before the idle figure: its threads settle. */
const SETTLE_SECONDS = 2;
/** The same random queries for every server. */
const GRAMMAR_SEED = 20261124;

interface MemoryFigures {
  readonly idleMb: number;
  readonly peakMb: number;
  readonly rps: number;
  /** Answers that were a 5xx other than a 503 or not in the envelope, and connections that failed. */
  readonly failures: number;
}

/**
 * `count` distinct article lists, sent in turn: 50 pages × 50 page sizes (10–59 entries, all
 * within the 4,000 articles of the default locale) × with or without the total × the locale
 * named or not: up to 10,000 query strings, each a 200.
 */
export function distinctLists(count: number): () => string {
  let next = 0;
  return () => {
    const index = next++ % count;
    const page = 1 + (index % 50);
    const pageSize = 10 + (Math.floor(index / 50) % 50);
    const variant = Math.floor(index / 2500) % 4;
    return `/api/articles?pagination[page]=${page}&pagination[pageSize]=${pageSize}&pagination[withCount]=${variant % 2 === 0}${variant >= 2 ? '&locale=en' : ''}`;
  };
}

/** Idle and peak RSS of the process tree under `pid`, and requests/s, under the mixed load (or `queries`). */
async function measure(pid: number, baseUrl: string, seconds: number, queries?: () => string): Promise<MemoryFigures> {
  await (await fetch(`${baseUrl}/api/articles/1`)).arrayBuffer();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const idle = processTreeRss(pid);
  const sampler = sampleRss(pid);
  const answers = tally();
  await load(baseUrl, 50, seconds, queries ?? queryGrammar(await loadSchema(repoRoot), GRAMMAR_SEED), answers);
  const { peak } = sampler.stop();
  return { idleMb: idle / MB, peakMb: peak / MB, rps: answers.answers.length / seconds, failures: answers.failures.length };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The median peaks of the rounds, and the median of what the cache added to each round's peak. */
function medianLine(label: string, peaks: ReadonlyMap<string | null, readonly number[]>, cache: string | null): string {
  const without = peaks.get(null)!;
  let line = `${label}: median peak ${median(without).toFixed(0)} MB`;
  if (cache) {
    const withCache = peaks.get(cache)!;
    const added = withCache.map((peak, round) => peak - without[round]!);
    line += `, ${median(withCache).toFixed(0)} MB with --cache ${cache}; the cache added ${median(added).toFixed(0)} MB at the median of ${added.length} rounds (${added.map((mb) => `${mb >= 0 ? '+' : ''}${mb.toFixed(0)}`).join(', ')})`;
  }
  return `${line}\n`;
}

const row = (label: string, figures: MemoryFigures, note = '') =>
  `${label.padEnd(32)}${figures.idleMb.toFixed(0).padStart(9)}${figures.peakMb.toFixed(0).padStart(9)}${figures.rps.toFixed(0).padStart(8)}${note}\n`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '1,2' },
      seconds: { type: 'string', default: '20' },
      engines: { type: 'string' },
      strapi: { type: 'boolean', default: false },
      'strapi-port': { type: 'string' },
      cache: { type: 'string' },
      distinct: { type: 'string' },
      repeat: { type: 'string', default: '1' },
    },
  });
  const repeat = Number(values.repeat);
  if (!(Number.isInteger(repeat) && repeat > 0)) throw new Error(`--repeat expects a number of rounds, got "${values.repeat}"`);
  const counts = values.workers.split(',').map(Number);
  if (counts.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--workers expects process counts such as 1,2, got "${values.workers}"`);
  const seconds = Number(values.seconds);
  const engines = values.engines ? new Set(values.engines.split(',')) : null;
  const distinct = values.distinct ? Number(values.distinct) : null;
  if (distinct !== null && !(Number.isInteger(distinct) && distinct > 0)) throw new Error(`--distinct expects a number of query strings, got "${values.distinct}"`);
  const queries = () => (distinct ? distinctLists(distinct) : undefined);
  const sent = distinct ? `${distinct} distinct article lists in turn` : 'random queries of the query language';
  process.stdout.write(`\nmixed load (${sent}) on 50 connections, ${seconds} s per server, large fixture\n`);
  process.stdout.write(`${'server'.padEnd(32)}${'idle MB'.padStart(9)}${'peak MB'.padStart(9)}${'req/s'.padStart(8)}\n`);
  if (values.strapi) {
    const strapi = await startStrapi(join(conformanceKitDir(), 'db', 'strapi-large.db'), values['strapi-port'] ? { port: Number(values['strapi-port']) } : {});
    try {
      // Strapi's own errors are its own: only the plugin's answers are checked.
      process.stdout.write(row('strapi 4.26.2', await measure(strapi.pid, strapi.baseUrl, seconds, queries())));
    } finally {
      await strapi.stop();
    }
  }
  const databases = (await prepareDatabases()).filter((database) => !engines || engines.has(database.name));
  let failures = 0;
  try {
    for (const database of databases) {
      for (const workers of counts) {
        const peaks = new Map<string | null, number[]>();
        for (let round = 0; round < repeat; round += 1) {
          for (const cache of values.cache ? [null, values.cache] : [null]) {
            const server = await serve(database, workers, repoRoot, cache ? ['--cache', cache] : []);
            try {
              const figures = await measure(server.pid, server.baseUrl, seconds, queries());
              failures += figures.failures;
              const label = `${database.name} --workers ${workers}${cache ? ` --cache ${cache}` : ''}`;
              process.stdout.write(row(label, figures, figures.failures ? `  ${figures.failures} failures` : ''));
              peaks.set(cache, [...(peaks.get(cache) ?? []), figures.peakMb]);
            } finally {
              await server.stop();
            }
          }
        }
        if (repeat > 1) process.stdout.write(medianLine(`${database.name} --workers ${workers}`, peaks, values.cache ?? null));
      }
    }
  } finally {
    for (const database of databases) await database.drop();
  }
  process.stdout.write("MB: resident memory of the server's processes (VmRSS summed over its process tree)\n");
  if (failures) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
