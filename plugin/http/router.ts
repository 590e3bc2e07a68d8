/**
 * The routes: `GET <prefix>/<pluralName>` (find) and `GET <prefix>/<pluralName>/:id` (findOne)
 * for collection types, `GET <prefix>/<singularName>` for single types, the write routes
 * (write-routes.ts), `GET <prefix>/i18n/locales` (locales-route.ts), and with the `users` option
 * the users-permissions routes (users/routes.ts). With the error renderer, the only code that knows Koa.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { read, type ReadEngine, type ReadResult } from '../read.js';
import { ResponseTooLargeError } from '../response-budget.js';
import { RefusalPacer } from './refusal-pacing.js';
import { resolveCaller, type RoleResolver } from './caller.js';
import type { Model } from '../schema/registry.js';
import type { ExecutionStats } from '../sql/execute.js';
import type { CacheControlPolicy } from './cache-control.js';
import { conditionalGet } from './conditional-get.js';
import { pacedBody } from './paced-body.js';
import { sendRead } from './send-read.js';
import { renderErrors } from './errors.js';
import { openApiHandler } from './openapi-route.js';
import { addExplorerRoutes } from './explorer-routes.js';
import { addWriteRoutes } from './write-routes.js';
import { parseEntryId } from '../query/entry-id.js';
import type { WriteEngine } from '../write/write.js';
import { addUserRoutes } from './users/routes.js';
import type { EndUsers } from '../auth/end-users.js';
import type { MailQueue } from '../auth/mail.js';
import { addUploadRoutes } from './upload-routes.js';
import { addLocalesRoute } from './locales-route.js';
import type { MediaLibrary } from '../upload/media-library.js';
import type { CachedReads, CacheOutcome } from '../cache/cached-read.js';
import { restRead } from './rest-read.js';

export interface RouterOptions {
  /** Where a lifecycle hook's or event listener's failure after commit goes (default: the app's 'error' event). */
  readonly reportHookError?: (error: unknown) => void;
  readonly prefix: string;
  readonly serverTiming: boolean;
  readonly resolveRole?: RoleResolver;
  readonly now: () => number;
  /** Serve `<prefix>/openapi.json` for the caller's role. */
  readonly openapi: boolean;
  /** Largest page size, as the OpenAPI document states it. */
  readonly maxLimit: number;
  /** Serve the development explorer at `<prefix>/_explorer`. */
  readonly explorer: boolean;
  /** A request's time budget (ms): past it, a 503. */
  readonly timeout: number;
  /** The Cache-Control of a content route's answer. */
  readonly cacheControl?: CacheControlPolicy;
  /** Told the statements each content request ran (for the request log). */
  readonly recordStats?: (ctx: Context, stats: ExecutionStats) => void;
  /** Largest write body in bytes: a larger one is a 413. */
  readonly maxBodyBytes: number;
  /** End users who log in (the `users` option): their routes, and their login tokens on every route. */
  readonly users?: EndUsers;
  /** The media library's routes (`/upload`, `/upload/files`), when it is on. */
  readonly upload?: MediaLibrary;
  /** The response cache, when it is on: reads go through it. */
  readonly cache?: CachedReads;
  /** Where the account flows' mails go (the `users.email` option). */
  readonly mail?: MailQueue;
}

export function createRouter(engine: WriteEngine, options: RouterOptions): Router {
  const router = new Router({ prefix: options.prefix });
  const refusals = new RefusalPacer();
  router.use(renderErrors);
  // Outside conditionalGet: a body is paced once its ETag is set and its 304 decided.
  router.use(pacedBody);
  router.use(conditionalGet);
  // First: its middleware reads login tokens for every route after it, and /users/me is not /users/:id.
  if (options.users) addUserRoutes(router, engine, options.users, options);
  if (options.openapi) router.get('/openapi.json', openApiHandler(engine, options));
  if (options.explorer) addExplorerRoutes(router, engine, options);
  if (options.upload) addUploadRoutes(router, engine, options.upload, options);
  addLocalesRoute(router, engine, options);
  for (const [route, model] of engine.registry.routes) {
    if (model.kind === 'singleType') {
      router.get(`/${route}`, (ctx) => handle(ctx, engine, options, refusals, model, 'find', null));
    } else {
      router.get(`/${route}`, (ctx) => handle(ctx, engine, options, refusals, model, 'find', null));
      router.get(`/${route}/:id`, (ctx) => handle(ctx, engine, options, refusals, model, 'findOne', parseEntryId(ctx.params.id)));
    }
  }
  addWriteRoutes(router, engine, options);
  return router;
}


async function handle(
  ctx: Context,
  engine: ReadEngine,
  options: RouterOptions,
  refusals: RefusalPacer,
  model: Model,
  action: 'find' | 'findOne',
  id: number | null,
): Promise<void> {
  const deadline = Date.now() + options.timeout;
  const rules = engine.rules();
  const caller = await resolveCaller(ctx, rules.tokens, options.resolveRole, options.now());
  const { role, identified } = caller;
  let result: ReadResult;
  let outcome: CacheOutcome | null = null;
  try {
    const request = { ...restRead(engine, model, action, id, ctx.querystring), role, caller: { ...caller, now: options.now() }, rules, deadline };
    if (options.cache) ({ result, outcome } = await options.cache.read(engine, request));
    else result = await read(engine, request);
  } catch (error) {
    if (error instanceof ResponseTooLargeError) await refusals.pace(caller.key);
    throw error;
  }
  options.recordStats?.(ctx, result.stats);
  const cacheControl = options.cacheControl?.(model.uid, identified);
  if (cacheControl) ctx.set('Cache-Control', cacheControl);
  ctx.vary('Authorization');
  if (options.serverTiming) {
    // `lane`: the statement ran on the event loop, not on a SQLite read worker (sql/sqlite-executor.ts);
    // `total`: the list's total was known, not counted (sql/sqlite-known-totals.ts).
    const lane = result.stats.onEventLoop ? ', lane;desc="event-loop"' : '';
    const total = result.stats.totalsKnown ? ', total;desc="known"' : '';
    // `cache`: answered from the response cache (hit) or from the database (miss).
    const cached = outcome ? `, cache;desc="${outcome}"` : '';
    ctx.set('Server-Timing', `db;dur=${result.stats.milliseconds.toFixed(2)}, sql;desc="statements=${result.stats.statements}"${lane}${total}${cached}`);
  }
  sendRead(ctx, result);
}
