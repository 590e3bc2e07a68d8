/**
 * What the PostgreSQL executor's connections and its body workers' connections share: the bound
 * on the statements a connection keeps prepared, and how a statement's failure is told apart —
 * past the deadline (statement_timeout), or on a connection that broke (another target may answer).
 */

/**
 * Prepared statements a connection keeps before they are all released: each distinct query shape
 * prepares one, and callers choose the shapes.
 */
const MAX_PREPARED_PER_CONNECTION = 200;

/** A pg connection, with pg's record of the statements prepared on it. */
export interface PreparingConnection {
  query(text: string): Promise<unknown>;
  connection: { parsedStatements: Record<string, string> };
}

/** Releases every statement prepared on `connection` when preparing `name` would go past the bound. */
export async function makeRoomToPrepare(connection: PreparingConnection, name: string): Promise<void> {
  const prepared = connection.connection.parsedStatements;
  if (name in prepared || Object.keys(prepared).length < MAX_PREPARED_PER_CONNECTION) return;
  await connection.query('DEALLOCATE ALL');
  connection.connection.parsedStatements = {};
}

/** 57014: the statement was cancelled by statement_timeout. */
export function timedOut(error: unknown): boolean {
  return (error as { code?: unknown }).code === '57014';
}

/**
 * The connection broke under the statement: the server shut down or restarted (57P01–57P03),
 * the connection failed (class 08), or the socket closed. pg marks such a connection and knex's
 * pool discards it; the next statement connects afresh.
 */
export function connectionLost(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (/^57P0[1-3]$/.test(code) || code.startsWith('08') || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
  return typeof message === 'string' && /Connection terminated|connection is closed|not queryable/i.test(message);
}
