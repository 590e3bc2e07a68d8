// What the recorders of end-user routes share (test/auth, test/accounts; run by hand, never by npm
// test): requests sent from a chosen loopback address (Strapi's limiter counts per address), tokens
// signed independently of the plugin, and the dates a run produced made comparable.
import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';

/** A token signed here, independently of the plugin: HS256 over the payload as given. */
export function signedToken(payload, secret) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** Issued 2024-01-01, ends 2100: in force whenever a replay runs. */
export const LASTING = { iat: 1704067200, exp: 4102444800 };

/**
 * Sends `{ method, path, headers, body }` (body as JSON) to 127.0.0.1:`port` from `localAddress`;
 * answers `{ status, response }` (parsed JSON), `responseText` when the body is not JSON, and
 * `location` when the answer redirects.
 */
export function sendFrom(port, localAddress, { method, path, headers, body }) {
  return new Promise((done, fail) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method,
        path,
        headers: { Accept: 'application/json', ...(payload !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          const answer = { status: response.statusCode };
          if (response.headers.location !== undefined) answer.location = response.headers.location;
          try {
            answer.response = text === '' ? null : JSON.parse(text);
          } catch {
            answer.response = null;
            answer.responseText = text;
          }
          done(answer);
        });
      },
    );
    request.on('error', fail);
    request.end(payload);
  });
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = 24 * 60 * 60 * 1000;

/** Date-times the run produced (within a day of it) become "<now>", as the write recordings do. */
export function normalizeRunDates(value, runStartedAt) {
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return Math.abs(Date.parse(value) - runStartedAt) <= DAY ? '<now>' : value;
  if (Array.isArray(value)) return value.map((item) => normalizeRunDates(item, runStartedAt));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalizeRunDates(item, runStartedAt)]));
  return value;
}

/**
 * Writes `recorded` (`[{ group, note?, cases }]`, in order) into `out` as the replays read it
 * (test/support/grouped-cases.ts): `<group>.json` each, and `index.json` with `header` and the counts.
 */
export function writeGroupedRecordings(out, recorded, header) {
  mkdirSync(out, { recursive: true });
  const index = {
    ...header,
    groups: recorded.map(({ group, cases }) => ({ group, file: `${group}.json`, cases: cases.length })),
    total: recorded.reduce((sum, { cases }) => sum + cases.length, 0),
  };
  for (const [order, { group, note, cases }] of recorded.entries()) {
    writeFileSync(join(out, `${group}.json`), JSON.stringify({ group, order: order + 1, ...(note ? { note } : {}), cases }, null, 2) + '\n');
  }
  writeFileSync(join(out, 'index.json'), JSON.stringify(index, null, 2) + '\n');
  console.log(`${index.total} cases recorded in ${out}`);
}
