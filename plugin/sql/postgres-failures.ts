/**
 * How a PostgreSQL statement failed, as the executor and its body workers tell it apart: past the
 * deadline (statement_timeout), or on a connection that broke (another target may answer).
 */

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
