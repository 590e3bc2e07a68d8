/**
 * A GraphQL request's JSON body, refused as Strapi's body parser and Apollo Server 3 refuse it:
 * JSON that does not parse, or that is not an object or an array, is Strapi's 400 `SyntaxError`
 * envelope; a body that is not JSON, an empty object or an empty batch is Apollo's plain-text 400.
 */
import type { Context } from 'koa';
import { readText } from '../http/read-body.js';

/** A request answered before any operation is read: a status and a JSON value or a plain text. */
export class RequestRefusal extends Error {
  constructor(
    readonly status: number,
    readonly answer: { readonly json: unknown } | { readonly text: string },
  ) {
    super(typeof (answer as { text?: string }).text === 'string' ? (answer as { text: string }).text : 'request refused');
  }
}

export const NO_BODY = 'POST body missing, invalid Content-Type, or JSON object has no keys.';

export async function readGraphqlBody(ctx: Context, limit: number): Promise<unknown> {
  const parsedByHost = (ctx.request as { body?: unknown }).body;
  if (!ctx.is('json', '+json')) throw new RequestRefusal(400, { text: NO_BODY });
  const text = parsedByHost !== undefined && ctx.req.readableEnded ? JSON.stringify(parsedByHost) : await readText(ctx, limit);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw syntaxError(error instanceof Error ? error.message : 'Unexpected end of JSON input');
  }
  if (typeof body !== 'object' || body === null) throw syntaxError('invalid JSON, only supports object and array');
  if (Array.isArray(body) ? body.length === 0 : Object.keys(body).length === 0) throw new RequestRefusal(400, { text: NO_BODY });
  return body;
}

function syntaxError(message: string): RequestRefusal {
  return new RequestRefusal(400, { json: { data: null, error: { status: 400, name: 'SyntaxError', message } } });
}
