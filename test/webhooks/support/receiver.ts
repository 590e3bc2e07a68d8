/**
 * A webhook receiver on loopback (port 0) for the webhook suites: it keeps every request it gets,
 * verifies its signature the way the README tells receivers to, and answers as the test says
 * (200 by default; a status, a redirect, a large body, or no answer at all).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly body: { event: string; createdAt: string; model?: string; uid?: string; entry?: Record<string, unknown>; media?: Record<string, unknown> };
  /** Whether X-Webhook-Signature is the HMAC of `<timestamp>.<body>` with the receiver's secret. */
  readonly signed: boolean;
  readonly at: number;
}

/** What the receiver does with a request: `undefined` answers 200. */
export type Answer = (request: Received, response: ServerResponse) => void | 'default';

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** Every request, failed ones included. */
  answer: Answer;
  /** Resolves once `count` requests were answered 2xx (default 10 s). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Requests answered 2xx. */
  readonly delivered: Received[];
  close(): Promise<void>;
}

export function verifySignature(secret: string, headers: IncomingHttpHeaders, text: string): boolean {
  const given = String(headers['x-webhook-signature'] ?? '');
  const timestamp = String(headers['x-webhook-timestamp'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${text}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export async function startReceiver(secret = 'receiver-secret', port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const delivered: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const receiver = {} as Receiver & { answer: Answer };
  receiver.answer = () => 'default';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Received['body'];
      try {
        body = JSON.parse(text) as Received['body'];
      } catch {
        body = { event: '?', createdAt: '' };
      }
      const entry: Received = { url: request.url ?? '', headers: request.headers, text, body, signed: verifySignature(secret, request.headers, text), at: Date.now() };
      received.push(entry);
      const original = response.writeHead.bind(response);
      // Counted as delivered when answered 2xx.
      response.writeHead = ((status: number, ...rest: unknown[]) => {
        if (status >= 200 && status < 300) {
          delivered.push(entry);
          for (const wait of [...waiting]) if (delivered.length >= wait.count) wait.resolve();
        }
        return (original as (...args: unknown[]) => ServerResponse)(status, ...rest);
      }) as typeof response.writeHead;
      if (receiver.answer(entry, response) === 'default') {
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.end('ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${address.port}/hook`,
    port: address.port,
    received,
    delivered,
    waitFor(count: number, timeoutMs = 10_000) {
      if (delivered.length >= count) return Promise.resolve(delivered);
      return new Promise<Received[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${delivered.length} deliveries of ${count} within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({ count, resolve: () => (clearTimeout(timer), resolve(delivered)) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Polls `condition` until it holds (at most 10 s). */
export async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); !(await condition()); await new Promise((resolve) => setTimeout(resolve, 25))) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
  }
}

