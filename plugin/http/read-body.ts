/**
 * A write request's JSON body. The plugin reads it itself (a host needs no body parser), under a
 * size limit; when a host's body parser already consumed the stream, its parsed object is used,
 * provided the request said it was JSON. Form bodies are refused: the API speaks JSON only.
 */
import type { Context } from 'koa';
import { PayloadTooLargeError, ValidationError } from '../errors.js';

/** Strapi's (koa-body's) JSON limit. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The parsed JSON body, or undefined when the request has none. */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const parsedByHost = (ctx.request as { body?: unknown }).body;
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody && parsedByHost === undefined) return undefined;
  if (!ctx.is('json', '+json')) {
    throw new ValidationError('', 'Invalid body; expected JSON sent with Content-Type: application/json');
  }
  if (parsedByHost !== undefined && ctx.req.readableEnded) return parsedByHost;
  const text = await readText(ctx, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('', 'Invalid body; it is not valid JSON');
  }
}

/** The request body as text, under a size limit (413 above it). */
export async function readText(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw new PayloadTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Past the limit the rest is not kept; the stream is drained so the connection stays usable.
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw new PayloadTooLargeError(limit);
  return Buffer.concat(chunks).toString('utf8');
}
