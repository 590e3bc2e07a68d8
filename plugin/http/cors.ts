/**
 * CORS for the API's paths, with Strapi v4's default middleware settings (any origin; the write
 * methods listed too, as Strapi lists them, so a preflight answers alike). A host app that
 * handles CORS itself passes `cors: false`.
 */
import koaCors from '@koa/cors';
import type { Context } from 'koa';

/**
 * @koa/cors's options, written out here: the published declarations then need no types package
 * of @koa/cors in the app that uses them.
 */
export interface CorsOptions {
  /** `*` (default), one origin, or a list of allowed origins (the request's own is echoed when listed). */
  readonly origin?: string | readonly string[] | ((ctx: Context) => string);
  /** `Access-Control-Allow-Methods` (default: Strapi's, every method). */
  readonly allowMethods?: string | string[];
  /** `Access-Control-Allow-Headers` (default: Strapi's). */
  readonly allowHeaders?: string | string[];
  /** `Access-Control-Expose-Headers`. */
  readonly exposeHeaders?: string | string[];
  /** `Access-Control-Max-Age`, in seconds. */
  readonly maxAge?: number | string;
  /** `Access-Control-Allow-Credentials`. */
  readonly credentials?: boolean | ((ctx: Context) => boolean);
  /** Whether the CORS headers stay on error answers (default true). */
  readonly keepHeadersOnError?: boolean;
  /** Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy for a secure context. */
  readonly secureContext?: boolean;
  /** `Access-Control-Allow-Private-Network` on preflights that ask for it. */
  readonly privateNetworkAccess?: boolean;
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
