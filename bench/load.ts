/**
 * `npm run test:load`: `content-api serve` on the large fixture (SQLite, and PostgreSQL when one is
 * configured) under load from a separate process, at the defaults:
 *
 *   1. light alone: `/api/articles/1` on 10 connections (p50, p99);
 *   2. light beside hostile: the same, while 2 connections send nothing but the heaviest queries
 *      a stranger can type (a 49 MB populate refused by the response budget, a 3 MB one answered),
 *      which measures what a single hostile client costs the others;
 *   2b. light requests of statement shapes never seen before, on one connection, alone and then
 *      beside 6 connections sending a populate that would be about 950 MB (refused by its estimate
 *      before running, and past a burst paced per caller: http/refusal-pacing.ts): what a burst of
 *      hostile requests costs a request the server cannot know;
 *   3. heavy beside light, as the speed target states it: `/api/articles/1` on one connection,
 *      alone, then beside 10 connections of `categories?populate[articles][populate]=*` (p99 ratio);
 *   3b. two callers sharing the heavy slots: that heavy query on one connection with the example
 *      app's demo token, alone, then beside the same 10 anonymous connections (another caller,
 *      by address): the token's requests take turns with the flood instead of queueing behind it;
 *   4. mixed: 50 connections of random queries of the query language for `--seconds` (default 20).
 *
 * The hostile and heavy loads run in a worker thread of their own (http-load.ts): the light
 * requests' times do not include this process reading megabytes of their answers.
 *
 * Prints the figures, and exits nonzero when any answer is a 5xx other than a 503 in the
 * envelope, when a connection fails, or when an error is not in the envelope.
 *
 *   npm run test:load [-- --seconds 20]
 */
import { parseArgs } from 'node:util';
import { loadSchema } from '../plugin/schema/load.js';
import { queryGrammar } from '../test/support/query-grammar.js';
import { prepareEngines, repoRoot, type BenchEngine } from './engines.js';
import { HEAVY, HOSTILE, HUGE_ESTIMATED } from './hostile-paths.js';
import { load, loadInThread, tally, type Answer } from './http-load.js';

const LIGHT = '/api/articles/1';
/** The example permissions' demo token: a caller other than the anonymous address of the other loads. */
const OTHER_CALLER = { authorization: 'Bearer demo-editor-token' };
const ARTICLE_FIELDS = ['title', 'slug', 'description', 'kind', 'publishDate', 'views', 'rating', 'price', 'featured', 'readingMinutes', 'locale', 'createdAt'];

/** Light lists of statement shapes not seen before: each call a new choice of fields and page size. */
function newShapes(seed: number): () => string {
  let count = seed;
  return () => {
    count += 1;
    const [a, b, c] = [count % 12, Math.floor(count / 12) % 12, Math.floor(count / 144) % 12];
    const fields = [...new Set([a, b, c])].map((index, position) => `fields[${position}]=${ARTICLE_FIELDS[index]}`);
    return `/api/articles?${fields.join('&')}&pagination[pageSize]=${1 + (Math.floor(count / 1728) % 20)}`;
  };
}

