/**
 * SQLite reads off the event loop: a few worker threads, each with its own connection, one
 * statement at a time per worker. A long statement no longer stalls the requests beside it, and a
 * statement still running at its deadline is stopped by terminating its worker, which is replaced
 * at once: better-sqlite3 cannot interrupt a statement, and a stopped thread frees its connection.
 */
import { Worker } from 'node:worker_threads';
import { ServiceUnavailableError } from '../errors.js';
import type { JoinedRows } from './sqlite-statements.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './sqlite-worker.js';

export interface PooledResult<T> {
  readonly value: T;
  /** Time the statement ran in its worker. */
  readonly milliseconds: number;
}

interface Job {
  readonly request: WorkerRequest;
  readonly deadline: number;
  resolve(response: WorkerResponse & { ok: true }): void;
  reject(error: Error): void;
}

interface Slot {
  /** Started when a job needs it, so a worker that cannot open the database is not restarted in a loop. */
  worker: Worker | null;
  /** Whether the worker has opened the database. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const WORKER_URL = new URL('./sqlite-worker.js', import.meta.url);

export class SqlitePool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Settles when every first worker has opened the database, or one of them could not. */
  readonly ready: Promise<void>;

  constructor(
    private readonly setup: WorkerSetup,
    size: number,
  ) {
    for (let index = 0; index < size; index += 1) this.slots.push(this.start({ worker: null, ready: false, job: null, timer: null }));
    this.ready = Promise.all(this.slots.map((slot) => readiness(slot.worker!))).then(() => undefined);
    // A caller that never awaits readiness must not see an unhandled rejection: jobs report their own errors.
    this.ready.catch(() => undefined);
  }

  /** How many statements can run at once. */
  get size(): number {
    return this.slots.length;
  }

  async column(sql: string, values: readonly unknown[], deadline: number): Promise<PooledResult<unknown[]>> {
    const response = await this.run({ id: this.nextId++, mode: 'column', sql, values, deadline, maxBytes: Infinity }, deadline);
    return { value: response.column ?? [], milliseconds: response.milliseconds };
  }

  async joined(sql: string, values: readonly unknown[], deadline: number, maxBytes: number): Promise<PooledResult<JoinedRows>> {
    const response = await this.run({ id: this.nextId++, mode: 'joined', sql, values, deadline, maxBytes }, deadline);
    // Transferred from the worker: a Uint8Array over the moved ArrayBuffer.
    const bytes = Buffer.from(response.bytes!.buffer, response.bytes!.byteOffset, response.bytes!.byteLength);
    return { value: { bytes, rows: response.rows ?? 0, size: response.size ?? bytes.length }, milliseconds: response.milliseconds };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new ServiceUnavailableError());
    await Promise.all(this.slots.map((slot) => slot.worker?.terminate()));
  }

  private run(request: WorkerRequest, deadline: number): Promise<WorkerResponse & { ok: true }> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError());
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, deadline, resolve, reject });
      this.dispatch();
    });
  }

  /** Starts waiting jobs on idle workers; a job whose deadline passed while it waited is refused. */
  private dispatch(): void {
    // Warm workers first: a worker started after a timeout takes a moment to open the database.
    const idle = this.slots.filter((slot) => !slot.job).sort((a, b) => Number(b.ready) - Number(a.ready));
    for (const slot of idle) {
      const job = this.waiting.shift();
      if (!job) return;
      const remaining = job.deadline - Date.now();
      if (remaining <= 0) {
        job.reject(timedOut());
        continue;
      }
      slot.job = job;
      slot.timer = setTimeout(() => this.expire(slot), remaining);
      (slot.worker ?? this.start(slot).worker!).postMessage(job.request);
    }
  }

  private start(slot: Slot): Slot {
    const worker = new Worker(WORKER_URL, { workerData: this.setup });
    worker.on('message', (response: WorkerResponse | 'ready') => (response === 'ready' ? (slot.ready = true) : this.settle(slot, response)));
    worker.on('error', (error) => this.replace(slot, error));
    worker.unref();
    slot.worker = worker;
    return slot;
  }

  private settle(slot: Slot, response: WorkerResponse): void {
    const job = slot.job;
    if (!job || job.request.id !== response.id) return;
    this.finish(slot);
    if (response.ok) job.resolve(response);
    else job.reject(Object.assign(new Error(response.message), { code: response.code }));
    this.dispatch();
  }

  /** The statement ran past its deadline: stop its thread, start another, and answer 503. */
  private expire(slot: Slot): void {
    if (!slot.job) return;
    this.replace(slot, timedOut());
    if (!this.closed && !slot.worker) this.start(slot);
  }

  /** Stops the slot's worker (a new one starts when the next job needs it) and fails its job. */
  private replace(slot: Slot, error: Error): void {
    const job = slot.job;
    this.finish(slot);
    const old = slot.worker;
    slot.worker = null;
    slot.ready = false;
    if (old) {
      old.removeAllListeners('message');
      old.removeAllListeners('error');
      // An 'error' listener stays: a thread that fails while terminating must not crash the process.
      old.on('error', () => undefined);
      void old.terminate();
    }
    job?.reject(error);
    if (!this.closed) this.dispatch();
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }
}

/** Resolves on the worker's 'ready' message; rejects if it fails or exits first. */
function readiness(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (message !== 'ready') return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the SQLite read worker exited (${code}) before opening the database`)));
  });
}

function timedOut(): ServiceUnavailableError {
  return new ServiceUnavailableError('The request did not complete in time', 1);
}
