/**
 * The memory of the kept bodies: blocks of fixed size carved out of pages that are allocated once,
 * when the cache is made, and reused from then on. A body is copied into blocks when it is kept
 * and out of them, into a buffer of its own, when it is served.
 *
 * The pages are SharedArrayBuffers, although no other thread sees them, because V8 does not count
 * shared memory as its isolate's memory outside the heap, which decides when it collects the heap.
 * Allocated as plain buffers, 64 MB of pages counted as 64 MB of new memory outside the heap
 * (allocated as the cache filled, in the middle of the load, or all at start): V8 started a full
 * collection then, and set the heap's next limit from whatever was live at that moment, often more
 * than at the collection it would have made (seen in V8's traces of bench:memory).
 *
 * The kernel gives a page memory only when it is first written, and keeps it once the block is
 * given back: the cache counts the blocks written, not those in use (`residentBytes`), and blocks
 * given back are taken again before any new one.
 *
 * Why not keep each body's own buffer: a body kept for a while is promoted to V8's old generation,
 * and once dropped its bytes are freed only by the next full collection, which V8 starts when the
 * memory outside its heap has grown by about 64 MB since the last one. Under a stream of new
 * answers (10,000 distinct lists), the dropped bodies awaiting that collection came on top of the
 * kept ones: `--cache 64MB` took 116 MB more than no cache (bench:memory). Blocks are never
 * garbage; the buffer a hit is served from dies young, and is freed by the next scavenge.
 *
 * A body's blocks are chained: `next` holds, per block, the body's following block (or the next
 * one given back), so that keeping a body allocates nothing but its small record. A typed array of block
 * numbers per body, as first written, cost about 700 bytes more per entry than it held (its
 * buffer outside the heap and that buffer's object): 14 MB for 20,000 small answers.
 */

/** Bytes per block: a kept body wastes less than one. */
export const BLOCK_BYTES = 512;

/** What a block costs: its bytes and its link. */
export const BLOCK_COST = BLOCK_BYTES + Int32Array.BYTES_PER_ELEMENT;

/** Bytes per page at most (a Buffer's view is limited to 4 GB): a cache of up to 1 GB has one. */
const PAGE_BYTES = 1024 * 1024 * 1024;
const BLOCKS_PER_PAGE = PAGE_BYTES / BLOCK_BYTES;

/** The end of a chain. */
const END = -1;

/** Where a body is kept: its first block (the rest follow in `next`) and its length. */
export interface StoredBody {
  readonly first: number;
  readonly length: number;
}

export class BodyBlocks {
  private readonly pages: readonly Buffer[];
  /** Per block in use, the next one of its body; per block given back, the next one given back. END after the last. */
  private readonly next: Int32Array;
  /** The blocks given back, taken again first: all of them were written. */
  private freeHead = END;
  private freeCount = 0;
  /** Blocks written so far: 0 … written - 1. Beyond them, the blocks never taken, in order. */
  private written = 0;

  /** Room for `maxBytes` of blocks, allocated at once (and resident as they are written). */
  constructor(maxBytes: number) {
    const blocks = Math.max(1, Math.ceil(maxBytes / BLOCK_BYTES));
    const pages = Math.ceil(blocks / BLOCKS_PER_PAGE);
    this.pages = Array.from({ length: pages }, (_, page) => Buffer.from(new SharedArrayBuffer(Math.min(BLOCKS_PER_PAGE, blocks - page * BLOCKS_PER_PAGE) * BLOCK_BYTES)));
    this.next = new Int32Array(blocks);
  }

  /** The blocks a body of `length` bytes takes. */
  static blocksFor(length: number): number {
    return Math.ceil(length / BLOCK_BYTES);
  }

  /**
   * What the blocks cost in resident memory: those written so far, with their links. A block given
   * back keeps its memory (the kernel keeps a page it gave); the rest of the pages has none yet.
   */
  get residentBytes(): number {
    return this.written * BLOCK_COST;
  }

  /** The blocks written once `count` more are taken: those given back are taken first, and only the rest are new. */
  writtenWith(count: number): number {
    return this.written + Math.max(0, count - this.freeCount);
  }

  /** Copies `body` into free blocks; null when there are not enough (the caller drops bodies first). */
  store(body: Buffer): StoredBody | null {
    const count = BodyBlocks.blocksFor(body.length);
    if (count === 0) return { first: END, length: 0 };
    if (this.freeCount + this.next.length - this.written < count) return null;
    let first = END;
    let previous = END;
    for (let start = 0; start < body.length; start += BLOCK_BYTES) {
      const block = this.take();
      body.copy(this.pageOf(block), this.offsetOf(block), start, Math.min(start + BLOCK_BYTES, body.length));
      if (previous === END) first = block;
      else this.next[previous] = block;
      previous = block;
    }
    this.next[previous] = END;
    return { first, length: body.length };
  }

  /** A copy of a stored body, in a buffer of its own (its blocks may be reused while it is sent). */
  read(stored: StoredBody): Buffer {
    const body = Buffer.allocUnsafe(stored.length);
    for (let block = stored.first, start = 0; block !== END; block = this.next[block]!, start += BLOCK_BYTES) {
      const offset = this.offsetOf(block);
      this.pageOf(block).copy(body, start, offset, offset + Math.min(BLOCK_BYTES, stored.length - start));
    }
    return body;
  }

  /** Gives a body's blocks back. */
  release(stored: StoredBody): void {
    if (stored.first === END) return;
    let last = stored.first;
    let count = 1;
    while (this.next[last] !== END) {
      last = this.next[last]!;
      count += 1;
    }
    this.next[last] = this.freeHead;
    this.freeHead = stored.first;
    this.freeCount += count;
  }

  /** A block given back if there is one, else the first never written. */
  private take(): number {
    if (this.freeHead === END) return this.written++;
    const block = this.freeHead;
    this.freeHead = this.next[block]!;
    this.freeCount -= 1;
    return block;
  }

  private pageOf(block: number): Buffer {
    return this.pages[Math.floor(block / BLOCKS_PER_PAGE)]!;
  }

  private offsetOf(block: number): number {
    return (block % BLOCKS_PER_PAGE) * BLOCK_BYTES;
  }
}
