/**
 * The request's side of the lifecycle hooks (write/lifecycles.ts): its `ctx.state`, and where a
 * hook's or a listener's failure after commit goes — where the app's other unexpected failures go.
 */
import type { Context } from 'koa';
import type { HookRequest } from '../write/lifecycles.js';
import type { RouterOptions } from './router.js';

export function hookRequest(ctx: Context, options: Pick<RouterOptions, 'reportHookError'>): HookRequest {
  return { state: ctx.state as Record<string, unknown>, report: options.reportHookError ?? ((error: unknown) => ctx.app.emit('error', error, ctx)) };
}
