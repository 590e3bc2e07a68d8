/**
 * `content-api serve [--root DIR] [--database URL] [--host H] [--port P] [--no-sync]
 * [--no-server-timing] [--default-locale CODE] [--locales CODES] [--seed] [--openapi] [--graphql] [--dev] [--timeout MS]
 * [--cors ORIGINS] [--quiet] [--watch] [--workers N] [--replica URL]… [--allow-missing-permissions]
 * [--users [--register [--default-role TYPE]] [--email-confirmation] [--jwt-expires-in SPAN] [mail and provider flags]]`:
 * a Koa server with the API at /api, /_health and /_ready.
 * `--port 0` picks a free port; the address is printed once listening. `--seed` fills a
 * database without entries with the demo data first (the quick start's `npm start`), and never
 * touches one that has entries. `--openapi` serves /api/openapi.json for the caller's role;
 * `--graphql` Strapi's GraphQL API at /graphql; `--dev` the explorer at /api/_explorer; `--timeout` is a request's time budget in ms; `--cors`
 * the allowed origins (default any); `--locales` the locales entries may be written in; `--quiet` drops the request log (one JSON line per request
 * on stdout); `--watch` rebuilds the API after each edit of the schema files. SIGTERM or SIGINT
 * drains the requests in flight, closes the database and exits 0. `--workers` runs that many
 * processes behind the port (default one, whose read workers already use every core; cluster.ts);
 * `--replica` (repeatable) names a PostgreSQL or MariaDB read replica. Without permissions.yaml, serve refuses to start unless
 * `--allow-missing-permissions` says the API is meant to be closed. `--users` serves end users
 * who log in (users-flags.ts; JWT_SECRET signs their tokens). HOST, PORT, DATABASE_URL, TIMEOUT, CORS_ORIGIN and WORKERS are the
 * defaults of their flags. UPLOAD_PROVIDER and the S3_* variables choose where uploads go (upload-env.ts).
 */
import { availableParallelism } from 'node:os';
import Koa from 'koa';
import { pino, type DestinationStream } from 'pino';
import { contentApi, type ContentApiOptions } from '../index.js';
import { clientOf } from '../storage/database.js';
import { parseCorsOrigins } from '../http/cors.js';
import { formatSummary, seedIfEmpty } from '../seed/seed.js';
import { DEFAULT_TIMEOUT_MS } from '../sql/execute.js';
import { commandHelp, parseCommand, prepareDatabase, SCHEMA_AND_DATABASE, SCHEMA_AND_DATABASE_HELP, UsageError } from './common.js';
import { parseByteSize } from '../cache/options.js';
import { installChangeTriggers } from '../storage/change-triggers.js';
import { isClusterWorker, isFirstWorker, leaveCluster, superviseWorkers, workerStopSignals } from './cluster.js';
import { liveApi } from './live-api.js';
import { shutdownOnSignals } from './shutdown.js';
import { uploadFromEnv } from './upload-env.js';
import { USERS_FLAGS, USERS_FLAGS_HELP, usersFromFlags } from './users-flags.js';

const OPTIONS = {
  ...SCHEMA_AND_DATABASE,
  host: { type: 'string', default: process.env.HOST || '127.0.0.1' },
  port: { type: 'string', default: process.env.PORT || '1337' },
  'no-sync': { type: 'boolean', default: false },
  'no-server-timing': { type: 'boolean', default: false },
  'default-locale': { type: 'string' },
  locales: { type: 'string' },
  seed: { type: 'boolean', default: false },
  openapi: { type: 'boolean', default: false },
  graphql: { type: 'boolean', default: false },
  dev: { type: 'boolean', default: false },
  timeout: { type: 'string', ...(process.env.TIMEOUT ? { default: process.env.TIMEOUT } : {}) },
  cors: { type: 'string', ...(process.env.CORS_ORIGIN ? { default: process.env.CORS_ORIGIN } : {}) },
  quiet: { type: 'boolean', default: false },
  watch: { type: 'boolean', default: false },
  workers: { type: 'string', ...(process.env.WORKERS ? { default: process.env.WORKERS } : {}) },
  replica: { type: 'string', multiple: true },
  'allow-missing-permissions': { type: 'boolean', default: false },
  cache: { type: 'string', ...(process.env.CACHE ? { default: process.env.CACHE } : {}) },
  'cache-max-age': { type: 'string' },
  ...USERS_FLAGS,
} as const;

