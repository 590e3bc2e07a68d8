/**
 * koa-content-api: the Strapi v4 content API (reads and writes) for a Koa app, from YAML schema files.
 *
 *   const api = await contentApi({ root: '.', database: 'sqlite:.data/content.db' });
 *   app.use(api.routes());
 *   // … on shutdown: await api.close();
 */
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { CLOSED_API, loadPermissions, PermissionsFileMissing, type Permissions } from './access/permissions.js';
import type { RoleResolver } from './http/caller.js';
import { createAccessRules } from './access/rules.js';
import { watchFile } from './access/watch-file.js';
import { createRouter } from './http/router.js';
import { graphqlMiddleware, type GraphqlOptions } from './graphql/service.js';
import { methodErrorsAsJson, notFound } from './http/errors.js';
import { cacheControlPolicy, type CacheControlOption, type CacheControlPolicy } from './http/cache-control.js';
import { corsMiddleware, type CorsOptions } from './http/cors.js';
import { databaseAnswers, DEFAULT_HEALTH_PATHS, healthRoutes, type HealthPaths } from './http/health.js';
import { withOperations } from './http/operations.js';
import { requestLog } from './http/request-log.js';
import type { ExecutionStats } from './sql/execute.js';
import { loadSchema } from './schema/load.js';
import type { Registry } from './schema/registry.js';
import { createExecutor, DEFAULT_TIMEOUT_MS } from './sql/execute.js';
import { Statistics } from './sql/statistics.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './response-budget.js';
import { checkDatabase } from './storage/check-database.js';
import { clientOf, openDatabase } from './storage/database.js';
import { hasTableVersions } from './storage/change-triggers.js';
import { syncSchema } from './storage/sync.js';
import { buildModels, type ModelSet } from './storage/models.js';
import { storedDefaultLocale } from './storage/strapi-settings.js';
import { readLocaleEntries } from './storage/strapi-locales.js';
import { DEFAULT_MAX_BODY_BYTES } from './http/read-body.js';
import { WriteSchema } from './write/row-store.js';
import { compileScalarChecker } from './write/scalar-values.js';
import type { WriteEngine } from './write/write.js';
import { Lifecycles, loadLifecycleModules, type LifecycleHooks, type LifecycleOption } from './write/lifecycles.js';
import type { EventEmitter } from 'node:events';
import { EndUsers } from './auth/end-users.js';
import { seedStockRoles } from './auth/stock-roles.js';
import { usersConfig, type UsersOptions } from './auth/options.js';
import { UserStore } from './auth/user-store.js';
import { MailQueue, mailFailureReporter } from './auth/mail.js';
import { dialectOf } from './sql/dialect/dialects.js';
import { startWebhooks, type Webhooks, type WebhooksOption } from './webhooks/webhooks.js';
import compose from 'koa-compose';
import { hasFolderReadTables, syncFolderTables } from './upload/folder-tables.js';
import { createMediaApi, type MediaApi } from './upload/host-upload.js';
import { MediaLibrary } from './upload/media-library.js';
import { uploadSettings, type UploadOptions } from './upload/options.js';
import { removeStaleReceivingFolders } from './upload/receiving-folder.js';
import { serveLocalUploads } from './http/serve-local-uploads.js';
import type { CacheOptions } from './cache/options.js';
import { startCache, type CacheStatus, type StartedCache } from './cache/start-cache.js';

