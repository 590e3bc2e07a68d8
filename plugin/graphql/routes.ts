/**
 * The GraphQL door on Koa: `POST <endpoint>` (one operation, or a JSON array of them as Apollo
 * batches them, or a multipart request with files) and `GET <endpoint>?query=…` (queries only); a
 * browser's `GET` without a query gets a page to send operations from, where introspection is on. The caller is resolved as on REST,
 * so roles, API tokens, login tokens and row rules hold alike.
 */
import type { Context, Middleware, Next } from 'koa';
import { resolveCaller, type RoleResolver } from '../http/caller.js';
import { sendError } from '../http/errors.js';
import { readGraphqlBody, RequestRefusal } from './request-body.js';
import type { ExecutionStats } from '../sql/execute.js';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { findPackageRoot } from '../schema/schema-files.js';
import { ApiError, ServiceUnavailableError, ValidationError } from '../errors.js';
import type { MediaLibrary } from '../upload/media-library.js';
import { makeReceivingFolder } from '../upload/receiving-folder.js';
import { readMultipartRequest } from './multipart-request.js';
import { graphqlError } from './errors.js';
import type { EndUsers } from '../auth/end-users.js';
import { acceptLoginTokens } from '../http/users/login-tokens.js';
import { answerGraphql, type GraphqlAnswer, type GraphqlCaller, type GraphqlParams, type GraphqlService } from './request.js';

export interface GraphqlRouteOptions {
  readonly endpoint: string;
  readonly resolveRole?: RoleResolver;
  readonly now: () => number;
  readonly timeout: number;
  readonly maxBodyBytes: number;
  /** Most operations in one batch. */
  readonly maxBatch: number;
  readonly serverTiming: boolean;
  readonly reportHookError?: (error: unknown) => void;
  readonly users?: EndUsers;
  /** The media library, for the upload mutations' files. */
  readonly upload?: MediaLibrary;
}

export function graphqlRoutes(service: GraphqlService, options: GraphqlRouteOptions): Middleware {
  const serve = serveGraphql(service, options);
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== options.endpoint) return next();
    try {
      await serve(ctx);
    } catch (error) {
      if (error instanceof RequestRefusal) return refuse(ctx, error);
      // Refused before GraphQL reads it (the credentials, the body's size), as Strapi's middlewares answer: its error envelope.
      if (error instanceof RefusedBeforeOperation) return sendError(ctx, error.cause.status, error.cause.name, error.cause.message, error.cause.details);
      // What stops a whole request (a refusal for cost, a deadline): its status, and the error as GraphQL words it.
      const exposed = error instanceof ApiError && error.expose;
      if (!exposed) ctx.app.emit('error', error, ctx);
      if (exposed && error instanceof ServiceUnavailableError && error.retryAfter !== null) ctx.set('Retry-After', String(error.retryAfter));
      send(ctx, { status: exposed ? error.status : 500, body: { errors: [graphqlError(error, null, null)] } });
    }
  };
}

function serveGraphql(service: GraphqlService, options: GraphqlRouteOptions): (ctx: Context) => Promise<void> {
  return async (ctx: Context) => {
    if (ctx.method !== 'GET' && ctx.method !== 'POST') {
      ctx.set('Allow', 'GET, POST');
      throw new RequestRefusal(405, { text: 'Apollo Server supports only GET/POST requests.' });
    }
    const deadline = Date.now() + options.timeout;
    const rules = service.engine.rules();
    if (options.users) acceptLoginTokens(ctx, options.users);
    const caller = await beforeOperation(() => resolveCaller(ctx, rules.tokens, options.resolveRole, options.now()));
    const hooks = { state: ctx.state as Record<string, unknown>, report: options.reportHookError ?? ((error: unknown) => ctx.app.emit('error', error, ctx)) };
    const budget = { remaining: service.engine.maxResponseBytes };
    const who = { role: caller.role, caller: { ...caller, now: options.now() }, rules, deadline, hooks, budget };
    ctx.vary('Authorization');
    if (ctx.method === 'GET') {
      const query = ctx.query;
      // A browser opening the endpoint in development gets the page that sends operations to it.
      if (query.query === undefined && service.introspection && ctx.accepts('json', 'html') === 'html') {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = playgroundPage();
        return;
      }
      if (query.query === undefined) throw new RequestRefusal(400, { text: 'GET query missing.' });
      return send(ctx, await answerGraphql(service, { query: query.query, variables: query.variables, operationName: query.operationName }, 'GET', who), options);
    }
    if (ctx.is('multipart')) return withFiles(ctx, options.upload, async (body) => answerBody(ctx, service, options, who, body));
    return answerBody(ctx, service, options, who, await beforeOperation(() => readGraphqlBody(ctx, options.maxBodyBytes)));
  };
}

