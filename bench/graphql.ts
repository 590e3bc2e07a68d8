/**
 * `npm run bench:graphql`: issue 35's three operations measured in one run beside the reference
 * Strapi 4.26.2 with its GraphQL plugin (strapi-graphql-server.ts), on copies of the same large
 * fixture, as the public role: Strapi's GraphQL and REST for the same data, then `content-api
 * serve --graphql` (one process, SQLite) through GraphQL and REST. For each, the statements one
 * request runs alone (Strapi: counted from knex's query events; the package: Server-Timing),
 * p50/p99 of sequential requests and requests per second at N connections, each server measured
 * alone (the others idle), with the ratios. The machine's load average is printed with them.
 *
 *   npm run bench:graphql [-- --seconds 5] [-- --connections 10] [-- --port 4900]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { startServer } from '../test/support/server.js';
import { GRAPHQL_BENCH_OPERATIONS, type BenchOperation } from './graphql-operations.js';
import { measureRequest, type BenchRequest, type RequestFigures, type RequestMeasureOptions } from './graphql-measure.js';
import { startStrapiWithGraphql } from './strapi-graphql-server.js';

interface Side {
  readonly name: string;
  readonly baseUrl: string;
  readonly request: (operation: BenchOperation) => BenchRequest;
  readonly statementsOf: RequestMeasureOptions['statementsOf'];
}

const graphqlRequest = (operation: BenchOperation): BenchRequest => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query: operation.graphql }) });
const restRequest = (operation: BenchOperation): BenchRequest => ({ method: 'GET', path: operation.rest });
const fromHeader = (header: string | string[] | undefined) => Number(header ?? NaN);
const fromServerTiming = (header: string | string[] | undefined) => Number(/statements=(\d+)/.exec(String(header ?? ''))?.[1] ?? NaN);

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const cell = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

function printOperation(operation: BenchOperation, sides: readonly Side[], figures: readonly RequestFigures[]): void {
  process.stdout.write(`\n${operation.id}  ${operation.title}\n`);
  process.stdout.write(`${''.padEnd(16)}${'statements'.padStart(11)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'req/s'.padStart(10)}${'bytes'.padStart(10)}\n`);
  for (const [index, side] of sides.entries()) {
    const figure = figures[index]!;
    process.stdout.write(
      `${side.name.padEnd(16)}${String(figure.statements).padStart(11)}${cell(figure.p50).padStart(10)}${cell(figure.p99).padStart(10)}${cell(figure.rps).padStart(10)}${String(figure.bytes).padStart(10)}\n`,
    );
  }
  const [strapiGraphql, strapiRest, graphql, rest] = figures as [RequestFigures, RequestFigures, RequestFigures, RequestFigures];
  process.stdout.write(
    `package GraphQL: ${(graphql.rps / strapiGraphql.rps).toFixed(1)}× Strapi's GraphQL requests/s (p50 ${(strapiGraphql.p50 / graphql.p50).toFixed(1)}× shorter), ` +
      `${(graphql.rps / strapiRest.rps).toFixed(1)}× Strapi's REST, ${(graphql.rps / rest.rps).toFixed(2)}× the package's REST\n`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' }, port: { type: 'string', default: '4900' } } });
  const options = { seconds: Number(values.seconds), samples: 50, connections: Number(values.connections) };
  const fixture = join(conformanceKitDir(), 'db', 'strapi-large.db');
  const dir = mkdtempSync(join(tmpdir(), 'content-api-bench-graphql-'));
  const stops: (() => Promise<void>)[] = [];
  try {
    const strapi = await startStrapiWithGraphql(fixture, Number(values.port));
    stops.push(strapi.stop);
    const copy = join(dir, 'strapi-large.db');
    copyFileSync(fixture, copy);
    const ours = await startServer({ database: `sqlite:${copy}`, args: ['--graphql', '--workers', '1'], startTimeoutMs: 120_000 });
    stops.push(ours.stop);
    const sides: Side[] = [
      { name: 'strapi graphql', baseUrl: strapi.baseUrl, request: graphqlRequest, statementsOf: (headers) => fromHeader(headers['x-statements']) },
      { name: 'strapi rest', baseUrl: strapi.baseUrl, request: restRequest, statementsOf: (headers) => fromHeader(headers['x-statements']) },
      { name: 'package graphql', baseUrl: ours.baseUrl, request: graphqlRequest, statementsOf: (headers) => fromServerTiming(headers['server-timing']) },
      { name: 'package rest', baseUrl: ours.baseUrl, request: restRequest, statementsOf: (headers) => fromServerTiming(headers['server-timing']) },
    ];
    process.stdout.write(`large fixture (strapi-large.db), public role; ${cpus().length} cores; load average ${load()} at the start\n`);
    process.stdout.write(`p50/p99: ${options.samples} sequential requests at most (${options.seconds} s); req/s: ${options.connections} connections, ${options.seconds} s at least, each server alone\n`);
    for (const operation of GRAPHQL_BENCH_OPERATIONS) {
      const figures: RequestFigures[] = [];
      for (const side of sides) {
        const label = `${side.name}, ${operation.id}`;
        figures.push(await measureRequest(side.baseUrl, side.request(operation), label, { ...options, statementsOf: side.statementsOf }));
      }
      printOperation(operation, sides, figures);
    }
    process.stdout.write(`\nload average ${load()} at the end\n`);
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