export { PermissionsFileMissing } from './access/permissions.js';
export { ApiError, ValidationError, UnauthorizedError, ForbiddenError, NotFoundError } from './errors.js';
export { SchemaError, type SchemaProblem } from './schema/problems.js';
export type { Registry, Model, Attribute } from './schema/registry.js';
export type { RoleResolver } from './http/caller.js';
export type { UsersOptions, UsersRegisterOptions } from './auth/options.js';
export type { UsersEmailOptions } from './auth/email-options.js';
export type { ProviderOptions, UsersProvidersOptions } from './auth/provider-options.js';
export type { MailTemplate } from './auth/mail-templates.js';
export { smtpSender, type MailMessage, type MailSender, type SmtpSenderOptions } from './auth/mail.js';
export { generateOpenApi, type OpenApiOptions } from './openapi/document.js';
export { generateTypes } from './codegen/types.js';
export type { CacheControlOption } from './http/cache-control.js';
export type { CorsOptions } from './http/cors.js';
export type { HealthPaths } from './http/health.js';
export type { EntryEvent, FileFacts, LifecycleAction, LifecycleDataEvent, LifecycleEntryEvent, LifecycleEvent, LifecycleHook, LifecycleHooks, LifecycleOption, LifecycleState, MediaEvent } from './write/lifecycles.js';
export { buildModels, type BuildModelsOptions, type ModelClass, type ModelSet } from './storage/models.js';
export { TableModel, ComponentJoinModel } from './storage/table-model.js';
export type { Webhooks, WebhooksOption, WebhookTargetOption } from './webhooks/webhooks.js';
export type { WebhookConfig, WebhookEvent, WebhookTarget, UnsetVariable } from './webhooks/config.js';
export { WebhookVariablesUnset } from './webhooks/config.js';
export { signature as webhookSignature } from './webhooks/send.js';
export type { UploadOptions } from './upload/options.js';
export type { CacheOptions } from './cache/options.js';
export type { CacheStatus } from './cache/start-cache.js';
export { CacheWithoutTriggers } from './cache/start-cache.js';
export type { MediaApi, MediaUploadInfo } from './upload/host-upload.js';
export type { StorageProvider, StagingProvider, StagedObject, StoredObject, StoredLocation } from './upload/provider.js';
export { createLocalProvider, type LocalProviderOptions } from './upload/local-provider.js';
export { createS3Provider, type S3ProviderOptions } from './upload/s3-provider.js';

