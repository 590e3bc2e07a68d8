/**
 * One structured line per request the plugin answers: request id (also sent back as
 * `X-Request-Id`), method, path, the NAMES of the query parameters, status, duration and the
 * statements run. Query values are never logged: a filter value may be a password or a private
 * field's value probed by a caller, and the path alone cannot tell which.
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { ExecutionStats } from '../sql/execute.js';
import { requestId } from './request-id.js';

/** Parameter names kept per line, and characters per name: a hostile query string stays one short line. */
const MAX_NAMES = 50;
const MAX_NAME_LENGTH = 200;

/** `fields[0]=title&filters[email][$eq]=x` → `['fields[0]', 'filters[email][$eq]']`. */
export function queryParameterNames(querystring: string): string[] {
  if (!querystring) return [];
  const names: string[] = [];
  for (const part of querystring.split('&')) {
    if (names.length === MAX_NAMES) break;
    const raw = part.split('=', 1)[0]!;
    if (!raw) continue;
    let name: string;
    try {
      name = decodeURIComponent(raw.replaceAll('+', ' '));
    } catch {
      name = raw;
    }
    names.push(name.slice(0, MAX_NAME_LENGTH));
  }
  return names;
}

/**
 * Logs the requests the plugin answers. `statsOf` gives the statements a request ran (the router
 * records them); a request that failed before or during its statements reports what was recorded.
 */
export function requestLog(logger: Logger, statsOf: (ctx: Context) => ExecutionStats | undefined) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    const id = requestId(ctx.get('x-request-id'));
    ctx.set('X-Request-Id', id);
    let thrownStatus: number | null = null;
    try {
      await next();
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      thrownStatus = typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
      throw error;
    } finally {
      const stats = statsOf(ctx);
      logger.info(
        {
          reqId: id,
          method: ctx.method,
          path: ctx.path,
          query: queryParameterNames(ctx.querystring),
          // A thrown error is answered by Koa's own handler, after this line: 500 unless it says otherwise.
          status: thrownStatus ?? ctx.status,
          ms: Number((performance.now() - started).toFixed(2)),
          statements: stats?.statements ?? 0,
        },
        'request',
      );
    }
  };
}
