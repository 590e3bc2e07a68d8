/**
 * Weak ETags on the API's GET answers (format/etag.ts), and 304 Not Modified when the client
 * already holds the same bytes. A route that already knows its body's tag (computed by a SQLite
 * read worker) sets it; the others' is computed here.
 */
import type { Context, Next } from 'koa';
import { weakEtag } from '../format/etag.js';

export async function conditionalGet(ctx: Context, next: Next): Promise<void> {
  await next();
  if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
  const body: unknown = ctx.body;
  if (!Buffer.isBuffer(body) && typeof body !== 'string') return;
  if (!ctx.response.etag) ctx.etag = weakEtag(body);
  // ctx.fresh compares If-None-Match with the ETag (weakly, as RFC 9110 asks for GET).
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
  }
}
