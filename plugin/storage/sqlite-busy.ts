/**
 * SQLite refused a statement because another connection holds a lock, under any of the extended
 * codes better-sqlite3 reports (SQLITE_BUSY, SQLITE_BUSY_RECOVERY while a connection recovers the
 * write-ahead log, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED, SQLITE_LOCKED_SHAREDCACHE…): worth waiting
 * for, or a 503, never a server error.
 */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}
