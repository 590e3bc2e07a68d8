/**
 * Large bodies go to the socket a slice per event-loop turn. Writing a 2.8 MB body in one call
 * holds the event loop for the whole copy into the socket (on loopback the kernel also runs the
 * receiver's side inside that call: about 20 ms measured), and every request beside it waits;
 * written in 256 KB slices, other requests are served between two slices. The bytes, their
 * Content-Length and the ETag (set before, by conditional-get.ts) are unchanged.
 */
import { Readable } from 'node:stream';
import type { Context, Next } from 'koa';
import { LARGE_BODY_BYTES } from '../response-budget.js';

/** Bodies above this are paced, in slices of this size. */
export const PACED_SLICE_BYTES = LARGE_BODY_BYTES;

export async function pacedBody(ctx: Context, next: Next): Promise<void> {
  await next();
  const body: unknown = ctx.body;
  if (!Buffer.isBuffer(body) || body.length <= PACED_SLICE_BYTES || ctx.method === 'HEAD') return;
  ctx.body = slices(body);
  // Koa drops the length of a stream body; the length is known.
  ctx.length = body.length;
}

/** A stream of `bytes` in slices, the next one pushed on the next turn of the event loop. */
function slices(bytes: Buffer): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      const slice = bytes.subarray(offset, offset + PACED_SLICE_BYTES);
      offset += slice.length;
      setImmediate(() => this.push(slice));
    },
  });
}
