/**
 * What wraps the API's own paths (the prefix and the health paths), and only those: the request
 * log, CORS, then the health routes. The host's other routes see none of it.
 */
import compose from 'koa-compose';
import type { Context, Middleware, Next } from 'koa';
import type { HealthPaths } from './health.js';

export interface OperationsOptions {
  readonly prefix: string;
  readonly health: HealthPaths | null;
  readonly log: Middleware | null;
  readonly cors: Middleware | null;
  readonly healthRoutes: Middleware | null;
}

export function withOperations(options: OperationsOptions, routes: Middleware): Middleware {
  const { prefix, health } = options;
  const owns = (path: string): boolean =>
    prefix === '' || prefix === '/' || path === prefix || path.startsWith(`${prefix}/`) || (health !== null && (path === health.live || path === health.ready));
  const wrappers = [options.log, options.cors, options.healthRoutes].filter((middleware): middleware is Middleware => middleware !== null);
  if (wrappers.length === 0) return routes;
  const chain = compose([...wrappers, routes]);
  return (ctx: Context, next: Next) => (owns(ctx.path) ? chain(ctx, next) : routes(ctx, next));
}
