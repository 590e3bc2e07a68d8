/**
 * The media library's options (`contentApi({ upload: … })`) and their defaults, Strapi 4.26's:
 * a 200 MB file limit (its body parser's), the responsive breakpoints large 1000, medium 750 and
 * small 500, size optimization and responsive formats on, auto-orientation off.
 */
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { createLocalProvider } from './local-provider.js';
import type { StorageProvider } from './provider.js';
import { createS3Provider, type S3ProviderOptions } from './s3-provider.js';

export interface UploadOptions {
  /** Where the `local` provider keeps the files (default `<root>/public/uploads`). */
  folder?: string;
  /** Largest file in bytes (default 200 MB, Strapi's): a larger one is a 413 and nothing is kept. */
  maxFileBytes?: number;
  /** Most files in one request (default 20): more is a 413 and nothing is kept. */
  maxFiles?: number;
  /** The responsive formats: name → largest side in pixels (default `{ large: 1000, medium: 750, small: 500 }`). */
  breakpoints?: Readonly<Record<string, number>>;
  /** Re-encode images at quality 80 (default true, Strapi's `sizeOptimization`). */
  sizeOptimization?: boolean;
  /** Make the breakpoint formats (default true, Strapi's `responsiveDimensions`). */
  responsiveDimensions?: boolean;
  /** Rotate images as their EXIF orientation says (default false, Strapi's `autoOrientation`). */
  autoOrientation?: boolean;
  /** Images processed at once (default: half the cores, at least 1); the others wait their turn. */
  imageConcurrency?: number;
  /**
   * Most pixels (width × height, from the header) of an image that is decoded (default
   * 30,000,000; a WebP may have a third of them): a larger image is stored as a plain file,
   * without re-encoding or formats, its width and height as its header says. Images processed at
   * once add up to at most this many pixels, so image work holds the memory of one such image.
   */
  maxImagePixels?: number;
  /** Where files go (default: the `local` provider on `folder`): a provider, or `{ s3: … }` for the `s3` one (s3-provider.ts). */
  provider?: StorageProvider | { s3: S3ProviderOptions };
}

export interface UploadSettings {
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  readonly breakpoints: Readonly<Record<string, number>>;
  readonly sizeOptimization: boolean;
  readonly responsiveDimensions: boolean;
  readonly autoOrientation: boolean;
  readonly imageConcurrency: number;
  readonly maxImagePixels: number;
  readonly provider: StorageProvider;
  /** The local folder served at `/uploads`, when the provider is the local one. */
  readonly localFolder: string | null;
}

export const DEFAULT_MAX_FILE_BYTES = 200 * 1024 * 1024;
export const DEFAULT_MAX_FILES = 20;
/**
 * 30 M pixels: the 24 MP photo of a current phone (5712 × 4284) or camera is processed. The memory
 * processing one takes grows with its pixels — about 7 bytes a pixel to re-encode a JPEG at
 * quality 80 with optimized coding, as Strapi does (images.ts) — so this keeps an upload's image
 * work near 210 MB, under 256 MB. A 48–50 MP full-resolution photo is stored without formats.
 */
export const DEFAULT_MAX_IMAGE_PIXELS = 30_000_000;
export const DEFAULT_BREAKPOINTS: Readonly<Record<string, number>> = Object.freeze({ large: 1000, medium: 750, small: 500 });

export function uploadSettings(options: UploadOptions, root: string): UploadSettings {
  const folder = resolve(options.folder ?? join(root, 'public', 'uploads'));
  const provider = options.provider ? providerOf(options.provider) : createLocalProvider({ folder });
  return Object.freeze({
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
    breakpoints: options.breakpoints ?? DEFAULT_BREAKPOINTS,
    sizeOptimization: options.sizeOptimization ?? true,
    responsiveDimensions: options.responsiveDimensions ?? true,
    autoOrientation: options.autoOrientation ?? false,
    imageConcurrency: Math.max(1, options.imageConcurrency ?? Math.floor(availableParallelism() / 2)),
    maxImagePixels: Math.max(1, options.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS),
    provider,
    localFolder: options.provider ? null : folder,
  });
}

function providerOf(option: StorageProvider | { s3: S3ProviderOptions }): StorageProvider {
  return 's3' in option ? createS3Provider(option.s3) : option;
}
