/**
 * SQLite reads off the event loop: a few worker threads, each with its own connection, one
 * statement at a time per worker. A long statement no longer stalls the requests beside it.
 *
 * A statement still running at its deadline is answered 503 at once and cancelled: the pool sets
 * a flag it shares with the worker, and the statement throws at its next checkpoint (one per
 * built entry; sqlite-worker.ts). Its worker takes new work once the statement has given up.
 * Threads are stopped only when idle (at close, or after failing to start): a thread stopped
 * while SQLite runs aborts the whole process if SQLite then returns an error.
 *
 * Only the first workers start with the pool: the light statements' worker and one that takes
 * heavy ones. Each further worker starts when a statement finds all the started ones it may use
 * busy, and then stays: a worker costs its own V8 heap and page cache (about 12 MB idle), and a
 * server that never runs statements side by side never pays for them.
 */
import { Worker } from 'node:worker_threads';
import { ServiceUnavailableError } from '../errors.js';
import { CANCELLED } from '../storage/sql-functions.js';
import { receivedBody, slabFlags } from './body-slabs.js';
import type { Statement } from './compile.js';
import type { BuiltBody } from './sqlite-statements.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './sqlite-worker.js';
import { HEAVY_WORKER_NICE } from './thread-priority.js';

export interface PooledResult<T> {
  readonly value: T;
  /** Time the statement ran in its worker. */
  readonly milliseconds: number;
}

type Answered = WorkerResponse & { readonly ok: true };

interface Answer {
  readonly response: Answered;
  /** The answering worker's slab flags, for a body it lent. */
  readonly lent: Int32Array;
}

interface Job {
  readonly request: WorkerRequest;
  readonly deadline: number;
  /** A heavy statement (statement-costs.ts): it runs only on the lowered-priority workers. */
  readonly heavy: boolean;
  resolve(answer: Answer): void;
  reject(error: Error): void;
}

interface Slot {
  /** The last worker of a pool of several runs light statements only, at the normal priority; the others run any, at a lower one. */
  readonly lightOnly: boolean;
  /** Started with the pool or when a job first needs it, so a worker that cannot open the database is not restarted in a loop. */
  worker: Worker | null;
  /** Whether the worker has opened the database. */
  ready: boolean;
  /** Shared with the worker: nonzero while its statement is cancelled. */
  readonly cancel: Int32Array;
  /** Shared with the running worker: which of its body slabs are lent (a new set for each worker started). */
  lent: Int32Array;
  /** The statement the worker runs, if any (also after its caller was answered 503). */
  runningId: number | null;
  /** Who waits for the running statement's answer: null once the deadline answered them. */
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** Settles when the worker has no statement (for close). */
  idle: (() => void) | null;
  /** Settles once the worker has opened the database, or failed to: it is not stopped while it opens. */
  opened: Promise<void>;
}

const WORKER_URL = new URL('./sqlite-worker.js', import.meta.url);

/**
 * A read worker's young generation (MB). Its JavaScript is a loop around SQLite, and its heap is
 * mostly the young generation V8 grows under a stream of statements: 16–27 MB per worker at the
 * peak of bench:memory, 10–12.5 MB with this bound (all three workers: about 25 MB less),
 * requests/s within the run-to-run noise.
 */
const WORKER_YOUNG_GENERATION_MB = 2;