const USAGE = commandHelp(
  'serve [--root DIR] [--database URL] [--host H] [--port P] [--no-sync] [--no-server-timing] [--default-locale CODE] [--locales CODES] [--seed] [--openapi] [--graphql] [--dev] [--timeout MS] [--cors ORIGINS] [--quiet] [--watch] [--workers N] [--replica URL]... [--allow-missing-permissions] [--cache SIZE [--cache-max-age MS]] [--users [--register [--default-role TYPE]] [--email-confirmation] [--jwt-expires-in SPAN] [--server-url URL] [--smtp-host HOST --mail-from ADDRESS [--smtp-port P] [--smtp-user U] [--smtp-secure] [--reset-password-url URL] [--confirmation-redirect URL]] [--github-callback URL [--github-client-id ID]] [--google-callback URL [--google-client-id ID]]]',
  OPTIONS,
  {
    ...SCHEMA_AND_DATABASE_HELP,
    host: ['H', 'the address to listen on (default $HOST, else 127.0.0.1)'],
    port: ['P', 'the port to listen on; 0 picks a free one (default $PORT, else 1337)'],
    'no-sync': 'do not create missing tables, columns and indexes at start: the database must be ready',
    'no-server-timing': 'leave out the Server-Timing header (database time and statement count)',
    'default-locale': ['CODE', "the i18n default locale (default the database's, else en)"],
    locales: ['CODES', "the locales entries may be written in, comma-separated: en,fr (default the database's)"],
    seed: 'fill a database without entries with the demo data first; one with entries is left alone',
    openapi: 'serve <prefix>/openapi.json, the OpenAPI document of the caller\'s role',
    graphql: 'serve Strapi\'s GraphQL API at /graphql (docs/graphql.md)',
    dev: 'serve the explorer at /api/_explorer (development only: it shows the SQL of any request)',
    timeout: ['MS', "a request's time budget in milliseconds; past it a 503 (default $TIMEOUT, else 10000)"],
    cors: ['ORIGINS', 'the allowed CORS origins: *, one origin or a comma-separated list (default $CORS_ORIGIN, else any)'],
    quiet: 'no request log (one JSON line per request on stdout)',
    watch: 'rebuild the API after each edit of the schema files (one process only)',
    workers: ['N', 'processes serving the port (default $WORKERS, else 1: its read workers use every core)'],
    replica: ['URL', 'a PostgreSQL or MariaDB read replica; repeatable'],
    'allow-missing-permissions': 'start without permissions.yaml, as an API closed to every caller (else a missing file is an error)',
    cache: ['SIZE', 'keep answers in memory until a table they read changes, up to SIZE (256MB; default $CACHE, else off; docs/cache.md)'],
    'cache-max-age': ['MS', 'serve a kept answer for at most MS milliseconds (needed on a database without change triggers)'],
    ...USERS_FLAGS_HELP,
  },
);

/**
 * One process by default: its read worker threads (SQLite) or the database's own processes
 * (PostgreSQL) already keep every core busy, and each further process costs its own copy of the
 * code, heaps and connections (on 2 cores: 2 processes took 2.8× the memory of one at idle, and
 * answered fewer requests per second; docs/performance.md#memory).
 */
function parseWorkers(text: string | undefined): number {
  if (text === undefined) return 1;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--workers expects a number of processes, got "${text}"`, USAGE);
  return value;
}

/**
 * The request log's stdout, written 4 KB at a time (about 20 lines) and at least every 50 ms
 * rather than with one write(2) per request: that write cost a small request 10–20 % of the
 * server's CPU (`/api/articles/1?populate=*`: 0.44 ms against 0.38 ms with --quiet). What is
 * still buffered is written when the process exits.
 */
function requestLogOutput(): DestinationStream & { flushSync(): void } {
  const output = pino.destination({ dest: 1, minLength: 4096, periodicFlush: 50 });
  process.once('exit', () => output.flushSync());
  return output;
}

/** `en,fr` → ['en', 'fr']; an empty list or code is a usage error. */
function parseLocales(text: string): string[] {
  const codes = text.split(',').map((code) => code.trim());
  if (codes.some((code) => code === '')) throw new UsageError(`--locales expects comma-separated locale codes such as en,fr, got "${text}"`, USAGE);
  return codes;
}

function uploadOptions(): ContentApiOptions['upload'] {
  try {
    return uploadFromEnv(process.env);
  } catch (error) {
    throw new UsageError((error as Error).message, USAGE);
  }
}

function parseMilliseconds(text: string, flag = '--timeout'): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${flag} expects milliseconds, got "${text}"`, USAGE);
  return value;
}

