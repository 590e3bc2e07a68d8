/**
 * The `cache` option of contentApi() and `serve --cache 256MB`: sizes as bytes or with a unit
 * (KB, MB, GB: powers of 1024), checked at start with a message naming the option.
 */

export interface CacheOptions {
  /** Most memory the kept bodies take, keys and bookkeeping included: bytes, or `'256MB'`. */
  readonly maxBytes: number | string;
  /** Largest body kept (default an eighth of maxBytes): bytes, or `'2MB'`. */
  readonly maxEntryBytes?: number | string;
  /**
   * The longest a body is served (ms). Needed when the database has no change triggers (sync off
   * on PostgreSQL or MariaDB): writes from elsewhere are then seen only when bodies expire.
   */
  readonly maxAge?: number;
  /** How often SQLite's data version or MariaDB's versions table is read (ms, default 5). */
  readonly pollInterval?: number;
}

export interface CacheSettings {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly maxAgeMs: number | undefined;
  readonly pollMs: number;
}

const UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const DEFAULT_POLL_MS = 5;

/** `256MB`, `64 mb`, `1.5GB`, `1048576` → bytes; anything else is null. */
export function parseByteSize(text: number | string): number | null {
  if (typeof text === 'number') return Number.isSafeInteger(text) && text > 0 ? text : null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text);
  if (!match) return null;
  const bytes = Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]!);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : null;
}

export function cacheSettings(options: CacheOptions): CacheSettings {
  const maxBytes = parseByteSize(options.maxBytes);
  if (maxBytes === null) throw new Error(`cache.maxBytes expects a size such as 256MB or a number of bytes, got ${JSON.stringify(options.maxBytes)}`);
  const maxEntryBytes = options.maxEntryBytes === undefined ? Math.floor(maxBytes / 8) : parseByteSize(options.maxEntryBytes);
  if (maxEntryBytes === null) throw new Error(`cache.maxEntryBytes expects a size such as 2MB or a number of bytes, got ${JSON.stringify(options.maxEntryBytes)}`);
  for (const [name, value] of [['maxAge', options.maxAge], ['pollInterval', options.pollInterval]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) throw new Error(`cache.${name} expects milliseconds, got ${JSON.stringify(value)}`);
  }
  return { maxBytes, maxEntryBytes: Math.min(maxEntryBytes, maxBytes), maxAgeMs: options.maxAge, pollMs: options.pollInterval ?? DEFAULT_POLL_MS };
}

/** A size as people read it: `256 MB`, `1.5 GB`, `512 KB`. */
export function formatByteSize(bytes: number): string {
  for (const [unit, size] of [['GB', 1024 ** 3], ['MB', 1024 ** 2], ['KB', 1024]] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
