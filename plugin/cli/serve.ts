/**
 * `content-api serve [--root DIR] [--database URL] [--host H] [--port P] [--no-sync]
 * [--no-server-timing] [--default-locale CODE] [--seed] [--openapi] [--dev]`: a Koa server with the API at
 * /api. `--port 0` picks a free port; the address is printed once listening. `--seed` fills a
 * database without entries with the demo data first (the quick start's `npm start`), and never
 * touches one that has entries. `--openapi` serves /api/openapi.json for the caller's role;
 * `--dev` the explorer at /api/_explorer; `--timeout` is a request's time budget in ms.
 */
import Koa from 'koa';
import { contentApi } from '../index.js';
import { formatSummary, seedIfEmpty } from '../seed/seed.js';
import { parseCommand, prepareDatabase, SCHEMA_AND_DATABASE, UsageError } from './common.js';

const USAGE =
  'usage: content-api serve [--root DIR] [--database URL] [--host H] [--port P] [--no-sync] [--no-server-timing] [--default-locale CODE] [--seed] [--openapi] [--dev] [--timeout MS]\n';

const OPTIONS = {
  ...SCHEMA_AND_DATABASE,
  host: { type: 'string', default: process.env.HOST || '127.0.0.1' },
  port: { type: 'string', default: process.env.PORT || '1337' },
  'no-sync': { type: 'boolean', default: false },
  'no-server-timing': { type: 'boolean', default: false },
  'default-locale': { type: 'string' },
  seed: { type: 'boolean', default: false },
  openapi: { type: 'boolean', default: false },
  dev: { type: 'boolean', default: false },
  timeout: { type: 'string' },
} as const;

function parseMilliseconds(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--timeout expects milliseconds, got "${text}"`, USAGE);
  return value;
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  // Without sync the database must already exist: its folder is not created either.
  prepareDatabase(values.database, { create: !values['no-sync'] });
  const api = await contentApi({
    root: values.root,
    database: values.database,
    sync: !values['no-sync'],
    serverTiming: !values['no-server-timing'],
    defaultLocale: values['default-locale'],
    notFound: true,
    openapi: values.openapi,
    explorer: values.dev,
    timeout: values.timeout === undefined ? undefined : parseMilliseconds(values.timeout),
  });
  if (values.seed) {
    try {
      const summary = await seedIfEmpty(api.knex, api.registry);
      if (summary) process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
    } catch (error) {
      await api.close();
      throw error;
    }
  }
  const app = new Koa();
  app.on('error', (error: unknown) => {
    process.stderr.write(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  });
  app.use(api.routes());
  app.use(api.allowedMethods());
  const server = app.listen(Number(values.port), values.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : values.port;
  process.stdout.write(`content-api listening on http://${values.host}:${port}/api\n`);
  process.on('SIGHUP', () => {
    api.reloadPermissions().then(
      () => process.stdout.write('permissions.yaml reloaded\n'),
      (error: unknown) => process.stderr.write(`permissions.yaml not reloaded, the rules in force stay:\n${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await api.close();
  return 0;
}
