/**
 * The memory of the kept bodies: blocks of fixed size carved out of pages that are allocated once,
 * as the cache first fills, and reused from then on. A body is copied into blocks when it is kept
 * and out of them, into a buffer of its own, when it is served.
 *
 * Why not keep each body's own buffer: a body kept for a while is promoted to V8's old generation,
 * and once dropped its bytes are freed only by the next full collection, which V8 starts when the
 * memory outside its heap has grown by about 64 MB since the last one. Under a stream of new
 * answers (10,000 distinct lists), the dropped bodies awaiting that collection came on top of the
 * kept ones: `--cache 64MB` took 116 MB more than no cache (bench:memory). Blocks are never
 * garbage; the buffer a hit is served from dies young, and is freed by the next scavenge.
 *
 * A body's blocks are chained: `next` holds, per block, the body's following block (or the next
 * free one), so that keeping a body allocates nothing but its small record. A typed array of block
 * numbers per body, as first written, cost about 700 bytes more per entry than it held (its
 * buffer outside the heap and that buffer's object): 14 MB for 20,000 small answers.
 */

/** Bytes per block: a kept body wastes less than one. */
export const BLOCK_BYTES = 512;

/** Bytes per page, allocated as the cache fills: 2,048 blocks. */
const PAGE_BYTES = 1024 * 1024;
const BLOCKS_PER_PAGE = PAGE_BYTES / BLOCK_BYTES;

/** The end of a chain. */
const END = -1;

/** Where a body is kept: its first block (the rest follow in `next`) and its length. */
export interface StoredBody {
  readonly first: number;
  readonly length: number;
}

export class BodyBlocks {
  private readonly pages: Buffer[] = [];
  /** Per block, the next one of its body, or of the free chain; END after the last. */
  private next: Int32Array;
  private freeHead = END;
  private freeCount = 0;
  private readonly maxPages: number;

  /** Room for `maxBytes` of blocks, allocated a page at a time as they are taken. */
  constructor(maxBytes: number) {
    this.maxPages = Math.max(1, Math.ceil(maxBytes / PAGE_BYTES));
    this.next = new Int32Array(BLOCKS_PER_PAGE);
  }

  /** The blocks a body of `length` bytes takes. */
  static blocksFor(length: number): number {
    return Math.ceil(length / BLOCK_BYTES);
  }

  /** Bytes allocated for blocks and their chain so far (never given back: they are reused). */
  get allocatedBytes(): number {
    return this.pages.length * PAGE_BYTES + this.next.byteLength;
  }

  /** Copies `body` into free blocks; null when there are not enough (the caller drops bodies first). */
  store(body: Buffer): StoredBody | null {
    const count = BodyBlocks.blocksFor(body.length);
    if (count === 0) return { first: END, length: 0 };
    while (this.freeCount < count && this.pages.length < this.maxPages) this.addPage();
    if (this.freeCount < count) return null;
    const first = this.freeHead;
    let block = first;
    for (let index = 0; index < count; index += 1) {
      const start = index * BLOCK_BYTES;
      body.copy(this.pageOf(block), this.offsetOf(block), start, Math.min(start + BLOCK_BYTES, body.length));
      if (index < count - 1) block = this.next[block]!;
    }
    this.freeHead = this.next[block]!;
    this.next[block] = END;
    this.freeCount -= count;
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

  private addPage(): void {
    const first = this.pages.length * BLOCKS_PER_PAGE;
    this.pages.push(Buffer.allocUnsafeSlow(PAGE_BYTES));
    if (this.next.length < this.pages.length * BLOCKS_PER_PAGE) {
      const grown = new Int32Array(Math.min(2 * this.next.length, this.maxPages * BLOCKS_PER_PAGE));
      grown.set(this.next);
      this.next = grown;
    }
    // The new page's blocks, chained in order, go before the free chain.
    for (let block = first; block < first + BLOCKS_PER_PAGE - 1; block += 1) this.next[block] = block + 1;
    this.next[first + BLOCKS_PER_PAGE - 1] = this.freeHead;
    this.freeHead = first;
    this.freeCount += BLOCKS_PER_PAGE;
  }

  private pageOf(block: number): Buffer {
    return this.pages[Math.floor(block / BLOCKS_PER_PAGE)]!;
  }

  private offsetOf(block: number): number {
    return (block % BLOCKS_PER_PAGE) * BLOCK_BYTES;
  }
}
