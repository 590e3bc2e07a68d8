/**
 * The request id of a log line: the caller's `X-Request-Id` when it is a plausible id (a proxy
 * or a client tracing its calls), else a fresh UUID. Anything else a caller sends is not
 * repeated into logs or headers.
 */
import { randomUUID } from 'node:crypto';

const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,127}$/;

export function requestId(sent: string): string {
  return WELL_FORMED.test(sent) ? sent : randomUUID();
}
