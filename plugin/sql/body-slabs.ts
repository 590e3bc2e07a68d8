/**
 * Large bodies cross from a read worker to the event loop in shared memory that the worker reuses.
 *
 * A body moved as a transferred ArrayBuffer costs the event loop more than its bytes: as such
 * buffers keep arriving from another thread, V8 starts full mark-compacts of the event loop's
 * heap, although the heap itself does not grow (measured: 4–5 a second under 10 connections of a
 * 2.8 MB populate, pauses of 2–16 ms; the same load answered 15–24 % more requests per second
 * without them). So a body above `LARGE_BODY_BYTES` is copied, in the worker, into one of a few
 * slabs (SharedArrayBuffers) the worker keeps; the event loop reads it there and gives the slab
 * back once the response has closed, through a flag both threads share. A slab not given back
 * explicitly is given back when the event loop's last view of it is collected, so a forgotten
 * body only delays its reuse. With every slab still lent, or above `MAX_SLAB_BYTES`, a body is
 * transferred as before.
 */
import { LARGE_BODY_BYTES } from '../response-budget.js';
import type { BuiltBody } from './sqlite-statements.js';

/** Slabs per worker: bodies in flight at once from one worker before the next one is transferred. */
export const SLABS_PER_WORKER = 4;

/** A larger body is transferred, not copied into a slab that would stay allocated. */
export const MAX_SLAB_BYTES = 8 * 1024 * 1024;

/** Slab sizes are rounded up to this, so that bodies of similar sizes share slabs. */
const SLAB_GRANULE_BYTES = 1024 * 1024;

/** A body in a slab, as a worker answers it. */
export interface SlabBody {
  readonly slab: SharedArrayBuffer;
  readonly index: number;
}

/** The flags both threads share: one Int32 per slab, nonzero while the event loop reads it. */
export function slabFlags(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(SLABS_PER_WORKER * Int32Array.BYTES_PER_ELEMENT));
}

/** The worker's side: its slabs, and which of them are free. */
export class BodySlabs {
  private readonly slabs: (SharedArrayBuffer | undefined)[] = [];

  constructor(private readonly lent: Int32Array) {}

  /** Copies `body` into a free slab and marks it lent; null when the body should be transferred instead. */
  lend(body: Buffer): SlabBody | null {
    if (body.length <= LARGE_BODY_BYTES || body.length > MAX_SLAB_BYTES) return null;
    const index = this.freeIndexFor(body.length);
    if (index < 0) return null;
    let slab = this.slabs[index];
    if (!slab || slab.byteLength < body.length) {
      slab = new SharedArrayBuffer(Math.ceil(body.length / SLAB_GRANULE_BYTES) * SLAB_GRANULE_BYTES);
      this.slabs[index] = slab;
    }
    body.copy(Buffer.from(slab, 0, body.length));
    Atomics.store(this.lent, index, 1);
    return { slab, index };
  }

  /** The smallest free slab that holds `length` bytes; else a free place for a new one; else -1. */
  private freeIndexFor(length: number): number {
    let best = -1;
    let spare = -1;
    for (let index = 0; index < SLABS_PER_WORKER; index += 1) {
      if (Atomics.load(this.lent, index) !== 0) continue;
      const size = this.slabs[index]?.byteLength ?? 0;
      if (size >= length) {
        if (best < 0 || size < this.slabs[best]!.byteLength) best = index;
      } else if (spare < 0 || size < (this.slabs[spare]?.byteLength ?? 0)) {
        spare = index;
      }
    }
    return best >= 0 ? best : spare;
  }
}

/** The buffer itself when it owns its memory (a worker can then transfer it without a copy), else a copy that does. */
export function ownBuffer(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length && !(bytes.buffer instanceof SharedArrayBuffer)) return bytes;
  const copy = Buffer.from(new ArrayBuffer(bytes.length));
  bytes.copy(copy);
  return copy;
}

/** Gives a slab back when the event loop's view of it is collected, for bodies nobody released. */
const collected = new FinalizationRegistry<() => void>((giveBack) => giveBack());

/**
 * The event loop's side: the body a slab holds, and the function that gives the slab back (once;
 * later calls do nothing). `slab` is this thread's own handle on the shared memory, received with
 * this body alone, so it is collected only once no view of this body is left.
 */
export function borrowedBody(lent: Int32Array, { slab, index }: SlabBody, length: number): { bytes: Buffer; release: () => void } {
  const token = {};
  let released = false;
  const giveBack = () => {
    if (released) return;
    released = true;
    Atomics.store(lent, index, 0);
  };
  collected.register(slab, giveBack, token);
  return {
    bytes: Buffer.from(slab, 0, length),
    release: () => {
      collected.unregister(token);
      giveBack();
    },
  };
}

/** A worker's answer carrying a body: transferred as `bytes`, or `lent` in one of its slabs. */
export interface BodyAnswer {
  readonly bytes?: Buffer;
  readonly lent?: SlabBody;
  readonly rows?: number;
  readonly size?: number;
  readonly etag?: string;
  readonly totalKnown?: boolean;
}

/** The body of a worker's answer, on the event loop: borrowed from the worker's slab, or the transferred bytes (none above the budget). */
export function receivedBody(answer: BodyAnswer, lent: Int32Array): BuiltBody {
  const known = { ...(answer.etag ? { etag: answer.etag } : {}), ...(answer.totalKnown ? { totalKnown: true } : {}) };
  if (answer.lent) return { ...borrowedBody(lent, answer.lent, answer.size!), rows: answer.rows ?? 0, size: answer.size!, ...known };
  // Transferred from the worker: a Uint8Array over the moved ArrayBuffer.
  const bytes = answer.bytes ? Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength) : Buffer.alloc(0);
  return { bytes, rows: answer.rows ?? 0, size: answer.size ?? bytes.length, ...known };
}
