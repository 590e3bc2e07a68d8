/**
 * Serves the `local` provider's folder at `/uploads/<key>`, as Strapi serves `public/uploads`:
 * the type from the extension, a weak ETag (size and modification time) with 304s, Cache-Control,
 * and single byte ranges as RFC 9110 says (206; 416 when the range starts past the end; a range
 * that is not valid, or several ranges, get the whole file). Every answer carries `nosniff` and a
 * Content-Security-Policy that loads and runs nothing; types a browser would render as a page
 * (HTML, SVG, XML…) are sent as attachments, so an uploaded file cannot run script in the API's
 * origin. Paths that name no file pass to the next middleware.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import { localPath } from '../upload/local-provider.js';
import { SAFE_KEY } from '../upload/provider.js';

/** A day: a replaced file keeps its URL (Strapi's rule), so a year-long cache would serve the old content. */
const CACHE_CONTROL = 'public, max-age=86400';
/**
 * An image, a video or a PDF opened by itself is the document, which no directive blocks: what
 * the policy stops is whatever a served file would load or run (a page or an SVG opened despite
 * the attachment, in a browser that ignores it). Nothing of the API's origin is needed for that,
 * and `sandbox` gives the document an origin of its own, without scripts, forms or popups.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";
/** Shown inline: types a browser displays without running anything from them. */
const INLINE = /^(image\/(?!svg)|audio\/|video\/|text\/plain|application\/pdf$)/;

export function serveLocalUploads(folder: string, prefix = '/uploads'): Middleware {
  return async (ctx: Context, next: Next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(`${prefix}/`)) return next();
    const key = ctx.path.slice(prefix.length + 1);
    if (!SAFE_KEY.test(key)) return next();
    const path = localPath(folder, key);
    const stats = await stat(path).catch(() => null);
    if (!stats?.isFile()) return next();
    ctx.status = 200;
    ctx.type = extname(key);
    if (!ctx.type) ctx.type = 'application/octet-stream';
    if (!INLINE.test(ctx.type)) ctx.set('Content-Disposition', `attachment; filename="${key}"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('Cache-Control', CACHE_CONTROL);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    ctx.lastModified = stats.mtime;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const range = requestedRange(ctx, stats.size);
    if (range === 'unsatisfiable') {
      ctx.body = '';
      ctx.status = 416;
      ctx.set('Content-Range', `bytes */${stats.size}`);
      return;
    }
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${stats.size}`);
    }
    sendFile(ctx, path, range ?? { start: 0, end: stats.size - 1 });
  };
}

/** The bytes `start`..`end` of the file; for HEAD their length only (no file is opened). */
function sendFile(ctx: Context, path: string, range: { start: number; end: number }): void {
  // Koa would not read a stream it does not send: HEAD gets an empty body with the real length.
  ctx.body = ctx.method === 'HEAD' || range.end < range.start ? '' : createReadStream(path, range);
  ctx.length = range.end - range.start + 1;
}

/**
 * The byte range asked for (RFC 9110, 14.2), null for the whole file, or 'unsatisfiable'. A Range
 * header is ignored, and the whole file sent, when there is none, when If-Range names another
 * version, when it is not one valid byte range (`bytes=10-5`, another unit, a syntax error), and
 * when it asks for several ranges: a server may ignore Range, and one answer is simpler and no
 * larger than a multipart one. A valid range that starts past the end (or `bytes=-0`) is
 * unsatisfiable: 416.
 */
function requestedRange(ctx: Context, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const header = ctx.get('range');
  const ifRange = ctx.get('if-range');
  if (!header || (ifRange && ifRange !== ctx.response.get('ETag'))) return null;
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    // `bytes=-N`: the last N bytes, the whole file when it is shorter.
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const last = match[2] === '' ? Infinity : Number(match[2]);
  if (last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}
