/**
 * Counts attempts per key in fixed windows, in memory, as Strapi's limiter (koa2-ratelimit's
 * memory store) counts them: a key's window opens at its first attempt and lasts `interval`; past
 * `max` attempts in it, the next are refused until it closes. Memory is bounded: at `maxKeys`
 * keys, closed windows are swept, and if none closed the oldest window is forgotten.
 */

export interface RateLimitOptions {
  /** Attempts allowed per key and window (Strapi: 10). */
  readonly max: number;
  /** The window in ms (Strapi: 60000). */
  readonly interval: number;
}

/** Strapi's users-permissions defaults (`ratelimit: { interval: 60000, max: 10 }`). */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = Object.freeze({ max: 10, interval: 60_000 });

/** Keys remembered at most per limiter: about 1 MB of counters. */
const MAX_KEYS = 10_000;

interface Window {
  count: number;
  readonly endsAt: number;
}

export class AttemptCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly maxKeys = MAX_KEYS,
  ) {}

  /** Whether `key` is past its allowance now, without counting an attempt. */
  exceeded(key: string, now: number): boolean {
    const window = this.windows.get(key);
    return window !== undefined && window.endsAt > now && window.count >= this.options.max;
  }

  /** Counts one attempt of `key`; answers whether it is within the allowance. */
  hit(key: string, now: number): boolean {
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (window) this.windows.delete(key);
      this.makeRoom(now);
      window = { count: 0, endsAt: now + this.options.interval };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= this.options.max;
  }

  /** Seconds until `key`'s window closes (for Retry-After), at least 1. */
  retryAfter(key: string, now: number): number {
    const window = this.windows.get(key);
    return Math.max(1, Math.ceil(((window?.endsAt ?? now) - now) / 1000));
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(now: number): void {
    if (this.windows.size < this.maxKeys) return;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    // Maps iterate in insertion order: the first key is the oldest window.
    while (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
  }
}