function percentile(answers: readonly Answer[], fraction: number): number {
  const sorted = answers.map((answer) => answer.milliseconds).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

function statuses(answers: readonly Answer[]): string {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
}

const figures = (name: string, answers: readonly Answer[], seconds: number) =>
  `${name.padEnd(34)}${(answers.length / seconds).toFixed(0).padStart(7)} req/s  p50 ${percentile(answers, 0.5).toFixed(1).padStart(7)} ms  p99 ${percentile(answers, 0.99).toFixed(1).padStart(7)} ms  ${statuses(answers)}`;

async function loadEngine(engine: BenchEngine, seconds: number): Promise<string[]> {
  const failures: string[] = [];
  const phase = Math.max(3, Math.round(seconds / 3));
  process.stdout.write(`\n${engine.name} (${engine.description})\n`);

  const alone = tally();
  await load(engine.baseUrl, 10, phase, () => LIGHT, alone);
  process.stdout.write(`${figures('light alone (10 conns)', alone.answers, phase)}\n`);

  const beside = tally();
  const [hostile] = await Promise.all([loadInThread(engine.baseUrl, 2, phase, HOSTILE), load(engine.baseUrl, 10, phase, () => LIGHT, beside)]);
  process.stdout.write(`${figures('light beside 2 hostile conns', beside.answers, phase)}\n`);
  process.stdout.write(`${figures('  the hostile conns', hostile.answers, phase)}\n`);
  const ratio = percentile(beside.answers, 0.99) / percentile(alone.answers, 0.99);
  process.stdout.write(`  light p99 beside hostile ÷ alone: ${ratio.toFixed(2)}×\n`);

  const newAlone = tally();
  await load(engine.baseUrl, 1, phase, newShapes(0), newAlone);
  process.stdout.write(`${figures('new shapes alone (1 conn)', newAlone.answers, phase)}\n`);
  const newBeside = tally();
  const [huge] = await Promise.all([loadInThread(engine.baseUrl, 6, phase, [HUGE_ESTIMATED]), load(engine.baseUrl, 1, phase, newShapes(20_000), newBeside)]);
  process.stdout.write(`${figures('new shapes beside 6 hostile conns', newBeside.answers, phase)}\n`);
  process.stdout.write(`${figures('  the hostile conns (refused)', huge.answers, phase)}\n`);
  const newRatio = percentile(newBeside.answers, 0.99) / percentile(newAlone.answers, 0.99);
  process.stdout.write(`  new shapes p99 beside hostile ÷ alone: ${newRatio.toFixed(2)}×\n`);

  const lightAlone = tally();
  await load(engine.baseUrl, 1, phase, () => LIGHT, lightAlone);
  process.stdout.write(`${figures('light alone (1 conn)', lightAlone.answers, phase)}\n`);
  const lightBeside = tally();
  const [heavy] = await Promise.all([loadInThread(engine.baseUrl, 10, phase, [HEAVY]), load(engine.baseUrl, 1, phase, () => LIGHT, lightBeside)]);
  process.stdout.write(`${figures('light (1 conn) beside 10 heavy', lightBeside.answers, phase)}\n`);
  process.stdout.write(`${figures('  the heavy conns', heavy.answers, phase)}\n`);
  const heavyRatio = percentile(lightBeside.answers, 0.99) / percentile(lightAlone.answers, 0.99);
  process.stdout.write(`  light p99 beside heavy ÷ alone: ${heavyRatio.toFixed(2)}×\n`);

  const turnAlone = tally();
  await load(engine.baseUrl, 1, phase, () => HEAVY, turnAlone, OTHER_CALLER);
  process.stdout.write(`${figures('heavy, token (1 conn), alone', turnAlone.answers, phase)}\n`);
  const turnBeside = tally();
  const [flood] = await Promise.all([loadInThread(engine.baseUrl, 10, phase, [HEAVY]), load(engine.baseUrl, 1, phase, () => HEAVY, turnBeside, OTHER_CALLER)]);
  process.stdout.write(`${figures('heavy, token, beside 10 anonymous', turnBeside.answers, phase)}\n`);
  process.stdout.write(`${figures('  the anonymous heavy conns', flood.answers, phase)}\n`);
  const turnRatio = percentile(turnBeside.answers, 0.5) / percentile(turnAlone.answers, 0.5);
  process.stdout.write(`  token's heavy p50 beside the flood ÷ alone: ${turnRatio.toFixed(2)}× (the flood's p50: ${(percentile(flood.answers, 0.5) / percentile(turnAlone.answers, 0.5)).toFixed(2)}×)\n`);

  const mixed = tally();
  const next = queryGrammar(await loadSchema(repoRoot), 20261124);
  await load(engine.baseUrl, 50, seconds, next, mixed);
  process.stdout.write(`${figures(`mixed, 50 conns, ${seconds} s`, mixed.answers, seconds)}\n`);

  for (const part of [alone, beside, hostile, newAlone, newBeside, huge, lightAlone, lightBeside, heavy, turnAlone, turnBeside, flood, mixed]) failures.push(...part.failures);
  // A server error's cause is in the server's own output: its errors come first.
  if (failures.length) process.stdout.write(`${engine.name} server output (errors first):\n${engine.output().slice(0, 4000)}\n`);
  return failures.map((failure) => `${engine.name}: ${failure}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '20' } } });
  const seconds = Number(values.seconds);
  const engines = await prepareEngines();
  const failures: string[] = [];
  try {
    for (const engine of engines) failures.push(...(await loadEngine(engine, seconds)));
  } finally {
    for (const engine of engines) await engine.stop();
  }
  for (const failure of failures.slice(0, 20)) process.stdout.write(`FAILED ${failure}\n`);
  process.stdout.write(`\nload: ${failures.length === 0 ? 'no server error, every error in the envelope' : `${failures.length} failures`}\n`);
  if (failures.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
