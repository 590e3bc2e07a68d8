/**
 * Image processing as Strapi 4.26's upload plugin does it, with the same sharp (0.33): the
 * formats it processes, the check that an image decodes, the re-encoding at quality 80
 * (`sizeOptimization`; the re-encoded file is kept even when larger, as Strapi keeps it: it
 * compares with a size sharp does not give for files), the thumbnail (inside 245×156) and the
 * breakpoint formats (inside N×N, only for images larger than N). Every output is a file in the
 * request's temporary folder; processImage runs in an image worker process (image-workers.ts).
 *
 * Unlike Strapi, whose sharp decodes up to its default 268 M pixels, every decoding here is held
 * to the media library's `maxImagePixels`: the pixel count is read from the header first
 * (prepare-file.ts keeps larger images as plain files), and libvips refuses to decode past it
 * too, in case a decoder finds more than the header said.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { ApplicationError } from '../errors.js';
import type { UploadSettings } from './options.js';

/** What image work needs of the settings: plain data, sent as it is to an image worker. */
export type ImageSettings = Pick<UploadSettings, 'maxImagePixels' | 'sizeOptimization' | 'responsiveDimensions' | 'autoOrientation' | 'breakpoints'>;

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

/** What an image's header says, read without decoding a pixel. */
export interface ImageHeader {
  /** sharp's name for the format. */
  readonly format: string;
  readonly width: number | null;
  readonly height: number | null;
}

/** The file's image header, or null when it is not an image sharp reads. */
export async function readImageHeader(path: string): Promise<ImageHeader | null> {
  try {
    // metadata() parses the header only: a 31 KB PNG declaring 256 M pixels takes under a millisecond.
    const { format, width = null, height = null } = await sharp(path).metadata();
    return format ? { format, width, height } : null;
  } catch {
    return null;
  }
}

/**
 * What a pixel of the format costs to process, in pixels of the budget. Measured with sharp 0.33
 * on 33.5 M-pixel images, processing (the check, re-encoding, the formats) grows the resident
 * memory by about 7 bytes a pixel for JPEG, SVG and GIF, 5.5 for PNG, 3.5 for TIFF, and 21 for
 * WebP, whose decoder and encoder each hold the whole image: a WebP counts three times.
 */
const PIXEL_COST: Readonly<Record<string, number>> = { webp: 3 };

function pixelCost(format: string): number {
  return PIXEL_COST[format] ?? 1;
}

/** The budget processing the image takes: its pixels times its format's cost; unknown dimensions are too many. */
export function imageCost(header: ImageHeader): number {
  return header.width !== null && header.height !== null ? header.width * header.height * pixelCost(header.format) : Number.POSITIVE_INFINITY;
}

/**
 * libvips' process-wide settings for bounded image work: no operation cache (it keeps decoded
 * images and open files for reuse, memory an upload server never gets back from a cache hit) and
 * one worker thread per image. Set in the image worker process (image-worker.ts), which does
 * nothing else.
 */
export function boundImageWork(): void {
  sharp.cache(false);
  sharp.concurrency(1);
}

/** An image of `format` read as a stream (sequentially), refused past the budget. */
function decode(path: string, format: string, settings: ImageSettings): sharp.Sharp {
  return sharp(path, { limitInputPixels: Math.max(1, Math.floor(settings.maxImagePixels / pixelCost(format))), sequentialRead: true });
}

export function isProcessedImage(format: string | null): boolean {
  return format !== null && FORMATS_TO_PROCESS.has(format);
}

/**
 * The image, re-encoded when asked, with its formats named after `hash` (`thumbnail_<hash>`).
 * Files are written under `folder`; a file that does not decode is a 400, as in Strapi.
 */
export async function processImage(source: { path: string; bytes: number }, format: string, hash: string, folder: string, settings: ImageSettings): Promise<ProcessedImage> {
  try {
    await decode(source.path, format, settings).stats();
  } catch {
    throw new ApplicationError('File is not a valid image');
  }
  const image = FORMATS_TO_OPTIMIZE.has(format) ? await optimize(source, format, hash, folder, settings) : source;
  const { width = null, height = null } = await decode(image.path, format, settings).metadata();
  const formats = new Map<string, ImageOutput>();
  if (FORMATS_TO_RESIZE.has(format) && width !== null && height !== null) {
    if (width > THUMBNAIL.width || height > THUMBNAIL.height) {
      formats.set('thumbnail', await resize(decode(image.path, format, settings), THUMBNAIL, `thumbnail_${hash}`, folder));
    }
    if (settings.responsiveDimensions) {
      for (const [name, size] of Object.entries(settings.breakpoints)) {
        if (size < width || size < height) formats.set(name, await resize(decode(image.path, format, settings), { width: size, height: size, fit: 'inside' }, `${name}_${hash}`, folder));
      }
    }
  }
  return { path: image.path, bytes: image.bytes, width, height, formats };
}

async function optimize(source: { path: string; bytes: number }, format: string, hash: string, folder: string, settings: ImageSettings): Promise<{ path: string; bytes: number }> {
  if (!settings.sizeOptimization && !settings.autoOrientation) return source;
  const transformer = decode(source.path, format, settings);
  const encode = (transformer as unknown as Record<string, (options: { quality: number }) => sharp.Sharp>)[format];
  encode.call(transformer, { quality: settings.sizeOptimization ? 80 : 100 });
  if (settings.autoOrientation) transformer.rotate();
  const path = join(folder, `optimized-${hash}`);
  const info = await transformer.toFile(path);
  return { path, bytes: info.size };
}

/** Written without an extension, so sharp keeps the input's format, as Strapi's temporary files do. */
async function resize(image: sharp.Sharp, options: sharp.ResizeOptions, key: string, folder: string): Promise<ImageOutput> {
  const output = join(folder, key);
  const info = await image.resize(options).toFile(output);
  return { key, path: output, width: info.width, height: info.height, bytes: info.size };
}
