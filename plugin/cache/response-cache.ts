/**
 * Finished response bodies (the bytes sent and their ETag), kept until a table they were read
 * from changes: bounded in bytes, least recently used out first. Knows nothing of HTTP or of the
 * database; the doors give it keys and bodies, the write watchers tell it which tables change.
 *
 * A body is built from a snapshot the cache cannot see, so every change moves a clock: a body is
 * kept only if no table it read changed since its read began (`since`, from `clock()` before the
 * statement ran), and not while a write to one of them is under way (`writing` … `written`, from
 * before the write's first statement to after its commit). A write's answer is therefore never
 * followed by an older body: the bodies read before it are dropped when it starts, and none read
 * until it has committed is kept.
 *
 * A body up to BLOCKED_BODY_BYTES is kept in blocks the cache reuses (body-blocks.ts), counted
 * whole, and copied out for each answer; a larger one in a buffer of its own, sent as it is.
 */
import { BLOCK_COST, BodyBlocks, type StoredBody } from './body-blocks.js';

export interface CachedBody {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * The largest body kept in blocks. Copying a body out costs a buffer per answer, which dies young
 * for a small body; for megabytes (q17, 2.8 MB) the copies' memory outside the heap made V8 collect
 * its whole heap again and again, and warm q17 fell from 195–312 to 62–73 requests/s. A large body
 * keeps its own buffer, whose bytes, once dropped, wait for a full collection (bodies this large
 * are few under any limit).
 */
export const BLOCKED_BODY_BYTES = 64 * 1024;

interface Entry {
  readonly key: string;
  /** Where the body is: its blocks, or its own buffer. */
  readonly stored: StoredBody | Buffer;
  readonly etag: string;
  readonly tables: readonly string[];
  readonly bytes: number;
  /** When it was kept (epoch ms), for the time bound of a database that tells no changes. */
  readonly at: number;
}

export interface ResponseCacheOptions {
  /** Most bytes held: bodies (the blocks ever written, and bodies of their own), keys and bookkeeping. */
  readonly maxBytes: number;
  /** Largest body kept (default an eighth of maxBytes). */
  readonly maxEntryBytes?: number;
  /** How long a body may be served (ms), for databases whose changes from elsewhere are not told (default: until a change). */
  readonly maxAgeMs?: number;
  readonly now?: () => number;
}

/**
 * What an entry's record costs on V8's heap, beside its key and tables: its fields, its place in
 * the eviction map, its ETag. Measured (20,000 entries of one table, after a full collection):
 * 682 bytes each with a key of 116 characters, 566 besides the key.
 */
const ENTRY_OVERHEAD = 600;

/** What each table adds to an entry: its key's place in the table's set, and the list's slot. */
const TABLE_OVERHEAD = 32;

/**
 * What a byte kept alive on V8's heap may cost in resident memory: after a full collection, V8
 * lets its old generation grow to four times what survived before it collects again (its largest
 * heap growing factor, which Node's default heap limit allows), so every byte of record the cache
 * keeps raises the heap's peak by up to four (docs/cache.md, *Memory*).
 */
export const HEAP_PEAK_FACTOR = 4;

/**
 * An entry's bytes beside its blocks (counted as the blocks written, `BodyBlocks.residentBytes`):
 * a body of its own, and its key (two bytes a character), tables and record at their peak on the heap.
 */
function entryBytes(length: number, key: string, tables: readonly string[]): number {
  return (length <= BLOCKED_BODY_BYTES ? 0 : length) + HEAP_PEAK_FACTOR * (key.length * 2 + tables.length * TABLE_OVERHEAD + ENTRY_OVERHEAD);
}

/**
 * Makes a kept key one flat string. V8 keeps a string built by concatenation as a tree of its
 * parts, and a key is built from several (the plan's key, the query string, which is a slice of
 * the request's URL and keeps it alive, the caller's values); reading a character of it makes it
 * flat and lets the parts go. Measured on 20,000 keys of the API's form: 379 bytes of heap each
 * as built, 212 once flat; in a served cache of 14,000 small answers, the trees were 4.8 MB.
 */
function flatten(key: string): void {
  key.charCodeAt(0);
}

export interface CacheCounters {
  hits: number;
  misses: number;
  kept: number;
  dropped: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byTable = new Map<string, Set<string>>();
  /** The clock's value at each table's last change, and at the last change of everything. */
  private readonly changedAt = new Map<string, number>();
  private everythingChangedAt = 0;
  private readonly writes = new Map<string, number>();
  private writesToEverything = 0;
  private ticks = 0;
  /** Bytes held beside the blocks: the entries' own bodies and records. */
  private held = 0;
  private readonly blocks: BodyBlocks;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly maxAgeMs: number | null;
  private readonly now: () => number;
  readonly counters: CacheCounters = { hits: 0, misses: 0, kept: 0, dropped: 0 };

  constructor(options: ResponseCacheOptions) {
    this.maxBytes = options.maxBytes;
    this.maxEntryBytes = Math.min(options.maxEntryBytes ?? Math.floor(options.maxBytes / 8), options.maxBytes);
    this.maxAgeMs = options.maxAgeMs ?? null;
    this.now = options.now ?? Date.now;
    this.blocks = new BodyBlocks(this.maxBytes);
  }