export class SqlitePool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Whether one worker is kept for light statements (pools of two or more). */
  private readonly hasLightOnly: boolean;
  /** Settles when every worker started with the pool has opened the database, or one of them could not. */
  readonly ready: Promise<void>;

  constructor(
    private readonly filename: string,
    size: number,
  ) {
    this.hasLightOnly = size > 1;
    for (let index = 0; index < size; index += 1) {
      const lightOnly = this.hasLightOnly && index === size - 1;
      const slot: Slot = { lightOnly, worker: null, ready: false, cancel: new Int32Array(new SharedArrayBuffer(4)), lent: slabFlags(), runningId: null, job: null, timer: null, idle: null, opened: Promise.resolve() };
      this.slots.push(index === 0 || lightOnly ? this.start(slot) : slot);
    }
    this.ready = Promise.all(this.slots.filter((slot) => slot.worker).map((slot) => readiness(slot.worker!))).then(() => undefined);
    // A caller that never awaits readiness must not see an unhandled rejection: jobs report their own errors.
    this.ready.catch(() => undefined);
  }

  /** How many statements can run at once. */
  get size(): number {
    return this.slots.length;
  }

  async column(sql: string, values: readonly unknown[], deadline: number, heavy = false): Promise<PooledResult<unknown[]>> {
    const { response } = await this.run({ id: this.nextId++, mode: 'column', sql, values, deadline, maxBytes: Infinity }, deadline, heavy);
    return { value: response.column ?? [], milliseconds: response.milliseconds };
  }

  /** A body statement's body (compile-body.ts); above `maxBytes`, only its size. */
  async body(statement: Statement, deadline: number, maxBytes: number, heavy = false): Promise<PooledResult<BuiltBody>> {
    const { sql, values, givenTotal } = statement;
    const { response, lent } = await this.run({ id: this.nextId++, mode: 'body', sql, values, deadline, maxBytes, ...(givenTotal ? { givenTotal } : {}) }, deadline, heavy);
    return { value: receivedBody(response, lent), milliseconds: response.milliseconds };
  }

  /** Large bodies the event loop has not given back yet. */
  lentBodies(): number {
    return this.slots.reduce((count, slot) => count + slot.lent.reduce((lent, flag) => lent + (flag ? 1 : 0), 0), 0);
  }

  /** Refuses what waits, cancels what runs, and stops each thread once it is idle. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new ServiceUnavailableError());
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.runningId !== null) {
          const idle = new Promise<void>((resolve) => (slot.idle = resolve));
          this.cancel(slot);
          await idle;
        }
        // A thread stopped while SQLite throws in it (opening a locked or broken file) aborts the
        // whole process in better-sqlite3's native code: it is let finish opening first.
        if (slot.worker && !slot.ready) await Promise.race([slot.opened, delay(OPENING_GRACE_MS)]);
        await slot.worker?.terminate();
        slot.worker = null;
      }),
    );
  }

  private run(request: WorkerRequest, deadline: number, heavy: boolean): Promise<Answer> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError());
    return new Promise((resolve, reject) => {
      const job: Job = { request, deadline, heavy, resolve, reject };
      this.waiting.push(job);
      this.dispatch();
      // Workers still finishing cancelled statements may keep a job waiting: it is refused at its deadline.
      if (this.waiting.includes(job)) {
        setTimeout(() => {
          const index = this.waiting.indexOf(job);
          if (index < 0) return;
          this.waiting.splice(index, 1);
          reject(timedOut());
        }, Math.max(0, deadline - Date.now())).unref();
      }
    });
  }

  /** Starts waiting jobs on idle workers that may take them, in order; a job whose deadline passed while it waited is refused. */
  private dispatch(): void {
    if (this.closed) return;
    for (let index = 0; index < this.waiting.length; ) {
      const job = this.waiting[index]!;
      const remaining = job.deadline - Date.now();
      const slot = remaining > 0 ? this.idleSlotFor(job) : null;
      if (remaining > 0 && !slot) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      if (!slot) {
        job.reject(timedOut());
        continue;
      }
      Atomics.store(slot.cancel, 0, 0);
      slot.runningId = job.request.id;
      slot.job = job;
      slot.timer = setTimeout(() => this.expire(slot), remaining);
      (slot.worker ?? this.start(slot).worker!).postMessage(job.request);
    }
  }

  /**
   * An idle worker for `job`: a heavy job never takes the light-only worker, a light one prefers
   * it; warm workers first, then one starting, then one not started yet (a worker takes a moment
   * to open the database).
   */
  private idleSlotFor(job: Job): Slot | null {
    const rank = (slot: Slot) => (slot.ready ? 4 : slot.worker ? 2 : 0) + (slot.lightOnly ? 1 : 0);
    let best: Slot | null = null;
    for (const slot of this.slots) {
      if (slot.runningId !== null || (job.heavy && slot.lightOnly)) continue;
      if (!best || rank(slot) > rank(best)) best = slot;
    }
    return best;
  }

  private start(slot: Slot): Slot {
    // A new worker has new slabs: bodies the last one lent are given back to flags nobody reads.
    slot.lent = slabFlags();
    const setup: WorkerSetup = {
      filename: this.filename,
      cancel: slot.cancel.buffer as SharedArrayBuffer,
      nice: slot.lightOnly || !this.hasLightOnly ? 0 : HEAVY_WORKER_NICE,
      lent: slot.lent.buffer as SharedArrayBuffer,
    };
    const worker = new Worker(WORKER_URL, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    slot.opened = readiness(worker).catch(() => undefined);
    worker.on('message', (response: WorkerResponse | 'ready') => (response === 'ready' ? (slot.ready = true) : this.settle(slot, response)));
    worker.on('error', (error) => this.lose(slot, worker, workerError(error)));
    worker.unref();
    slot.worker = worker;
    return slot;
  }

  private settle(slot: Slot, response: WorkerResponse): void {
    const job = slot.runningId === response.id ? slot.job : null;
    // Nobody waits for this body any more (its deadline answered them): its slab is free again.
    if (!job && response.ok && response.lent) Atomics.store(slot.lent, response.lent.index, 0);
    if (slot.runningId !== response.id) return;
    this.finish(slot);
    if (job) {
      if (response.ok) job.resolve({ response, lent: slot.lent });
      else if (response.code === CANCELLED) job.reject(timedOut());
      else job.reject(Object.assign(new Error(response.message), { code: response.code }));
    }
    this.dispatch();
  }

  /** The deadline passed: the caller is answered 503 now, and the statement is told to give up. */
  private expire(slot: Slot): void {
    const job = slot.job;
    slot.job = null;
    slot.timer = null;
    job?.reject(timedOut());
    this.cancel(slot);
  }

  private cancel(slot: Slot): void {
    Atomics.store(slot.cancel, 0, 1);
    // Wakes a worker pausing for another connection's lock.
    Atomics.notify(slot.cancel, 0);
  }

  /** The thread failed (it could not open the database, or crashed): its job fails, and the next job starts another. */
  private lose(slot: Slot, worker: Worker, error: Error): void {
    if (slot.worker !== worker) return;
    const job = slot.job;
    this.finish(slot);
    slot.worker = null;
    slot.ready = false;
    job?.reject(error);
    this.dispatch();
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.runningId = null;
    slot.idle?.();
    slot.idle = null;
  }
}

/**
 * What a worker thread failed with, as an Error: an error of a class the main thread does not know
 * (better-sqlite3's SqliteError) crosses the thread boundary as a plain object holding its code.
 */
function workerError(error: unknown): Error {
  if (error instanceof Error) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const reason = typeof message === 'string' ? message : typeof code === 'string' ? code : 'no reason given';
  return Object.assign(new Error(`the SQLite read worker failed: ${reason}`), typeof code === 'string' ? { code } : {});
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
    worker.once('error', (error) => reject(workerError(error)));
    worker.once('exit', (code) => reject(new Error(`the SQLite read worker exited (${code}) before opening the database`)));
  });
}

/** How long closing waits for a worker still opening the database (its open waits for a lock up to 5 s). */
const OPENING_GRACE_MS = 6_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function timedOut(): ServiceUnavailableError {
  return new ServiceUnavailableError('The request did not complete in time', 1);
}
