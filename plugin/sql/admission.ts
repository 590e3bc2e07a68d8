/**
 * Admission control: at most `limit` statements run at once; the others wait in a bounded FIFO
 * queue. A request that finds the queue full, or that would wait past its deadline (estimated
 * from its place in the queue and the recent statement times), is answered 503 with Retry-After
 * at once, instead of piling up work nobody will wait for.
 */
import { ServiceUnavailableError } from '../errors.js';

interface Waiter {
  readonly deadline: number;
  admit(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** Weight of the newest statement time in the running average. */
const SMOOTHING = 0.2;

export class AdmissionQueue {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  /** Recent statement time, smoothed (ms). */
  private averageMs = 5;

  constructor(
    readonly limit: number,
    readonly maxQueue: number,
  ) {}

  /** Waits for a turn; returns the function that gives it back (call it once, when the statement is done). */
  acquire(deadline: number): Promise<() => void> {
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    const wait = this.estimatedWaitMs(this.waiting.length + 1);
    if (this.waiting.length >= this.maxQueue || Date.now() + wait > deadline) {
      return Promise.reject(new ServiceUnavailableError('The server is busy; retry later', Math.max(1, Math.ceil(wait / 1000))));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        deadline,
        admit: () => resolve(this.releaser()),
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

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (!next) {
        this.active -= 1;
        return;
      }
      clearTimeout(next.timer);
      next.admit();
    };
  }
}
