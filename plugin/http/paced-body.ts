/**
 * Large bodies go to the socket a slice at a time, one slice per event-loop turn for the whole
 * process. Writing a 2.8 MB body in one call holds the event loop for the whole copy into the
 * socket (on loopback the kernel also runs the receiver's side inside that call: about 20 ms
 * measured), and every request beside it waits. Slices of every large response in flight take
 * turns, so that a request arriving meanwhile waits for one slice at most, however many large
 * responses are being sent. The bytes, their Content-Length and the ETag (set before, by
 * conditional-get.ts) are unchanged.
 */
import { Readable } from 'node:stream';
import type { Context, Next } from 'koa';
import { LARGE_BODY_BYTES } from '../response-budget.js';

/** Bodies above this are paced. */
export const PACED_BODY_BYTES = LARGE_BODY_BYTES;

/** What one turn writes: about half a millisecond of copying into a loopback socket here. */
export const PACED_SLICE_BYTES = 64 * 1024;

export async function pacedBody(ctx: Context, next: Next): Promise<void> {
  await next();
  const body: unknown = ctx.body;
  if (!Buffer.isBuffer(body) || body.length <= PACED_BODY_BYTES || ctx.method === 'HEAD') return;
  ctx.body = slices(body);
  // Koa drops the length of a stream body; the length is known.
  ctx.length = body.length;
}

/** A stream of `bytes` in slices, each pushed on a turn of its own. */
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
      onItsTurn(() => {
        if (!this.destroyed) this.push(slice);
      });
    },
  });
}

/** Slices waiting for their turn, from every paced response, in order. */
const waiting: (() => void)[] = [];
let turnScheduled = false;

/** Runs `write` on a turn of the event loop of its own, after those queued before it. */
export function onItsTurn(write: () => void): void {
  waiting.push(write);
  if (!turnScheduled) scheduleTurn();
}

function scheduleTurn(): void {
  turnScheduled = true;
  // An immediate queued while immediates run waits for the next turn: I/O is served in between.
  setImmediate(takeTurn);
}

function takeTurn(): void {
  turnScheduled = false;
  waiting.shift()?.();
  if (waiting.length) scheduleTurn();
}
