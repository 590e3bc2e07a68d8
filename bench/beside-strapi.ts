/**
 * `npm run bench:strapi`: the 17 bench queries measured in one run beside the reference Strapi
 * 4.26.2 (../shared/oracle, installed with its install.sh), on copies of the same large fixture:
 * requests per second at 10 connections for Strapi, for `content-api serve` on SQLite and — when
 * a PostgreSQL server is configured — on the same data in PostgreSQL, with the ratios and their
 * geometric means. When TEST_MYSQL_URL names a MariaDB server, `serve` on the same data in MariaDB
 * is measured too, and so is Strapi on MariaDB (strapi-mariadb.ts): the last column is `serve` on
 * MariaDB against Strapi on MariaDB. Each server is measured alone (the others idle), query by query.
 *
 * Each engine is also served with the response cache (`serve --cache 256MB`): its `warm` column is
 * the same query once its answer is kept, answered from memory until a write. The headline ratios
 * stay the cold ones. The closing note adds what the cache costs a write and a read it cannot
 * answer (cache-cost.ts; `--no-cost` leaves it out).
 *
 * `--index article.views:desc` measures every server with one more index, declared for `serve` and
 * created for Strapi (declared-index.ts): the standard run stays on Strapi's layout.
 *
 *   npm run bench:strapi [-- --seconds 2] [-- --only q3,q14] [-- --no-cost] [-- --index article.views:desc]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { mysqlServerUrl } from '../test/support/databases.js';
import { declareBenchIndex } from './declared-index.js';
import { prepareEngines } from './engines.js';
import { measureCacheCost } from './cache-cost.js';
import { measureQuery } from './measure.js';
import { BENCH_QUERIES } from './queries.js';
import { startStrapiOnMariadb } from './strapi-mariadb.js';
import { startStrapi } from './strapi-server.js';

interface Server {
  readonly name: string;
  readonly baseUrl: string;
  stop(): Promise<void>;
}

const geomean = (values: readonly number[]) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' }, only: { type: 'string' }, 'no-cost': { type: 'boolean', default: false }, index: { type: 'string' } } });
  const only = values.only ? new Set(values.only.split(',')) : null;
  const queries = BENCH_QUERIES.filter((query) => !only || only.has(query.id));
  const options = { seconds: Number(values.seconds), samples: 10, connections: 10 };
  const servers: Server[] = [];
  // Measured last, but started before ours: stopped in `finally` even when preparing ours fails.
  let strapiOnMariadb: Server | null = null;
  const index = values.index ? await declareBenchIndex(values.index) : null;
  try {
    const fixture = join(conformanceKitDir(), 'db', 'strapi-large.db');
    // BENCH_STRAPI_PORT: the port of the reference on SQLite (the next one for MariaDB's), else free ones.
    const port = process.env.BENCH_STRAPI_PORT ? Number(process.env.BENCH_STRAPI_PORT) : undefined;
    if (index) process.stdout.write(`every server's database has ${index.description} (declared for serve, created for Strapi)\n`);
    const strapiFile = index ? await index.sqliteCopy(fixture) : fixture;
    servers.push(await startStrapi(strapiFile, { port }));
    await index?.verify(strapiFile);
    strapiOnMariadb = mysqlServerUrl() ? { ...(await startStrapiOnMariadb(fixture, port === undefined ? undefined : port + 1, index ?? undefined)), name: 'strapi-mysql' } : null;
    for (const engine of await prepareEngines({ mysql: true, cache: '256MB', root: index?.root })) servers.push({ name: engine.name, baseUrl: engine.baseUrl, stop: engine.stop });
    const ours = servers.slice(1);
    if (strapiOnMariadb) servers.push(strapiOnMariadb);
    const mysqlAgainstItsStrapi = strapiOnMariadb ? ours.findIndex((server) => server.name === 'mysql') : -1;
    process.stdout.write(`\nrequests/s at 10 connections, each server alone, ${options.seconds} s per query; × against Strapi on SQLite\n`);
    process.stdout.write(
      `${'query'.padEnd(6)}${'strapi'.padStart(9)}${ours.map((server) => `${server.name.padStart(13)}${'×'.padStart(8)}`).join('')}` +
        `${strapiOnMariadb ? `${'strapi-mysql'.padStart(14)}${'mysql ×'.padStart(9)}` : ''}  path\n`,
    );
    const ratios = new Map<string, number[]>(ours.map((server) => [server.name, []]));
    const mariadbRatios: number[] = [];
    for (const query of queries) {
      const figures = [];
      for (const server of servers) {
        figures.push(
          await measureQuery(server.baseUrl, query.path, options).catch((error: Error) => {
            throw new Error(`${server.name}, ${query.id}: ${error.message}`);
          }),
        );
      }
      const strapi = figures[0]!.rps;
      let line = `${query.id.padEnd(6)}${strapi.toFixed(0).padStart(9)}`;
      for (const [index, server] of ours.entries()) {
        const ratio = figures[index + 1]!.rps / strapi;
        ratios.get(server.name)!.push(ratio);
        line += `${figures[index + 1]!.rps.toFixed(0).padStart(13)}${`${ratio.toFixed(1)}×`.padStart(8)}`;
      }
      if (strapiOnMariadb) {
        const reference = figures[servers.length - 1]!.rps;
        const ratio = figures[mysqlAgainstItsStrapi + 1]!.rps / reference;
        mariadbRatios.push(ratio);
        line += `${reference.toFixed(0).padStart(14)}${`${ratio.toFixed(1)}×`.padStart(9)}`;
      }
      process.stdout.write(`${line}  ${query.path}\n`);
    }
    for (const [name, list] of ratios) {
      if (!name.endsWith(' warm')) process.stdout.write(`${name}: ${geomean(list).toFixed(1)}× Strapi 4.26.2's requests/s (on SQLite) in geometric mean\n`);
    }
    if (mariadbRatios.length) process.stdout.write(`mysql: ${geomean(mariadbRatios).toFixed(1)}× Strapi 4.26.2's requests/s on MariaDB in geometric mean\n`);
    const warm = [...ratios].filter(([name]) => name.endsWith(' warm'));
    process.stdout.write(`with the response cache, answers kept (warm): ${warm.map(([name, list]) => `${name.replace(' warm', '')} ${geomean(list).toFixed(1)}×`).join(', ')} Strapi 4.26.2's requests/s (on SQLite) in geometric mean\n`);

  } finally {
    for (const server of servers) await server.stop();
    if (strapiOnMariadb && !servers.includes(strapiOnMariadb)) await strapiOnMariadb.stop();
    index?.remove();
  }
  // Once every server of the table has stopped: the cost is measured on servers of its own.
  if (!values['no-cost']) process.stdout.write(`what the cache adds where it does not answer, p50 without → with it:\n${(await measureCacheCost(300)).join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
