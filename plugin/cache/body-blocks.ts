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
 */

/** Bytes per block: a kept body wastes less than one. */
export const BLOCK_BYTES = 512;

/** Bytes per page, allocated as the cache fills: 2,048 blocks. */
const PAGE_BYTES = 1024 * 1024;
const BLOCKS_PER_PAGE = PAGE_BYTES / BLOCK_BYTES;

/** Where a body is kept: its blocks, in order, and its length. */
export interface StoredBody {
  readonly blocks: Int32Array;
  readonly length: number;
}

export class BodyBlocks {
  private readonly pages: Buffer[] = [];
  /** Free block numbers, a stack (`freeCount` of them at its start). */
  private free: Int32Array;
  private freeCount = 0;
  private readonly maxPages: number;

  /** Room for `maxBytes` of blocks, allocated a page at a time as they are taken. */
  constructor(maxBytes: number) {
    this.maxPages = Math.max(1, Math.ceil(maxBytes / PAGE_BYTES));
    this.free = new Int32Array(BLOCKS_PER_PAGE);
  }

  /** The blocks a body of `length` bytes takes. */
  static blocksFor(length: number): number {
    return Math.ceil(length / BLOCK_BYTES);
  }

  /** Bytes allocated for blocks so far (never given back: they are reused). */
  get allocatedBytes(): number {
    return this.pages.length * PAGE_BYTES;
  }

  /** Copies `body` into free blocks; null when there are not enough (the caller drops bodies first). */
  store(body: Buffer): StoredBody | null {
    const count = BodyBlocks.blocksFor(body.length);
    while (this.freeCount < count && this.pages.length < this.maxPages) this.addPage();
    if (this.freeCount < count) return null;
    const blocks = this.free.slice(this.freeCount - count, this.freeCount);
    this.freeCount -= count;
    for (let index = 0; index < count; index += 1) {
      const start = index * BLOCK_BYTES;
      body.copy(this.pageOf(blocks[index]!), this.offsetOf(blocks[index]!), start, Math.min(start + BLOCK_BYTES, body.length));
    }
    return { blocks, length: body.length };
  }

  /** A copy of a stored body, in a buffer of its own (its blocks may be reused while it is sent). */
  read(stored: StoredBody): Buffer {
    const body = Buffer.allocUnsafe(stored.length);
    const { blocks, length } = stored;
    for (let index = 0; index < blocks.length; index += 1) {
      const offset = this.offsetOf(blocks[index]!);
      this.pageOf(blocks[index]!).copy(body, index * BLOCK_BYTES, offset, offset + Math.min(BLOCK_BYTES, length - index * BLOCK_BYTES));
    }
    return body;
  }

  /** Gives a body's blocks back. */
  release(stored: StoredBody): void {
    this.free.set(stored.blocks, this.freeCount);
    this.freeCount += stored.blocks.length;
  }

  private addPage(): void {
    const first = this.pages.length * BLOCKS_PER_PAGE;
    this.pages.push(Buffer.allocUnsafeSlow(PAGE_BYTES));
    if (this.free.length < this.pages.length * BLOCKS_PER_PAGE) {
      const grown = new Int32Array(Math.min(2 * this.free.length, this.maxPages * BLOCKS_PER_PAGE));
      grown.set(this.free.subarray(0, this.freeCount));
      this.free = grown;
    }
    for (let block = first; block < first + BLOCKS_PER_PAGE; block += 1) this.free[this.freeCount++] = block;
  }

  private pageOf(block: number): Buffer {
    return this.pages[Math.floor(block / BLOCKS_PER_PAGE)]!;
  }

  private offsetOf(block: number): number {
    return (block % BLOCKS_PER_PAGE) * BLOCK_BYTES;
  }
}
