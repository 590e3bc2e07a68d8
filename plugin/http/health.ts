/**
 * Liveness and readiness, outside the API prefix: `GET /_health` answers 200 `{"status":"ok"}`
 * as long as the process serves HTTP; `GET /_ready` answers 200 only when the database runs a
 * trivial statement within a second, else 503 in the error envelope (a load balancer then sends
 * traffic elsewhere). The statement goes through the executor like any read: on SQLite it runs in
 * a read worker, never on the event loop, and a saturated server is reported as not ready.
 */
import type { Context, Next } from 'koa';
import type { Executor } from '../sql/execute.js';
import { sendError } from './errors.js';

export interface HealthPaths {
  /** Liveness (default `/_health`). */
  readonly live: string;
  /** Readiness (default `/_ready`). */
  readonly ready: string;
}

export const DEFAULT_HEALTH_PATHS: HealthPaths = { live: '/_health', ready: '/_ready' };

/** How long the database has to answer the readiness statement. */
export const READY_TIMEOUT_MS = 1000;

const OK_BODY = JSON.stringify({ status: 'ok' });

/** Whether the database answers `SELECT 1` within `timeout` ms. */
export async function databaseAnswers(executor: Executor, timeout = READY_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeout);
  });
  const answered = executor.column({ sql: 'SELECT 1', values: [] }, { statements: 0, milliseconds: 0 }, Date.now() + timeout).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Answers the two paths (GET and HEAD) and passes every other request on. */
export function healthRoutes(paths: HealthPaths, isReady: () => Promise<boolean>) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const path = ctx.path;
    if ((path !== paths.live && path !== paths.ready) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    // A probe's answer is about this moment: no cache may keep it.
    ctx.set('Cache-Control', 'no-store');
    if (path === paths.live || (await isReady())) {
      ctx.type = 'application/json';
      ctx.body = OK_BODY;
      return;
    }
    sendError(ctx, 503, 'ServiceUnavailableError', `The database did not answer within ${READY_TIMEOUT_MS / 1000} s`, {});
  };
}
