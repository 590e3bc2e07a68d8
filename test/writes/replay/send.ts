/**
 * Sends a recorded request the way the recorder did (test/writes/record.mjs): `Accept:
 * application/json`, the writer token unless `token: "none"`, `body` as JSON, `rawBody` as the
 * exact string with `Content-Type: application/json` unless the case's headers name another, and
 * `padding` filled in.
 */
import type supertest from 'supertest';
import type { RecordedRequest } from './cases.js';
import type { ReceivedAnswer } from './compare.js';

/** The token the recording sent; the replay's permissions.yaml holds its hash. */
export const WRITER_TOKEN = 'writer-token';
/** The recording's custom token that may create and read articles and find categories only. */
export const RESTRICTED_TOKEN = 'restricted-token';

/** A GET with the writer token: how read-backs go out. */
export function readRequest(path: string): RecordedRequest {
  return { method: 'GET', path };
}

export async function sendRequest(agent: supertest.Agent, request: RecordedRequest): Promise<ReceivedAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (request.token !== 'none') headers.Authorization = `Bearer ${WRITER_TOKEN}`;
  Object.assign(headers, request.headers);
  const payload = request.rawBody ?? (request.body !== undefined ? JSON.stringify(padded(request)) : undefined);
  if (payload !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  let pending = agent[methodOf(request)](request.path).set(headers);
  // A string is sent as it is: superagent serializes only objects.
  if (payload !== undefined) pending = pending.send(payload);
  // The body is parsed here, not by superagent, so a body that is not JSON is kept as text.
  const response = await pending.buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  });
  const text = typeof response.body === 'string' ? response.body : '';
  return { status: response.status, body: parseJson(text), text, headers: response.headers as Record<string, string> };
}

/** The body with the request's padding in place, as the recorder sent it. */
function padded({ body, padding }: RecordedRequest): unknown {
  if (!padding) return body;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  const parent = padding.path.slice(0, -1).reduce<Record<string | number, unknown>>((node, key) => node[key] as Record<string | number, unknown>, copy);
  parent[padding.path[padding.path.length - 1]!] = 'x'.repeat(padding.length);
  return copy;
}

function methodOf(request: RecordedRequest): 'get' | 'post' | 'put' | 'delete' {
  return request.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