/** `--cache 256MB [--cache-max-age MS]` → the cache option. */
function cacheOption(size: string | undefined, maxAge: string | undefined): ContentApiOptions['cache'] {
  if (size === undefined) {
    if (maxAge !== undefined) throw new UsageError('--cache-max-age bounds the response cache: add --cache SIZE', USAGE);
    return undefined;
  }
  if (parseByteSize(size) === null) throw new UsageError(`--cache expects a size such as 256MB, got "${size}"`, USAGE);
  return { maxBytes: size, ...(maxAge === undefined ? {} : { maxAge: parseMilliseconds(maxAge, '--cache-max-age') }) };
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  const upload = uploadOptions();
  // Without sync the database must already exist: its folder is not created either.
  prepareDatabase(values.database, { create: !values['no-sync'] });
  const timeout = values.timeout === undefined ? undefined : parseMilliseconds(values.timeout);
  const workers = parseWorkers(values.workers);
  if (values.watch && workers > 1) throw new UsageError('--watch serves from one process: add --workers 1', USAGE);
  const inWorker = workers > 1 && isClusterWorker();
  let draining = false;
  const logOutput = values.quiet ? null : requestLogOutput();
  const options: ContentApiOptions & { root: string } = {
    root: values.root,
    database: values.database,
    sync: !values['no-sync'],
    serverTiming: !values['no-server-timing'],
    defaultLocale: values['default-locale'],
    locales: values.locales === undefined ? undefined : parseLocales(values.locales),
    notFound: true,
    openapi: values.openapi,
    ...(values.graphql ? { graphql: true as const } : {}),
    explorer: values.dev,
    timeout,
    cors: values.cors === undefined ? undefined : { origin: parseCorsOrigins(values.cors) },
    logger: logOutput ? pino({ base: null }, logOutput) : false,
    replicas: values.replica,
    allowMissingPermissions: values['allow-missing-permissions'],
    users: usersFromFlags(values, USAGE),
    upload,
    cache: cacheOption(values.cache, values['cache-max-age']),
  };
  if (workers > 1 && !inWorker) return servePrimary(options, workers, values.seed, values.host);
  if (inWorker) {
    // The primary synced and seeded; each process takes its share of the cores for its read workers.
    options.sync = false;
    // On SQLite the primary delivers the webhooks (deliveries are not locked there); on PostgreSQL every worker does.
    if (prepareDatabase(values.database, { create: false }).client === 'sqlite') options.webhooks = { deliver: false };
    options.sqliteReadWorkers = Math.max(1, Math.round(availableParallelism() / workers)) + 1;
  }
  const live = values.watch
    ? await liveApi(options, {
        reloaded: () => process.stdout.write('schema reloaded\n'),
        failed: (error) => process.stderr.write(`schema not reloaded, the running schema stays:\n${error instanceof Error ? error.message : String(error)}\n`),
      })
    : null;
  const api = live ? live.current() : await contentApi(options);
  if (values.seed && !inWorker) {
    try {
      const summary = await seedIfEmpty(api.knex, api.registry);
      if (summary) process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
    } catch (error) {
      await (live ?? api).close();
      throw error;
    }
  }
  const app = new Koa();
  app.on('error', (error: unknown) => {
    process.stderr.write(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  });
  app.use(async (ctx, next) => {
    // While draining, each answer closes its connection, so keep-alive clients reconnect elsewhere.
    await next();
    if (draining) ctx.set('Connection', 'close');
  });
  if (live) {
    app.use(live.middleware);
  } else {
    app.use(api.routes());
    app.use(api.allowedMethods());
  }
  const server = app.listen(Number(values.port), values.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : values.port;
  if (api.cache && (!inWorker || isFirstWorker())) process.stdout.write(`${api.cache.summary}\n`);
  if (!inWorker) process.stdout.write(`content-api listening on http://${values.host}:${port}/api${values.watch ? ' (watching the schema files)' : ''}\n`);
  process.on('SIGHUP', () => {
    if (live) {
      void live.reload();
      return;
    }
    api.reloadPermissions().then(
      () => process.stdout.write('permissions.yaml reloaded\n'),
      (error: unknown) => process.stderr.write(`permissions.yaml not reloaded, the rules in force stay:\n${error instanceof Error ? error.message : String(error)}\n`),
    );
    api.webhooks.reload().then(
      () => (api.webhooks.config().targets.length ? process.stdout.write('webhooks.yaml reloaded\n') : undefined),
      (error: unknown) => process.stderr.write(`webhooks.yaml not reloaded, the webhooks in force stay:\n${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  const signal = shutdownOnSignals(
    server,
    (timeout ?? DEFAULT_TIMEOUT_MS) + 1000,
    (line) => {
      draining = true;
      process.stdout.write(`${inWorker ? `worker ${process.pid}: ` : ''}${line}\n`);
    },
    inWorker ? workerStopSignals() : undefined,
  );
  await signal;
  await (live ?? api).close();
  logOutput?.flushSync();
  if (inWorker) leaveCluster();
  else process.stdout.write('content-api stopped\n');
  return 0;
}

/** `--workers N` above 1: the database prepared once here, then N processes serving it. */
async function servePrimary(options: ContentApiOptions, workers: number, seed: boolean, host: string): Promise<number> {
  // The workers keep the answers; here the database only gets the change triggers they need (with sync).
  const api = await contentApi({ ...options, cache: false, logger: false, sqliteReadWorkers: 0, watchPermissions: false });
  if (options.cache && options.sync !== false) await installChangeTriggers(api.knex, api.registry);
  // On SQLite the primary stays open to deliver the webhooks the workers' writes record.
  const delivers = clientOf(api.knex) === 'sqlite' && api.webhooks.config().targets.length > 0;
  try {
    const summary = seed ? await seedIfEmpty(api.knex, api.registry) : null;
    if (summary) process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
  } finally {
    if (!delivers) await api.close();
  }
  const code = await superviseWorkers(workers, (port) => process.stdout.write(`content-api listening on http://${host}:${port}/api (${workers} processes)\n`));
  if (delivers) await api.close();
  process.stdout.write('content-api stopped\n');
  return code;
}
