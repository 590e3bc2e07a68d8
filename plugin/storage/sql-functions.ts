/**
 * The SQL functions every SQLite connection of the plugin has (its own connections, the read
 * workers', and a host's knex connections when the API first uses them).
 */

export interface SqliteConnection {
  pragma(source: string): unknown;
  function(name: string, options: { deterministic: boolean }, implementation: (...values: unknown[]) => unknown): unknown;
}

/**
 * Called once per entry a read statement builds (see Dialect.checkpoint). It returns true; its
 * point is the call itself: a read worker being terminated cannot run JavaScript, so the call
 * fails and SQLite abandons the statement, which a thread stop alone cannot interrupt.
 */
export const CHECKPOINT_FUNCTION = 'content_api_checkpoint';

export function registerSqlFunctions(connection: SqliteConnection): void {
  foldCaseLikePostgres(connection);
  connection.function(CHECKPOINT_FUNCTION, { deterministic: false }, () => 1);
}

/**
 * SQLite's lower() and upper() fold ASCII only; PostgreSQL folds every letter. Case-insensitive
 * filters ($eqi, $containsi…) and `_q` must match the same rows on both, so SQLite's are replaced.
 */
function foldCaseLikePostgres(connection: SqliteConnection): void {
  const fold = (convert: (text: string) => string) => (value: unknown) =>
    typeof value === 'string' ? convert(value) : typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  connection.function('lower', { deterministic: true }, fold((text) => text.toLowerCase()));
  connection.function('upper', { deterministic: true }, fold((text) => text.toUpperCase()));
}
