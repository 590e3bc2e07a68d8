/**
 * Weak ETags on the API's GET answers, and 304 Not Modified when the client already holds the
 * same bytes. Weak, because the tag names the JSON text, not a byte-exact representation a
 * proxy may compress. sha1 of a 2.8 MB body costs about 3 ms, beside tens of ms to build it.
 */
import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';

export function weakEtag(body: Buffer | string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

export async function conditionalGet(ctx: Context, next: Next): Promise<void> {
  await next();
  if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
  const body: unknown = ctx.body;
  if (!Buffer.isBuffer(body) && typeof body !== 'string') return;
  ctx.etag = weakEtag(body);
  // ctx.fresh compares If-None-Match with the ETag (weakly, as RFC 9110 asks for GET).
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
  }
}