export interface ContentApiOptions {
  /** The schema folder: content-types/, components/ and permissions.yaml (default `.`). */
  root?: string;
  /** `sqlite:<path>`, `postgres://…`, or a knex instance the host owns. */
  database: string | Knex;
  /**
   * Read replicas of a PostgreSQL or MariaDB database (`postgres://…` or `mysql://…` URLs, or knex
   * instances the host owns, of the database's kind): reads are
   * spread over them in turn, and go to `database` only when no replica answers. A replica that
   * fails is set aside for a few seconds, its share going to the others. Reads may lag behind the
   * primary by the replication delay.
   */
  replicas?: readonly (string | Knex)[];
  /** How long a replica that failed is set aside, its share going to the others (ms; default 5000). */
  replicaSetAside?: number;
  /**
   * Create the missing tables, columns and indexes at start (default true); never drops anything
   * but an index it made for a schema file's declaration that is gone (docs/indexes.md).
   */
  sync?: boolean;
  /** Route prefix (default `/api`). */
  prefix?: string;
  /** Page size when none is asked for (default 25). */
  defaultLimit?: number;
  /** Largest page size (default 100). */
  maxLimit?: number;
  /** Whether lists count their total by default (default true). */
  withCount?: boolean;
  /** Most relation, component or media hops in one filter or sort path (default 6); beyond it, a 400. */
  maxRelationHops?: number;
  /** The i18n default locale (default: the one a Strapi database was configured with, else `en`). */
  defaultLocale?: string;
  /**
   * The locales entries may be written in, and that `GET <prefix>/i18n/locales` lists (default:
   * those a Strapi database was configured with, else the default locale and those the content
   * uses at start). Reads take any code.
   */
  locales?: readonly string[];
  /** Largest write body in bytes (default 1 MB, as Strapi): a larger one is a 413. */
  maxBodyBytes?: number;
  /** Roles, permissions and tokens (default `<root>/permissions.yaml`). */
  permissionsFile?: string;
  /**
   * Start without the permissions file, as an API closed to every caller (default false: a missing
   * file is an error at start, since a closed API is rarely what a deploy meant). A file deleted
   * while serving never closes the API: the rules in force stay.
   */
  allowMissingPermissions?: boolean;
  /** Re-read the permissions file when it changes (default true); `api.close()` stops watching. */
  watchPermissions?: boolean;
  /**
   * Told when a changed permissions file does not load — invalid, empty or deleted (the rules in
   * force stay); default: printed to stderr.
   */
  onPermissionsError?: (error: unknown) => void;
  /** The caller's role when no API token is sent (default: `ctx.state.user.role`, else `public`). */
  resolveRole?: RoleResolver;
  /** Add a Server-Timing header with the database time and statement count (default false). */
  serverTiming?: boolean;
  /**
   * Answer unmatched paths under the prefix with the API's 404 envelope (default true). Routes the
   * host mounts after `routes()` still answer first; `false` leaves the 404 to a host middleware
   * that runs before the API and answers after `next()` (koa-static with `defer`, a fallback page).
   */
  notFound?: boolean;
  /** How many compiled query shapes to remember (default 1000; 0 disables the cache). */
  planCacheSize?: number;
  /** Serve the OpenAPI 3.1 document of the caller's role at `<prefix>/openapi.json` (default false). */
  openapi?: boolean;
  /**
   * Serve the explorer at `<prefix>/_explorer` (default false): a page that builds queries and
   * shows their responses and SQL. For development: it shows the compiled SQL of any request.
   */
  explorer?: boolean;
  /**
   * How long connecting to PostgreSQL, or waiting for a pooled connection, may take in ms (default
   * 2000): past it, a 503. For a database URL; a host's knex instance keeps its own settings.
   */
  connectTimeout?: number;
  /** A request's time budget in ms (default 10000): a statement still running then is stopped, and the answer is a 503. */
  timeout?: number;
  /** Largest response body in bytes (default 32 MB): a larger one is a 400 naming the populate to narrow. */
  maxResponseBytes?: number;
  /** Statements running at once (default 4 per core; on SQLite, one per read worker); the others wait their turn. */
  maxConcurrentStatements?: number;
  /** Statements waiting their turn before new requests get a 503 with Retry-After (default 64 per running statement). */
  maxQueuedStatements?: number;
  /** SQLite read worker threads (default: one per core, and one that only light statements may take; beyond the first two, started when statements need them); 0 runs reads on the event loop, as in-memory databases do. */
  sqliteReadWorkers?: number;
  /** The clock, for token expiry (default Date.now). */
  now?: () => number;
  /**
   * Liveness and readiness routes, outside the prefix (default `{ live: '/_health', ready: '/_ready' }`):
   * served by `routes()`; `false` serves neither.
   */
  health?: Partial<HealthPaths> | false;
  /**
   * `Cache-Control` of the content routes' answers: `default` (default `no-cache`) and a value per
   * content type uid. Answers for a caller with a token or a host-resolved role are made `private`.
   * `false` sets no header.
   */
  cacheControl?: CacheControlOption;
  /** CORS on the API's paths (default: Strapi's, any origin); `false` when the host handles CORS. */
  cors?: CorsOptions | false;
  /** A pino logger for one line per request the plugin answers (default: none). Query values are never logged. */
  logger?: Logger | false;
  /**
   * Lifecycle hooks of the API's writes, per content type uid and `'*'` for all:
   * `{ 'api::article.article': { beforeCreate(event) {…}, afterUpdate(event) {…} } }` (docs/writes.md).
   * A type's `content-types/<name>.lifecycles.js` (`.mjs`; `.ts`, `.mts`, `.cts` when the process
   * can import TypeScript) is imported at start, its hooks run
   * after those of `'*'` and before these.
   */
  lifecycles?: LifecycleOption;
  /**
   * End users who log in, as Strapi's users-permissions plugin serves them (docs/users.md):
   * `POST <prefix>/auth/local`, `POST <prefix>/auth/local/register` (when `register` is on),
   * `GET <prefix>/users/me`, and their login tokens (`Authorization: Bearer <jwt>`) read as their
   * role on every route. Off by default. With `sync` on, an empty roles table is given Strapi's
   * Authenticated and Public roles at start, as a Strapi app's first start gives them.
   */
  users?: UsersOptions;
  /**
   * Webhooks (docs/webhooks.md): targets from `<root>/webhooks.yaml` (or `file`), reloaded when it
   * changes; each write records its events in an outbox table in its own transaction, and this
   * process delivers them unless `deliver: false`.
   */
  webhooks?: WebhooksOption;
  /**
   * The media library (Strapi's upload routes, docs/uploads.md): where files go, size and count
   * limits, image formats. On by default; the routes need `upload`, `find`, `findOne` or `destroy`
   * on `file` in permissions.yaml. `false` serves neither the routes nor `/uploads`.
   */
  upload?: UploadOptions | false;
  /**
   * Serve Strapi's GraphQL API (docs/graphql.md): `true`, or the GraphQL plugin's settings
   * (`endpoint`, `depthLimit`, `defaultLimit`, `maxLimit`, `amountLimit`, `shadowCRUD`,
   * `introspection`). Off by default.
   */
  graphql?: GraphqlOptions | true;
  /**
   * Keep finished answers in memory until a table they read changes, whoever writes it (off by
   * default; docs/cache.md): `{ maxBytes: '256MB' }`. With sync on, PostgreSQL and MariaDB get the
   * change triggers that tell every server of a write.
   */
  cache?: CacheOptions | false;
}