  /** Bytes held now: the blocks written so far (in use or not), and the entries' own bodies and records. */
  get bytes(): number {
    return this.held + this.blocks.residentBytes;
  }

  /** Bytes of the blocks written so far: the part of the pages the kernel has given memory. */
  get blockBytes(): number {
    return this.blocks.residentBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** A read's start: what `set` checks its tables' changes against. */
  clock(): number {
    return this.ticks;
  }

  get(key: string): CachedBody | undefined {
    const entry = this.entries.get(key);
    if (!entry || (this.maxAgeMs !== null && this.now() - entry.at >= this.maxAgeMs)) {
      if (entry) this.drop(entry);
      this.counters.misses += 1;
      return undefined;
    }
    // Its place in the map is its place in the eviction order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.counters.hits += 1;
    return { body: Buffer.isBuffer(entry.stored) ? entry.stored : this.blocks.read(entry.stored), etag: entry.etag };
  }

  /** Whether `set` would keep a body of `length` bytes read from `tables` since `since` (so that it is copied only then). */
  accepts(length: number, tables: readonly string[], since: number): boolean {
    return length <= this.maxEntryBytes && this.unchangedSince(tables, since);
  }

  /**
   * Keeps `body` under `key`, unless it is too large or a table it read changed since `since` (or
   * is being written): then it may be older than the data, and is not kept. Answers whether it was.
   */
  set(key: string, body: CachedBody, tables: readonly string[], since: number): boolean {
    flatten(key);
    const bytes = entryBytes(body.body.length, key, tables);
    const blocks = body.body.length <= BLOCKED_BODY_BYTES ? BodyBlocks.blocksFor(body.body.length) : 0;
    if (body.body.length > this.maxEntryBytes || bytes + blocks * BLOCK_COST > this.maxBytes || !this.unchangedSince(tables, since)) return false;
    const old = this.entries.get(key);
    if (old) this.drop(old);
    // Dropping bodies gives their blocks back for this one, and only blocks beyond those written count anew.
    const fits = () => this.held + bytes + this.blocks.writtenWith(blocks) * BLOCK_COST <= this.maxBytes;
    while (!fits() && this.entries.size > 0) this.drop(this.entries.values().next().value as Entry);
    // Blocks written for larger bodies may leave too little room for this one's record, even with nothing kept.
    if (!fits()) return false;
    const stored = body.body.length <= BLOCKED_BODY_BYTES ? this.blocks.store(body.body) : Buffer.from(body.body);
    if (!stored) return false;
    const entry: Entry = { key, stored, etag: body.etag, tables, bytes, at: this.now() };
    this.entries.set(key, entry);
    for (const table of tables) {
      let keys = this.byTable.get(table);
      if (!keys) this.byTable.set(table, (keys = new Set()));
      keys.add(key);
    }
    this.held += bytes;
    this.counters.kept += 1;
    return true;
  }

  /** Drops the bodies read from any of `tables`; a read that began before is not kept. */
  invalidate(tables: Iterable<string>): void {
    const tick = ++this.ticks;
    for (const table of tables) {
      this.changedAt.set(table, tick);
      const keys = this.byTable.get(table);
      if (!keys) continue;
      for (const key of [...keys]) this.drop(this.entries.get(key)!);
    }
  }

  /** Drops every body: a change whose tables are not known (another connection of a SQLite file, a lost notification). */
  invalidateAll(): void {
    this.everythingChangedAt = ++this.ticks;
    for (const entry of [...this.entries.values()]) this.drop(entry);
  }

  /** A write to `tables` (null: to tables not known) is about to run: their bodies go, and none is kept until `written`. */
  writing(tables: Iterable<string> | null): void {
    if (tables === null) {
      this.writesToEverything += 1;
      this.invalidateAll();
      return;
    }
    const list = [...tables];
    for (const table of list) this.writes.set(table, (this.writes.get(table) ?? 0) + 1);
    this.invalidate(list);
  }

  /** The write `writing` announced has committed or rolled back. */
  written(tables: Iterable<string> | null): void {
    if (tables === null) {
      this.writesToEverything -= 1;
      this.invalidateAll();
      return;
    }
    const list = [...tables];
    for (const table of list) {
      const left = (this.writes.get(table) ?? 1) - 1;
      if (left > 0) this.writes.set(table, left);
      else this.writes.delete(table);
    }
    this.invalidate(list);
  }

  private unchangedSince(tables: readonly string[], since: number): boolean {
    if (this.writesToEverything > 0 || this.everythingChangedAt > since) return false;
    return tables.every((table) => !this.writes.has(table) && (this.changedAt.get(table) ?? 0) <= since);
  }

  private drop(entry: Entry): void {
    this.entries.delete(entry.key);
    for (const table of entry.tables) {
      const keys = this.byTable.get(table);
      keys?.delete(entry.key);
      if (keys?.size === 0) this.byTable.delete(table);
    }
    if (!Buffer.isBuffer(entry.stored)) this.blocks.release(entry.stored);
    this.held -= entry.bytes;
    this.counters.dropped += 1;
  }
}
