/**
 * Image work in child processes, one image at a time each, so that its memory is bounded and
 * given back. In the server's own process, sharp's work runs on whichever of libuv's threads is
 * free, and glibc keeps a heap (an arena) per thread: after twenty 30 M-pixel images the freed
 * memory kept in those heaps had grown the server from 150 MB to 605 MB, for jobs of 225 MB. A worker runs with
 * two arenas (MALLOC_ARENA_MAX, unless the environment sets it), and one whose memory stays above
 * RECYCLE_RSS_BYTES after a job is replaced, which gives all of it back to the system. A worker
 * that dies during a job (a decoder crash, the kernel's OOM killer) fails that file only.
 *
 * The media library's limiter decides how many jobs run at once; here a job takes an idle worker
 * or starts one. Idle workers do not keep the host process alive, and end with it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ApplicationError } from '../errors.js';
import type { ImageOutput, ImageSettings, ProcessedImage } from './images.js';
import type { ImageJob, ImageJobResult } from './image-worker.js';

const WORKER_PATH = fileURLToPath(new URL('./image-worker.js', import.meta.url));
/** A worker's resident memory past which it is replaced after its job: about twice what an idle one takes. */
const RECYCLE_RSS_BYTES = 128 * 1024 * 1024;

interface Worker {
  readonly child: ChildProcess;
  /** The job under way: what to do with its answer, or with the worker's death. */
  pending: { id: number; settle: (result: ImageJobResult | Error) => void } | null;
}

export class ImageWorkers {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private nextId = 1;
  private closed = false;

  private readonly settings: ImageSettings;

  constructor(settings: ImageSettings) {
    // Only what image work reads: the rest (a provider) is no data to send.
    const { maxImagePixels, sizeOptimization, responsiveDimensions, autoOrientation, breakpoints } = settings;
    this.settings = { maxImagePixels, sizeOptimization, responsiveDimensions, autoOrientation, breakpoints };
  }

  /** The image processed by a worker (processImage's answer); a file that does not decode is a 400. */
  async process(source: { path: string; bytes: number }, format: string, hash: string, folder: string): Promise<ProcessedImage> {
    if (this.closed) throw new Error('the media library is closed');
    const worker = this.idle.pop() ?? this.start();
    const job: ImageJob = { id: this.nextId++, source: { path: source.path, bytes: source.bytes }, format, hash, folder, settings: this.settings };
    const result = await new Promise<ImageJobResult | Error>((settle) => {
      worker.pending = { id: job.id, settle };
      this.ref(worker);
      worker.child.send(job);
    });
    worker.pending = null;
    if (result instanceof Error) throw result;
    this.release(worker, result.rss);
    if ('error' in result) throw result.error.invalidImage ? new ApplicationError(result.error.message) : new Error(result.error.message);
    const formats = new Map(result.image.formats as [string, ImageOutput][]);
    return { ...result.image, formats };
  }

  /** Ends every worker. */
  close(): void {
    this.closed = true;
    for (const worker of this.all) worker.child.kill();
    this.all.clear();
    this.idle.length = 0;
  }

  private start(): Worker {
    const child = fork(WORKER_PATH, [], { env: { MALLOC_ARENA_MAX: '2', ...process.env }, execArgv: [], serialization: 'json', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const worker: Worker = { child, pending: null };
    this.all.add(worker);
    child.on('message', (result: ImageJobResult) => {
      if (worker.pending?.id === result.id) worker.pending.settle(result);
    });
    child.on('exit', (code, signal) => {
      this.forget(worker);
      worker.pending?.settle(new ApplicationError(`File is not a valid image: processing it stopped (${signal ?? `exit ${code}`})`));
    });
    child.on('error', () => undefined);
    return worker;
  }

  /** Back to the idle workers, or replaced when it holds too much memory. */
  private release(worker: Worker, rss: number): void {
    if (this.closed || rss > RECYCLE_RSS_BYTES || !this.all.has(worker)) {
      this.forget(worker);
      worker.child.kill();
      return;
    }
    this.unref(worker);
    this.idle.push(worker);
  }

  private forget(worker: Worker): void {
    this.all.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
  }

  /** A worker with a job keeps the host process alive until it answers. */
  private ref(worker: Worker): void {
    worker.child.ref();
    (worker.child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  private unref(worker: Worker): void {
    worker.child.unref();
    (worker.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}