export interface ContentApi {
  /**
   * The Koa middleware serving the routes, and on the API's own paths only: the health routes,
   * CORS, the request log, ETags and Cache-Control (see the `health`, `cors`, `logger` and
   * `cacheControl` options).
   */
  routes(): Middleware;
  /** 405 (with `Allow`) and 501 answers for other methods on the API's paths, in the error envelope. */
  allowedMethods(): Middleware;
  readonly registry: Registry;
  /** The permissions in force. */
  readonly permissions: Permissions;
  readonly knex: Knex;
  /** The Objection models of every content type, component and the file type, bound to `knex`. */
  readonly models: ModelSet;
  /**
   * The media library for host code: `api.media.upload(stream, { filename })` stores a file as
   * `POST /api/upload` does (limits, sniffing, formats, webhooks) and answers it as the route does
   * (docs/uploads.md).
   */
  readonly media: MediaApi;
  /** `entry.create`, `entry.update`, `entry.delete`, `entry.publish`, `entry.unpublish`: told after a write of the API commits. */
  readonly events: EventEmitter;
  /** webhooks.yaml in force and its reload; the outbox that writes record their events in (the media library's included). */
  readonly webhooks: Webhooks;
  /**
   * Reads permissions.yaml again and puts it in force for the next request (plans of the old
   * rules are dropped). An invalid or empty file throws a SchemaError with every problem, a
   * deleted one a PermissionsFileMissing, and the rules in force stay. The file is also watched
   * (`watchPermissions`).
   */
  reloadPermissions(): Promise<void>;
  /** The response cache (the `cache` option): what it says of itself, and its counters; null when off. */
  readonly cache: CacheStatus | null;
  /** Stops the read workers and closes the database connections the plugin opened (not a knex instance the host passed). */
  close(): Promise<void>;
}

/** The value of `load`, loaded once, at the first call; a failed load is tried again at the next. */
function memoize<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => (loaded ??= load().catch((error: unknown) => ((loaded = null), Promise.reject(error))));
}

/** The permissions at start: a missing file is an error unless the API is meant to be closed. */
async function loadStartPermissions(file: string, registry: Registry, allowMissing: boolean): Promise<Permissions> {
  const loaded = await loadPermissions(file, 'permissions.yaml', registry);
  if (loaded) return loaded;
  if (allowMissing) return CLOSED_API;
  throw new PermissionsFileMissing(
    file,
    `no permissions file at ${file}: without it every caller is refused. Create it ("roles: {}" for an API closed on purpose), or pass allowMissingPermissions: true (serve --allow-missing-permissions) to start closed without it`,
  );
}

