/**
 * `npm run bench:strapi`: the 17 bench queries measured in one run beside the reference Strapi
 * 4.26.2 (../shared/oracle, installed with its install.sh), on copies of the same large fixture:
 * requests per second at 10 connections for Strapi, for `content-api serve` on SQLite and — when
 * a PostgreSQL server is configured — on the same data in PostgreSQL, with the ratios and their
 * geometric means. Each server is measured alone (the others idle), query by query.
 *
 *   npm run bench:strapi [-- --seconds 2] [-- --only q3,q14]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { freePort } from '../test/support/server.js';
import { prepareEngines } from './engines.js';
import { measureQuery } from './measure.js';
import { BENCH_QUERIES } from './queries.js';

interface Server {
  readonly name: string;
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** Starts the reference on a copy of the large fixture and waits until it answers (Strapi takes 10–30 s to boot). */
async function startStrapi(): Promise<Server> {
  const serveScript = join(conformanceKitDir(), '..', 'oracle', 'serve.sh');
  const installed = join(process.env.ORACLE_DIR ?? join(homedir(), '.cache', 'strapi-oracle'), 'strapi-app', 'node_modules', '@strapi', 'strapi');
  if (!existsSync(serveScript) || !existsSync(installed)) throw new Error(`the reference is not installed: run ${join(conformanceKitDir(), '..', 'oracle', 'install.sh')}`);
  const port = await freePort();
  const child = spawn('bash', [serveScript, String(port), join(conformanceKitDir(), 'db', 'strapi-large.db')], { stdio: 'ignore', detached: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/api/articles`, { signal: AbortSignal.timeout(2_000) })).ok) return { name: 'strapi', baseUrl, stop };
    } catch {
      // Still booting.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error('the reference did not answer within 120 s');
}

const geomean = (values: readonly number[]) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' }, only: { type: 'string' } } });
  const only = values.only ? new Set(values.only.split(',')) : null;
  const queries = BENCH_QUERIES.filter((query) => !only || only.has(query.id));
  const options = { seconds: Number(values.seconds), samples: 10, connections: 10 };
  const servers: Server[] = [];
  try {
    servers.push(await startStrapi());
    for (const engine of await prepareEngines()) servers.push({ name: engine.name, baseUrl: engine.baseUrl, stop: engine.stop });
    const ours = servers.slice(1);
    process.stdout.write(`\nrequests/s at 10 connections, each server alone, ${options.seconds} s per query\n`);
    process.stdout.write(`${'query'.padEnd(6)}${'strapi'.padStart(9)}${ours.map((server) => `${server.name.padStart(10)}${'×'.padStart(8)}`).join('')}  path\n`);
    const ratios = new Map<string, number[]>(ours.map((server) => [server.name, []]));
    for (const query of queries) {
      const figures = [];
      for (const server of servers) figures.push(await measureQuery(server.baseUrl, query.path, options));
      const strapi = figures[0]!.rps;
      let line = `${query.id.padEnd(6)}${strapi.toFixed(0).padStart(9)}`;
      for (const [index, server] of ours.entries()) {
        const ratio = figures[index + 1]!.rps / strapi;
        ratios.get(server.name)!.push(ratio);
        line += `${figures[index + 1]!.rps.toFixed(0).padStart(10)}${`${ratio.toFixed(1)}×`.padStart(8)}`;
      }
      process.stdout.write(`${line}  ${query.path}\n`);
    }
    for (const [name, list] of ratios) process.stdout.write(`${name}: ${geomean(list).toFixed(1)}× Strapi 4.26.2's requests/s in geometric mean\n`);
  } finally {
    for (const server of servers) await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
