/**
 * Admission control: at most `limit` statements run at once, and at most `heavyLimit` heavy ones
 * (statement-costs.ts), so that light statements always find a free slot beside a flood of heavy
 * ones. The others wait in a bounded queue, first come first served within what may run: a light
 * statement is not held behind heavy ones that wait for a heavy slot. A request that finds the
 * queue full, or that would wait past its deadline (estimated from its place in the queue and the
 * recent statement times), is answered 503 with Retry-After at once, instead of piling up work
 * nobody will wait for.
 */
import { ServiceUnavailableError } from '../errors.js';

interface Waiter {
  readonly deadline: number;
  readonly heavy: boolean;
  admit(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** Weight of the newest statement time in the running average. */
const SMOOTHING = 0.2;

export class AdmissionQueue {
  private active = 0;
  private heavyActive = 0;
  private readonly waiting: Waiter[] = [];
  /** Recent statement time, smoothed (ms). */
  private averageMs = 5;

  constructor(
    readonly limit: number,
    readonly maxQueue: number,
    /** Heavy statements running at once (default: all but one slot). */
    readonly heavyLimit = Math.max(1, limit - 1),
  ) {}

  /** Waits for a turn; returns the function that gives it back (call it once, when the statement is done). */
  acquire(deadline: number, heavy = false): Promise<() => void> {
    if (this.mayRun(heavy) && !this.waiting.some((waiter) => waiter.heavy === heavy)) {
      this.start(heavy);
      return Promise.resolve(this.releaser(heavy));
    }
    const wait = this.estimatedWaitMs(this.waiting.length + 1);
    if (this.waiting.length >= this.maxQueue || Date.now() + wait > deadline) {
      return Promise.reject(new ServiceUnavailableError('The server is busy; retry later', Math.max(1, Math.ceil(wait / 1000))));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        deadline,
        heavy,
        admit: () => resolve(this.releaser(heavy)),
        reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new ServiceUnavailableError('The request did not complete in time', 1));
        }, Math.max(0, deadline - Date.now())),
      };
      this.waiting.push(waiter);
    });
  }

  /** Feeds the wait estimate. */
  record(milliseconds: number): void {
    this.averageMs += SMOOTHING * (milliseconds - this.averageMs);
  }

  /** How long the `position`-th waiter is expected to wait. */
  private estimatedWaitMs(position: number): number {
    return Math.ceil(position / this.limit) * this.averageMs;
  }

  private mayRun(heavy: boolean): boolean {
    return this.active < this.limit && (!heavy || this.heavyActive < this.heavyLimit);
  }

  private start(heavy: boolean): void {
    this.active += 1;
    if (heavy) this.heavyActive += 1;
  }

  private releaser(heavy: boolean): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      if (heavy) this.heavyActive -= 1;
      this.admitWaiters();
    };
  }

  /** Starts the first waiters that may run now, in their order of arrival. */
  private admitWaiters(): void {
    for (let index = 0; index < this.waiting.length && this.active < this.limit; ) {
      const waiter = this.waiting[index]!;
      if (!this.mayRun(waiter.heavy)) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      clearTimeout(waiter.timer);
      this.start(waiter.heavy);
      waiter.admit();
    }
  }
}
