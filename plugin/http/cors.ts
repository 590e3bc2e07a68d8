/**
 * CORS for the API's paths, with Strapi v4's default middleware settings (any origin; the write
 * methods listed too, as Strapi lists them, so a preflight answers alike). A host app that
 * handles CORS itself passes `cors: false`.
 */
import koaCors from '@koa/cors';
import type { Context } from 'koa';

export interface CorsOptions extends Omit<koaCors.Options, 'origin'> {
  /** `*` (default), one origin, or a list of allowed origins (the request's own is echoed when listed). */
  readonly origin?: string | readonly string[] | ((ctx: Context) => string);
}

export const STRAPI_CORS_DEFAULTS = {
  origin: '*',
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  allowHeaders: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
  keepHeadersOnError: true,
} as const;

export function corsMiddleware(options: CorsOptions = {}) {
  const { origin = STRAPI_CORS_DEFAULTS.origin, ...rest } = options;
  return koaCors({
    ...STRAPI_CORS_DEFAULTS,
    allowMethods: [...STRAPI_CORS_DEFAULTS.allowMethods],
    allowHeaders: [...STRAPI_CORS_DEFAULTS.allowHeaders],
    ...rest,
    origin: typeof origin === 'string' || typeof origin === 'function' ? origin : allowListed(origin),
  });
}

/** An origin in the list is echoed; any other gets no CORS headers (the browser then refuses). */
function allowListed(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (ctx: Context): string => {
    const origin = ctx.get('Origin');
    return allowed.has(origin) ? origin : '';
  };
}

/** `--cors https://a.example,https://b.example` → a list; `*` or one origin stays a string. */
export function parseCorsOrigins(text: string): string | string[] {
  const origins = text.split(',').map((origin) => origin.trim()).filter(Boolean);
  return origins.length === 1 ? origins[0]! : origins;
}