/** Loads the schema and permissions, syncs the database when asked, and builds the routes. */
export async function contentApi(options: ContentApiOptions): Promise<ContentApi> {
  const root = options.root ?? '.';
  // Checked before anything is opened: a bad users option has nothing to clean up.
  const users = options.users ? usersConfig(options.users) : null;
  const ownsDatabase = typeof options.database === 'string';
  // With sync off, a SQLite file that does not exist is a mistake, not a database to create empty.
  const knex =
    typeof options.database === 'string'
      ? openDatabase(options.database, { mustExist: options.sync === false, connectTimeout: options.connectTimeout })
      : options.database;
  let registry: Registry;
  let permissions: Permissions;
  let cacheControl: CacheControlPolicy;
  let lifecycleModules: Map<string, LifecycleHooks>;
  let userStore: UserStore | null = null;
  let webhooks: Webhooks | null = null;
  let tableVersions = false;
  try {
    await checkDatabase(knex);
    const defaultLocale = options.defaultLocale ?? (await storedDefaultLocale(knex)) ?? 'en';
    registry = await loadSchema(root, { defaultLocale });
    if (users) userStore = new UserStore(knex, registry);
    cacheControl = cacheControlPolicy(options.cacheControl, registry);
    lifecycleModules = await loadLifecycleModules(root, registry);
    permissions = await loadStartPermissions(options.permissionsFile ?? join(root, 'permissions.yaml'), registry, options.allowMissingPermissions === true);
    if (options.sync !== false) await syncSchema(knex, registry, { changeTriggers: Boolean(options.cache) });
    tableVersions = await hasTableVersions(knex, registry);
    // As a Strapi app's first start: a fresh database gets the Authenticated and Public roles.
    if (users && options.sync !== false) await seedStockRoles(knex, registry, new Date((options.now ?? Date.now)()));
    if (options.sync !== false && options.upload !== false) await syncFolderTables(knex);
    // Readers in worker threads and a writer then never block each other. Only on a database the
    // plugin opened and may change: an existing Strapi database served with sync off keeps its mode.
    if (ownsDatabase && options.sync !== false && clientOf(knex) === 'sqlite') await knex.raw('PRAGMA journal_mode = WAL');
    webhooks = await startWebhooks(
      { knex, registry, dialect: dialectOf(knex), limits: { defaultLimit: 1, maxLimit: 1, withCount: false, maxRelationHops: options.maxRelationHops }, sync: options.sync !== false },
      options.webhooks?.file ?? join(root, 'webhooks.yaml'),
      // Watched as permissions.yaml is, unless the option says otherwise.
      { watch: options.watchPermissions !== false, ...options.webhooks },
    );
  } catch (error) {
    await webhooks?.close();
    if (ownsDatabase) await knex.destroy();
    throw error;
  }
  const replicas = (options.replicas ?? []).map((replica) =>
    typeof replica === 'string' ? openDatabase(replica, { connectTimeout: options.connectTimeout }) : replica,
  );
  const ownedReplicas = replicas.filter((_, index) => typeof options.replicas![index] === 'string');
  // A replica is read with the primary's dialect: it must be a server of the same kind.
  if (replicas.some((replica) => clientOf(replica) !== clientOf(knex)) || (replicas.length && clientOf(knex) === 'sqlite')) {
    await Promise.all(ownedReplicas.map((replica) => replica.destroy()));
    await webhooks.close();
    if (ownsDatabase) await knex.destroy();
    throw new Error('replicas are PostgreSQL servers replicating a PostgreSQL database, or MariaDB servers replicating a MariaDB database');
  }
  const executorOptions = {
    tableVersions,
    timeout: options.timeout,
    maxConcurrentStatements: options.maxConcurrentStatements,
    maxQueuedStatements: options.maxQueuedStatements,
    sqliteReadWorkers: options.sqliteReadWorkers,
  };
  const executor = createExecutor(knex, { replicas, replicaSetAside: options.replicaSetAside, ...executorOptions });
  // A write's answer is read where the write went: a replica may not have it yet.
  const primaryExecutor = replicas.length ? createExecutor(knex, executorOptions) : executor;
  let cache: StartedCache | null = null;
  try {
    await Promise.all([executor.ready(), primaryExecutor.ready()]);
    if (options.cache) cache = await startCache(knex, registry, options.cache, replicas.length > 0);
  } catch (error) {
    await Promise.all(ownedReplicas.map((replica) => replica.destroy()));
    await executor.close();
    if (primaryExecutor !== executor) await primaryExecutor.close();
    await webhooks.close();
    if (ownsDatabase) await knex.destroy();
    throw error;
  }
  // The data's figures, for estimates (sql/estimate.ts): gathered beside the first requests, not before them.
  const statistics = new Statistics(knex, executor.dialect, registry);
  void statistics.gather();
  const planCacheSize = options.planCacheSize ?? 1000;
  // Read at the first request that needs them: start-up touches no content table.
  const localeEntries = memoize(() => readLocaleEntries(knex, registry, options.locales));
  let rules = createAccessRules(permissions, planCacheSize);
  const engine: WriteEngine = {
    registry,
    rules: () => rules,
    executor,
    limits: { defaultLimit: options.defaultLimit ?? 25, maxLimit: options.maxLimit ?? 100, withCount: options.withCount ?? true, maxRelationHops: options.maxRelationHops },
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    statistics,
    knex,
    schema: new WriteSchema(registry),
    checker: compileScalarChecker(registry),
    locales: memoize(async () => new Set((await localeEntries()).map((entry) => entry.code))),
    localeEntries,
    now: options.now ?? Date.now,
    primaryExecutor,
    lifecycles: new Lifecycles(options.lifecycles, lifecycleModules),
    outbox: webhooks.outbox,
  };
  const upload = options.upload === false ? null : uploadSettings(options.upload ?? {}, root);
  // What a server killed during an upload left in tmpdir.
  if (upload) await removeStaleReceivingFolders();
  // One library for the routes and the host's `api.media`: one limit on the images processed at once.
  const mediaLibrary = upload ? new MediaLibrary(engine, upload, options.timeout ?? DEFAULT_TIMEOUT_MS, (error, message) => (options.logger ? options.logger.error({ err: error }, message) : undefined)) : null;
  const permissionsFile = options.permissionsFile ?? join(root, 'permissions.yaml');
  // One swap of the whole snapshot: a request sees the old rules or the new, never a mix.
  const reloadPermissions = async (): Promise<void> => {
    const loaded = await loadPermissions(permissionsFile, 'permissions.yaml', registry);
    // A deleted file is a mistake to survive, not a request to close the API (that is `roles: {}`).
    if (!loaded) throw new PermissionsFileMissing(permissionsFile, `no such file: ${permissionsFile} (an API closed to every caller says "roles: {}")`);
    rules = createAccessRules(loaded, planCacheSize);
  };
  const reportReloadError = options.onPermissionsError ?? ((error: unknown) => process.stderr.write(`permissions.yaml not reloaded, the rules in force stay:\n${error instanceof Error ? error.message : String(error)}\n`));
  const watcher = options.watchPermissions === false ? null : watchFile(permissionsFile, () => reloadPermissions().catch(reportReloadError));
  const prefix = options.prefix ?? '/api';
  const statsByRequest = new WeakMap<Context, ExecutionStats>();
  const logger = options.logger;
  const reportHookError = logger ? (error: unknown) => logger.error({ err: error }, 'lifecycle hook or event listener failed after the write committed') : undefined;
  const endUsers = users && userStore ? new EndUsers(users, userStore, engine.now) : undefined;
  const accountMail = users?.email ? new MailQueue(users.email.sender, mailFailureReporter(options.logger)) : null;
  const router = createRouter(engine, {
    prefix,
    serverTiming: options.serverTiming === true,
    resolveRole: options.resolveRole,
    now: options.now ?? Date.now,
    openapi: options.openapi === true,
    explorer: options.explorer === true,
    timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
    maxLimit: engine.limits.maxLimit,
    cacheControl,
    recordStats: (ctx, stats) => statsByRequest.set(ctx, stats),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    users: endUsers,
    mail: accountMail ?? undefined,
    reportHookError,
    upload: mediaLibrary ?? undefined,
    cache: cache?.reads,
  });
  const routes = router.routes() as unknown as Middleware;
  const withNotFound = notFound(prefix);
  const health = options.health === false ? null : { ...DEFAULT_HEALTH_PATHS, ...options.health };
  const apiRoutes = withOperations(
    {
      prefix,
      health,
      log: options.logger ? requestLog(options.logger, (ctx) => statsByRequest.get(ctx)) : null,
      cors: options.cors === false ? null : corsMiddleware(options.cors),
      healthRoutes: health ? healthRoutes(health, () => databaseAnswers(executor)) : null,
    },
    options.notFound !== false ? (ctx, next) => withNotFound(ctx, () => routes(ctx, next)) : routes,
  );
  const graphql = options.graphql
    ? graphqlMiddleware(engine, options.graphql, {
        resolveRole: options.resolveRole,
        now: options.now ?? Date.now,
        timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        serverTiming: options.serverTiming === true,
        reportHookError,
        users: endUsers,
        upload: mediaLibrary ?? undefined,
        cache: cache?.reads,
        folders: await hasFolderReadTables(knex),
      })
    : null;
  const doors = graphql ? compose([graphql, apiRoutes]) : apiRoutes;
  const served = upload?.localFolder ? compose([serveLocalUploads(upload.localFolder), doors]) : doors;
  return {
    routes: () => served,
    allowedMethods: () => methodErrorsAsJson(router.allowedMethods() as unknown as Middleware) as unknown as Middleware,
    registry,
    get permissions() {
      return rules.permissions;
    },
    knex,
    models: buildModels(registry, knex),
    media: createMediaApi(engine, mediaLibrary, options.timeout ?? DEFAULT_TIMEOUT_MS, reportHookError),
    events: engine.lifecycles.events,
    webhooks,
    reloadPermissions,
    cache: cache?.status ?? null,
    async close() {
      watcher?.close();
      await cache?.close();
      await accountMail?.close();
      mediaLibrary?.close();
      await statistics.close();
      await webhooks.close();
      await executor.close();
      if (primaryExecutor !== executor) await primaryExecutor.close();
      await Promise.all(ownedReplicas.map((replica) => replica.destroy()));
      if (ownsDatabase) await knex.destroy();
    },
  };
}
