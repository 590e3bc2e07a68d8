// How an operation of kit.mjs goes over HTTP, as the recorder sends it to the reference; the
// request is recorded with the answer, and the replay sends that same request to the package.
import { TOKENS } from './tokens.mjs';

/**
 * The HTTP request of an operation: `POST /graphql` with `{ query, variables, operationName }` as
 * JSON (or the operation's own `body`: any JSON value, or `rawBody` text as it is), or
 * `GET /graphql?query=…`; the `Authorization` of its `auth` token.
 */
export function httpRequest(operation) {
  const headers = { Accept: 'application/json' };
  const token = TOKENS.find((candidate) => candidate.name === (operation.auth ?? 'public'));
  if (operation.auth && operation.auth !== 'public' && !token && !operation.authorization) throw new Error(`${operation.name}: no token named ${operation.auth}`);
  if (operation.authorization) headers.Authorization = operation.authorization;
  else if (token) headers.Authorization = `Bearer ${token.key}`;
  const params = {
    ...(operation.query !== undefined ? { query: operation.query } : {}),
    ...(operation.variables !== undefined ? { variables: operation.variables } : {}),
    ...(operation.operationName !== undefined ? { operationName: operation.operationName } : {}),
  };
  if (operation.method === 'GET') {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) search.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    return { method: 'GET', path: `/graphql?${search}`, headers };
  }
  headers['Content-Type'] = operation.contentType ?? 'application/json';
  const body = operation.rawBody ?? JSON.stringify(operation.body !== undefined ? operation.body : params);
  return { method: operation.method ?? 'POST', path: '/graphql', headers, body };
}

/** Sends a recorded request; the answer as JSON (or as text when it is not JSON), with its Server-Timing header. */
export async function sendRequest(base, request) {
  const response = await fetch(base + request.path, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  const serverTiming = response.headers.get('server-timing');
  try {
    return { status: response.status, body: JSON.parse(text), serverTiming };
  } catch {
    return { status: response.status, text, serverTiming };
  }
}

/** Sends an operation; its request with the answer. */
export async function sendOperation(base, operation) {
  const request = httpRequest(operation);
  return { request, ...(await sendRequest(base, request)) };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/;
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const DAY = 24 * 60 * 60 * 1000;

/**
 * What varies from run to run, and between the reference and the package, replaced by a mark:
 * every date-time within a day of `runStartedAt` (written by the run) by "<now>", every login
 * token (a JWT, signed with another secret and another clock) by "<jwt>", every bcrypt hash
 * (salted anew each time; Strapi answers the hash of a password attribute) by "<bcrypt>".
 */
export function normalizeAnswer(value, runStartedAt) {
  if (typeof value === 'string' && JWT.test(value)) return '<jwt>';
  if (typeof value === 'string' && BCRYPT.test(value)) return '<bcrypt>';
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return Math.abs(Date.parse(value) - runStartedAt) <= DAY ? '<now>' : value;
  if (Array.isArray(value)) return value.map((item) => normalizeAnswer(item, runStartedAt));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalizeAnswer(item, runStartedAt)]));
  return value;
}
