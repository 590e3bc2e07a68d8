/**
 * The image worker: a child process of the media library (image-workers.ts) that processes one
 * image at a time, as the parent asks over its IPC channel, and writes the outputs into the
 * request's temporary folder. It ends when the parent goes away.
 */
import { ApplicationError } from '../errors.js';
import { boundImageWork, processImage, type ImageSettings } from './images.js';

/** A job, from the parent. */
export interface ImageJob {
  readonly id: number;
  readonly source: { readonly path: string; readonly bytes: number };
  readonly format: string;
  readonly hash: string;
  readonly folder: string;
  readonly settings: ImageSettings;
}

/** The answer to a job: the processed image (its formats as entries), or why not; and the worker's RSS after it. */
export type ImageJobResult = { readonly id: number; readonly rss: number } & (
  | { readonly image: { path: string; bytes: number; width: number | null; height: number | null; formats: [string, unknown][] } }
  | { readonly error: { readonly message: string; readonly invalidImage: boolean } }
);

boundImageWork();

process.on('message', (job: ImageJob) => {
  processImage(job.source, job.format, job.hash, job.folder, job.settings).then(
    (image) => reply({ id: job.id, rss: process.memoryUsage.rss(), image: { ...image, formats: [...image.formats] } }),
    (error: Error) => reply({ id: job.id, rss: process.memoryUsage.rss(), error: { message: error.message, invalidImage: error instanceof ApplicationError } }),
  );
});
process.on('disconnect', () => process.exit(0));

function reply(result: ImageJobResult): void {
  process.send?.(result);
}
