/**
 * Where a server hears of writes it did not make: SQLite's data version, PostgreSQL's
 * notifications, MariaDB's versions table — or nowhere, when the database has no change triggers
 * and bodies are kept for a time bound instead.
 */
export interface ChangeFeed {
  /** Starts listening; settles once changes from now on will be heard. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** How late a change from elsewhere may be heard, for the message at start. */
  window(): string;
}

/** While no body is kept, a feed that reads the database reads it once in this many ticks. */
export const IDLE_TICKS = 20;

/**
 * Whether a polling feed reads at this tick: at every one while bodies are kept, else at one in
 * IDLE_TICKS. Skipping is safe — the next read compares with the last and drops what changed since,
 * a body read before the change included — but a body kept just after an idle spell would be
 * dropped by the first read for a change long past, so the versions are kept fresh meanwhile.
 */
export function due(cache: { readonly size: number }, tick: number): boolean {
  return cache.size > 0 || tick % IDLE_TICKS === 0;
}