/** A multipart request's files live in a folder of their own until its answer is sent. */
async function withFiles(ctx: Context, library: MediaLibrary | undefined, answer: (body: unknown) => Promise<void>): Promise<void> {
  if (!library) throw new ValidationError('', 'Invalid body; files need the media library');
  const folder = await makeReceivingFolder();
  try {
    await answer(await readMultipartRequest(ctx, library, folder));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** One operation's answer, or a batch's answers in one array. */
async function answerBody(ctx: Context, service: GraphqlService, options: GraphqlRouteOptions, who: GraphqlCaller, body: unknown): Promise<void> {
  if (!Array.isArray(body)) return send(ctx, await answerGraphql(service, paramsOf(body), 'POST', who), options);
  if (body.length > options.maxBatch) {
    return send(ctx, { status: 400, body: { errors: [{ message: `A batch holds at most ${options.maxBatch} operations`, extensions: { code: 'BAD_REQUEST' } }] } });
  }
  // A batch's operations run in turn, so that one caller's batch takes one statement slot at a time.
  const answers: GraphqlAnswer[] = [];
  for (const item of body) answers.push(await answerGraphql(service, paramsOf(item), 'POST', who));
  const parts = answers.map((answer) => Buffer.from(Buffer.isBuffer(answer.body) ? answer.body : JSON.stringify(answer.body)));
  for (const answer of answers) answer.release?.();
  const stats = answers.reduce<ExecutionStats>((sum, answer) => ({ statements: sum.statements + (answer.stats?.statements ?? 0), milliseconds: sum.milliseconds + (answer.stats?.milliseconds ?? 0) }), { statements: 0, milliseconds: 0 });
  send(ctx, { status: 200, body: Buffer.concat([Buffer.from('['), ...parts.flatMap((part, index) => (index ? [Buffer.from(','), part] : [part])), Buffer.from(']')]), stats }, options);
}

let page: string | undefined;

/** The page is shipped beside the sources (tsc does not copy HTML to dist). */
function playgroundPage(): string {
  return (page ??= readFileSync(join(findPackageRoot(), 'plugin', 'graphql', 'playground.html'), 'utf8'));
}

/** An API error of a step before any operation is read (the credentials, the body's size). */
class RefusedBeforeOperation extends Error {
  constructor(override readonly cause: ApiError) {
    super(cause.message);
  }
}

/** Runs `step`, its exposed API errors to be answered as Strapi's middlewares answer them. */
async function beforeOperation<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof ApiError && error.expose ? new RefusedBeforeOperation(error) : error;
  }
}

function refuse(ctx: Context, refusal: RequestRefusal): void {
  ctx.status = refusal.status;
  if ('text' in refusal.answer) {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = refusal.answer.text;
  } else {
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(refusal.answer.json);
  }
}

function paramsOf(body: unknown): GraphqlParams {
  const object = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return { query: object.query, variables: object.variables, operationName: object.operationName };
}

function send(ctx: Context, answer: GraphqlAnswer, options?: Pick<GraphqlRouteOptions, 'serverTiming'>): void {
  ctx.status = answer.status;
  ctx.type = 'application/json';
  if (answer.stats && options?.serverTiming) {
    const cached = answer.outcome ? `, cache;desc="${answer.outcome}"` : '';
    ctx.set('Server-Timing', `db;dur=${answer.stats.milliseconds.toFixed(2)}, sql;desc="statements=${answer.stats.statements}"${cached}`);
  }
  ctx.body = Buffer.isBuffer(answer.body) ? answer.body : JSON.stringify(answer.body);
  if (answer.release) ctx.res.once('close', answer.release);
}
