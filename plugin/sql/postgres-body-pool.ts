/**
 * The PostgreSQL executor's heavy bodies, run by worker threads with connections of their own
 * (postgres-worker.ts): the event loop receives bytes and their ETag, and serves light requests
 * meanwhile. Workers start when a heavy statement first needs one, one statement each at a time;
 * the executor's admission already bounds how many heavy statements run at once. Deadlines are
 * each connection's statement_timeout, as on the executor's own connections.
 */
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type pg from 'pg';
import { connectionSettingsOf, openedByThePlugin } from '../storage/database.js';
import { receivedBody, slabFlags } from './body-slabs.js';
import type { PostgresWorkerRequest, PostgresWorkerResponse, PostgresWorkerSetup } from './postgres-worker.js';
import type { BuiltBody } from './sqlite-statements.js';
import { HEAVY_WORKER_NICE } from './thread-priority.js';

const WORKER_URL = new URL('./postgres-worker.js', import.meta.url);

/** A statement the worker could not run; `lost` when its target was unreachable or dropped the connection. */
export class BodyWorkerFailure extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly lost: boolean,
  ) {
    super(message);
  }
}

const closedFailure = () => new BodyWorkerFailure('the executor is closed', null, false);

interface Job {
  readonly request: PostgresWorkerRequest;
  resolve(result: { body: BuiltBody; milliseconds: number }): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker | null;
  lent: Int32Array;
  job: Job | null;
}

export interface BodyPoolOptions {
  readonly size: number;
  readonly statementTimeout: number;
}

export class PostgresBodyPool {
  private readonly slots: Slot[];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  private constructor(
    private readonly targets: readonly pg.ClientConfig[],
    private readonly options: BodyPoolOptions,
  ) {
    this.slots = Array.from({ length: options.size }, () => ({ worker: null, lent: slabFlags(), job: null }));
  }

  /**
   * A pool for these databases (the primary, then the replicas); null unless the plugin opened
   * them all itself (openDatabase): a host's knex may set up its connections in ways a thread
   * cannot repeat, and its heavy bodies then stay on the event loop.
   */
  static for(databases: readonly Knex[], options: BodyPoolOptions): PostgresBodyPool | null {
    if (!databases.every(openedByThePlugin)) return null;
    // openDatabase's settings: a connection string and a connect timeout, which a thread can be given.
    const targets = databases.map((database) => structuredClone(connectionSettingsOf(database)) as pg.ClientConfig);
    return new PostgresBodyPool(targets, options);
  }

  /** The body of `sql` (wrapped with the budget) run on target number `target` under the prepared statement `name`. */
  body(target: number, sql: string, values: readonly unknown[], name: string): Promise<{ body: BuiltBody; milliseconds: number }> {
    if (this.closed) return Promise.reject(closedFailure());
    return new Promise((resolve, reject) => {
      this.waiting.push({ request: { id: this.nextId++, target, sql, values, name }, resolve, reject });
      this.dispatch();
    });
  }

  /** Refuses what waits, lets each worker finish its statement and close its connections. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(closedFailure());
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker;
        if (!worker) return;
        slot.worker = null;
        slot.job?.reject(closedFailure());
        slot.job = null;
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage('close');
        await exited;
      }),
    );
  }

  private dispatch(): void {
    while (this.waiting.length && !this.closed) {
      const slot = this.slots.find((candidate) => candidate.job === null);
      if (!slot) return;
      const job = this.waiting.shift()!;
      slot.job = job;
      (slot.worker ?? this.start(slot)).postMessage(job.request);
    }
  }

  private start(slot: Slot): Worker {
    // A new worker has new slabs: bodies the last one lent are given back to flags nobody reads.
    slot.lent = slabFlags();
    const setup: PostgresWorkerSetup = {
      targets: this.targets,
      statementTimeout: this.options.statementTimeout,
      nice: HEAVY_WORKER_NICE,
      lent: slot.lent.buffer as SharedArrayBuffer,
    };
    const worker = new Worker(WORKER_URL, { workerData: setup });
    worker.on('message', (response: PostgresWorkerResponse) => this.settle(slot, response));
    worker.on('error', (error) => this.lose(slot, worker, error));
    worker.on('exit', () => this.lose(slot, worker, new Error('the PostgreSQL body worker exited')));
    worker.unref();
    slot.worker = worker;
    return worker;
  }

  private settle(slot: Slot, response: PostgresWorkerResponse): void {
    const job = slot.job;
    slot.job = null;
    if (job?.request.id !== response.id) {
      if (response.ok && response.lent) Atomics.store(slot.lent, response.lent.index, 0);
    } else if (response.ok) {
      job.resolve({ body: receivedBody(response, slot.lent), milliseconds: response.milliseconds });
    } else {
      job.reject(new BodyWorkerFailure(response.message, response.code, response.lost));
    }
    this.dispatch();
  }

  /**
   * The thread failed or stopped: its statement fails as on a lost connection (the executor tries
   * the next target, or answers 503), and the next statement starts another thread.
   */
  private lose(slot: Slot, worker: Worker, error: Error): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const job = slot.job;
    slot.job = null;
    job?.reject(new BodyWorkerFailure(error.message, null, true));
    this.dispatch();
  }
}
