/**
 * Turns errors into Strapi's error envelope. A 4xx or 503 carries its message and details; anything
 * else is a 500 with a fixed message, and the error itself goes to the app's 'error' event for
 * logging — never to the caller.
 */
import type { Context, Next } from 'koa';
import { ApiError, NotFoundError, RateLimitError, ServiceUnavailableError } from '../errors.js';
import { errorBody } from '../format/envelope.js';

export async function renderErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (error instanceof ApiError && error.expose) {
      if ((error instanceof ServiceUnavailableError || error instanceof RateLimitError) && error.retryAfter !== null) ctx.set('Retry-After', String(error.retryAfter));
      sendError(ctx, error.status, error.name, error.message, error.details);
    } else {
      sendError(ctx, 500, 'InternalServerError', 'Internal Server Error', {});
      ctx.app.emit('error', error, ctx);
    }
  }
}

export function sendError(ctx: Context, status: number, name: string, message: string, details: Readonly<Record<string, unknown>>): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = errorBody(status, name, message, details);
}

/**
 * The API's 404 envelope on paths under the prefix that nothing answered, downstream middleware
 * included: it is written only after `next()` returns with no body.
 */
export function notFound(prefix: string) {
  return async (ctx: Context, next: Next): Promise<void> => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && (ctx.path === prefix || ctx.path.startsWith(`${prefix}/`))) {
      const error = new NotFoundError();
      sendError(ctx, error.status, error.name, error.message, error.details);
    }
  };
}

/**
 * The router's 405 (a write method on a read-only API) and 501 answers, in the API's error
 * envelope rather than plain text; the `Allow` header is kept.
 */
export function methodErrorsAsJson(allowedMethods: (ctx: Context, next: Next) => Promise<unknown>) {
  return async (ctx: Context, next: Next): Promise<void> => {
    await allowedMethods(ctx, next);
    if (ctx.status === 405) sendError(ctx, 405, 'MethodNotAllowedError', 'Method Not Allowed', {});
    else if (ctx.status === 501) sendError(ctx, 501, 'NotImplementedError', 'Not Implemented', {});
  };
}
