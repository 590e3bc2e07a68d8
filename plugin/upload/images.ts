/**
 * Image processing as Strapi 4.26's upload plugin does it, with the same sharp (0.33): the
 * formats it processes, the check that an image decodes, the re-encoding at quality 80
 * (`sizeOptimization`; the re-encoded file is kept even when larger, as Strapi keeps it: it
 * compares with a size sharp does not give for files), the thumbnail (inside 245×156) and the
 * breakpoint formats (inside N×N, only for images larger than N). Every output is a file in the
 * request's temporary folder; sharp decodes and encodes in libuv's pool, never on the event loop.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { ApplicationError } from '../errors.js';
import type { UploadSettings } from './options.js';

const FORMATS_TO_RESIZE = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);
const FORMATS_TO_PROCESS = new Set(['jpeg', 'png', 'webp', 'tiff', 'svg', 'gif', 'avif']);
// sharp names AVIF files 'heif', so neither list takes them: Strapi stores them as plain files.
const FORMATS_TO_OPTIMIZE = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif']);
const THUMBNAIL = { width: 245, height: 156, fit: 'inside' as const };

/** A generated file: a format of the image (`thumbnail`, `large`, …). */
export interface ImageOutput {
  readonly key: string;
  readonly path: string;
  readonly width: number;
  readonly height: number;
  readonly bytes: number;
}

/** What processing made of an image. */
export interface ProcessedImage {
  /** The file to store as the image itself: the re-encoded one, or the received one. */
  readonly path: string;
  readonly bytes: number;
  readonly width: number | null;
  readonly height: number | null;
  /** Format name → output, thumbnail first then the breakpoints in their order. */
  readonly formats: ReadonlyMap<string, ImageOutput>;
}

/** sharp's name for the file's format, or null when it is not an image sharp reads. */
export async function imageFormat(path: string): Promise<string | null> {
  try {
    const { format } = await sharp(path).metadata();
    return format ?? null;
  } catch {
    return null;
  }
}

export function isProcessedImage(format: string | null): boolean {
  return format !== null && FORMATS_TO_PROCESS.has(format);
}

/**
 * The image, re-encoded when asked, with its formats named after `hash` (`thumbnail_<hash>`).
 * Files are written under `folder`; a file that does not decode is a 400, as in Strapi.
 */
export async function processImage(source: { path: string; bytes: number }, format: string, hash: string, folder: string, settings: UploadSettings): Promise<ProcessedImage> {
  try {
    await sharp(source.path).stats();
  } catch {
    throw new ApplicationError('File is not a valid image');
  }
  const image = FORMATS_TO_OPTIMIZE.has(format) ? await optimize(source, format, hash, folder, settings) : source;
  const { width = null, height = null } = await sharp(image.path).metadata();
  const formats = new Map<string, ImageOutput>();
  if (FORMATS_TO_RESIZE.has(format) && width !== null && height !== null) {
    if (width > THUMBNAIL.width || height > THUMBNAIL.height) {
      formats.set('thumbnail', await resize(image.path, THUMBNAIL, `thumbnail_${hash}`, folder));
    }
    if (settings.responsiveDimensions) {
      for (const [name, size] of Object.entries(settings.breakpoints)) {
        if (size < width || size < height) formats.set(name, await resize(image.path, { width: size, height: size, fit: 'inside' }, `${name}_${hash}`, folder));
      }
    }
  }
  return { path: image.path, bytes: image.bytes, width, height, formats };
}

async function optimize(source: { path: string; bytes: number }, format: string, hash: string, folder: string, settings: UploadSettings): Promise<{ path: string; bytes: number }> {
  if (!settings.sizeOptimization && !settings.autoOrientation) return source;
  const transformer = sharp(source.path);
  const encode = (transformer as unknown as Record<string, (options: { quality: number }) => sharp.Sharp>)[format];
  encode.call(transformer, { quality: settings.sizeOptimization ? 80 : 100 });
  if (settings.autoOrientation) transformer.rotate();
  const path = join(folder, `optimized-${hash}`);
  const info = await transformer.toFile(path);
  return { path, bytes: info.size };
}

/** Written without an extension, so sharp keeps the input's format, as Strapi's temporary files do. */
async function resize(path: string, options: sharp.ResizeOptions, key: string, folder: string): Promise<ImageOutput> {
  const output = join(folder, key);
  const info = await sharp(path).resize(options).toFile(output);
  return { key, path: output, width: info.width, height: info.height, bytes: info.size };
}
