/**
 * The SQL functions every SQLite connection of the plugin has (its own connections, the read
 * workers', and a host's knex connections when the API first uses them).
 */

export interface SqliteConnection {
  pragma(source: string): unknown;
  function(name: string, options: { deterministic: boolean }, implementation: (...values: unknown[]) => unknown): unknown;
}

/**
 * Called once per entry a read statement builds (see Dialect.checkpoint). It returns true, unless
 * the statement was cancelled (its deadline passed): then it throws, and SQLite abandons the
 * statement — the way a read worker stops a statement without stopping its thread.
 */
export const CHECKPOINT_FUNCTION = 'content_api_checkpoint';

/** The error a cancelled statement ends with. */
export const CANCELLED = 'CONTENT_API_CANCELLED';

export function registerSqlFunctions(connection: SqliteConnection, cancelled: () => boolean = () => false): void {
  foldCaseLikePostgres(connection);
  connection.function(CHECKPOINT_FUNCTION, { deterministic: false }, () => {
    if (cancelled()) throw Object.assign(new Error('statement cancelled'), { code: CANCELLED });
    return 1;
  });
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
