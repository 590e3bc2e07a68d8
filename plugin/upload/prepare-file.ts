/**
 * A received file made ready to store, before anything is stored: its name, extension and hash,
 * its type from its content, and — for an image — its dimensions and formats, generated in the
 * request's temporary folder. A file that cannot be named or does not decode is refused here,
 * when nothing has been written yet. An image whose header declares more than `maxImagePixels`
 * (a WebP: a third of it, images.ts) is never decoded: it is kept as a plain file (no
 * re-encoding, no formats) with the dimensions its header gives, which costs what any other file
 * costs, whatever the pixels it claims. The others are processed by an image worker.
 */
import { nameFile, type FileNaming } from './file-name.js';
import type { ImageWorkers } from './image-workers.js';
import { imageCost, isProcessedImage, readImageHeader, type ImageOutput } from './images.js';
import type { Limiter } from './limiter.js';
import type { ReceivedFile } from './upload-form.js';
import type { UploadSettings } from './options.js';
import { sniffType } from './sniff.js';

export interface PreparedFile extends FileNaming {
  readonly mime: string;
  /** The bytes to store as the file itself (the re-encoded image, or as received). */
  readonly path: string;
  readonly bytes: number;
  /** Null for a file that is not an image; a replacement writes them either way. */
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: ReadonlyMap<string, ImageOutput>;
}

export interface PrepareContext {
  readonly settings: UploadSettings;
  readonly limiter: Limiter;
  readonly images: ImageWorkers;
  /** The request's temporary folder. */
  readonly folder: string;
}

/** The file as it will be stored; `keep` holds the hash and extension of a file being replaced. */
export async function prepareFile(file: ReceivedFile, infoName: string | null | undefined, context: PrepareContext, keep?: { hash: string; ext: string }): Promise<PreparedFile> {
  const header = await readImageHeader(file.path);
  const mime = await sniffType(file.path, file.declaredType, header?.format === 'svg');
  const named = nameFile(file.filename, mime, infoName);
  // A replaced file keeps its hash and extension, so its URL does not change (Strapi's rule).
  const naming = keep ? { ...named, ...keep } : named;
  const plain = { ...naming, mime, path: file.path, bytes: file.bytes, width: null, height: null, formats: new Map() };
  if (!header || !isProcessedImage(header.format)) return plain;
  const cost = imageCost(header);
  if (cost > context.settings.maxImagePixels) return { ...plain, width: header.width, height: header.height };
  const image = await context.limiter.run(() => context.images.process(file, header.format, naming.hash, context.folder), cost);
  return { ...naming, mime, ...image };
}
