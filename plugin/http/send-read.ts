/**
 * A read's answer as the response: its JSON bytes and ETag. Bytes lent by a SQLite read worker
 * (sql/body-slabs.ts) are given back once the response has closed, whether it was sent in full,
 * answered 304 or HEAD, or cut short by the client: by then no slice of them is left to write.
 */
import type { Context } from 'koa';
import type { ReadResult } from '../read.js';

export function sendRead(ctx: Context, result: ReadResult): void {
  ctx.type = 'application/json';
  if (result.etag) ctx.etag = result.etag;
  ctx.body = result.body;
  if (result.release) ctx.res.once('close', result.release);
}
