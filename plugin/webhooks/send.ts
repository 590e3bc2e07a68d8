/**
 * One attempt to deliver an event to a target: a POST of the payload, signed, within a timeout.
 * Redirects are not followed (a 3xx is a failed attempt), the answer's body is read no further
 * than a few kilobytes (kept for the attempt's record), and with `refusePrivateAddresses` the
 * connection is never opened to an internal address.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { literalAddressRefusal, publicOnlyLookup, type Resolve } from './address-policy.js';
import type { WebhookTarget } from './config.js';

/** What is kept of an answer's body, at most. */
export const MAX_RESPONSE_BYTES = 4096;

export interface Attempt {
  /** The answer's status; null when there was none (refused, timed out, …). */
  readonly status: number | null;
  readonly ok: boolean;
  readonly durationMs: number;
  /** Why it failed: the network error, or the status and the start of the body. */
  readonly error: string | null;
}

export interface SendOptions {
  readonly timeout: number;
  readonly refusePrivateAddresses: boolean;
  readonly now?: () => number;
  /** With `refusePrivateAddresses`, how target names are resolved (dns.lookup by default): the addresses it gives are the ones checked and connected to. */
  readonly resolve?: Resolve;
}

/** `sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` with the target's secret: what X-Webhook-Signature carries. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function sendEvent(target: WebhookTarget, event: { readonly id: string; readonly name: string; readonly body: string }, options: SendOptions): Promise<Attempt> {
  const started = Date.now();
  const timestamp = String(Math.floor((options.now ?? Date.now)() / 1000));
  const headers: Record<string, string> = {
    ...target.headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(event.body)),
    'User-Agent': 'koa-content-api-webhooks',
    'X-Strapi-Event': event.name,
    'X-Webhook-Id': event.id,
    'X-Webhook-Timestamp': timestamp,
  };
  if (target.secret !== null) headers['X-Webhook-Signature'] = signature(target.secret, timestamp, event.body);
  const url = new URL(target.url);
  const finish = (status: number | null, error: string | null): Attempt => ({ status, ok: error === null, durationMs: Date.now() - started, error });
  // Node does not call `lookup` for an address: it is checked here, before any socket exists.
  const refusal = options.refusePrivateAddresses ? literalAddressRefusal(url) : null;
  if (refusal) return Promise.resolve(finish(null, refusal));
  return new Promise((resolve) => {
    let settled = false;
    const done = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(finish(status, error));
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers,
      agent: false,
      ...(options.refusePrivateAddresses ? { lookup: publicOnlyLookup(options.resolve) as never } : {}),
    });
    const timer = setTimeout(() => done(null, `no answer within ${options.timeout} ms`), options.timeout);
    request.on('error', (error: NodeJS.ErrnoException) => done(null, error.message || String(error.code)));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const kept: Buffer[] = [];
      let size = 0;
      const conclude = () => {
        const text = Buffer.concat(kept).toString('utf8').slice(0, MAX_RESPONSE_BYTES);
        if (status >= 200 && status < 300) return done(status, null);
        const why = status >= 300 && status < 400 ? `redirect to ${String(response.headers.location ?? '?')} not followed` : `answered ${status}`;
        done(status, text ? `${why}: ${text}` : why);
      };
      response.on('data', (chunk: Buffer) => {
        kept.push(chunk);
        size += chunk.length;
        // Enough is known: the rest of a large body is never read.
        if (size >= MAX_RESPONSE_BYTES) conclude();
      });
      response.on('end', conclude);
      response.on('error', conclude);
    });
    request.end(event.body);
  });
}
