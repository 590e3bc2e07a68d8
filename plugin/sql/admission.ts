/**
 * Admission control: at most `limit` statements run at once, and at most `heavyLimit` heavy ones
 * (statement-costs.ts), so that light statements always find a free slot beside a flood of heavy
 * ones. The others wait in a bounded queue, first come first served within what may run: a light
 * statement is not held behind heavy ones that wait for a heavy slot. A request that finds the
 * queue full, or that would wait past its deadline (estimated from its place in the queue and the
 * recent statement times), is answered 503 with Retry-After at once, instead of piling up work
 * nobody will wait for.
 *
 * Heavy slots are shared per caller (an API token, an end user, or an address: access/caller.ts).
 * A freed heavy slot goes to the waiting caller that holds the fewest heavy slots, and among
 * those to the one whose last turn is the oldest; each caller's own requests keep their order.
 * So while several callers wait, each holds about heavyLimit ÷ callers slots, and a caller that
 * floods heavy requests waits behind the others' turns instead of holding every slot: its
 * requests reach their deadline estimate (or their deadline) and get the 503, not the others'.
 * Waiting behind the others was chosen over refusing a caller at its share outright: a slot
 * never stays idle while anyone waits, and a caller alone (every in-process test, one address)
 * still gets every heavy slot. The queue's places are shared the same way: when it is full, a
 * newcomer takes the place of the newest waiter of the caller with the most waiters, if that is
 * another caller with more waiters than the newcomer's. Light statements take no part in the
 * turns and are never refused to make room for someone else.
 */
import { ServiceUnavailableError } from '../errors.js';

interface Waiter {
  readonly deadline: number;
  readonly heavy: boolean;
  readonly caller: string;
  admit(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** A caller holding or waiting for heavy slots. */
interface HeavyCaller {
  holding: number;
  waiting: number;
  /** When it last got a heavy slot (a count of turns given, 0: never). */
  lastTurn: number;
}

/** Weight of the newest statement time in the running average. */
const SMOOTHING = 0.2;

/** The caller of statements that name none: they share one set of turns. */
export const UNNAMED_CALLER = '';

export class AdmissionQueue {
  private active = 0;
  private heavyActive = 0;
  private readonly waiting: Waiter[] = [];
  /** Callers holding or waiting for heavy slots; a caller with neither is forgotten. */
  private readonly heavyCallers = new Map<string, HeavyCaller>();
  private turns = 0;
  /** Recent statement time, smoothed (ms). */
  private averageMs = 5;

  constructor(
    readonly limit: number,
    readonly maxQueue: number,
    /** Heavy statements running at once (default: all but one slot). */
    readonly heavyLimit = Math.max(1, limit - 1),
  ) {}

  /** Waits for a turn; returns the function that gives it back (call it once, when the statement is done). */
  acquire(deadline: number, heavy = false, caller = UNNAMED_CALLER): Promise<() => void> {
    if (this.mayRun(heavy) && !this.waiting.some((waiter) => waiter.heavy === heavy)) {
      this.start(heavy, caller);
      return Promise.resolve(this.releaser(heavy, caller));
    }
    const wait = this.estimatedWaitMs(heavy ? this.heavyPosition(caller) : this.lightPosition());
    const busy = (message: string) => new ServiceUnavailableError(message, Math.max(1, Math.ceil(wait / 1000)));
    if (Date.now() + wait > deadline) return Promise.reject(busy('The server is busy; retry later'));
    if (this.waiting.length >= this.maxQueue && !this.makeRoomFor(caller)) return Promise.reject(busy('The server is busy; retry later'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        deadline,
        heavy,
        caller,
        admit: () => resolve(this.releaser(heavy, caller)),
        reject,
        timer: setTimeout(() => {
          this.remove(waiter);
          reject(new ServiceUnavailableError('The request did not complete in time', 1));
        }, Math.max(0, deadline - Date.now())),
      };
      this.waiting.push(waiter);
      if (heavy) this.heavyCaller(caller).waiting += 1;
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

  /** A light newcomer's place: heavy waiters never hold it back. */
  private lightPosition(): number {
    return this.waiting.filter((waiter) => !waiter.heavy).length + 1;
  }

  /**
   * A heavy newcomer's place, turns taken in rounds: behind its caller's own waiters, and behind
   * as many of each other caller's as its caller has before it (and one more).
   */
  private heavyPosition(caller: string): number {
    const own = this.heavyCallers.get(caller)?.waiting ?? 0;
    let position = own + 1;
    for (const [other, state] of this.heavyCallers) if (other !== caller) position += Math.min(state.waiting, own + 1);
    return position;
  }

  /**
   * The queue is full: the newest waiter of the caller with the most waiters gives its place to
   * `caller`'s newcomer (503 with Retry-After), when that is another caller with more waiters.
   */
  private makeRoomFor(caller: string): boolean {
    const counts = new Map<string, number>();
    for (const waiter of this.waiting) counts.set(waiter.caller, (counts.get(waiter.caller) ?? 0) + 1);
    let largest: string | null = null;
    for (const [other, count] of counts) if (largest === null || count > counts.get(largest)!) largest = other;
    if (largest === null || largest === caller || counts.get(largest)! <= (counts.get(caller) ?? 0) + 1) return false;
    const index = this.waiting.findLastIndex((waiter) => waiter.caller === largest);
    const evicted = this.waiting[index]!;
    this.remove(evicted);
    clearTimeout(evicted.timer);
    evicted.reject(new ServiceUnavailableError('The server is busy; retry later', Math.max(1, Math.ceil(this.estimatedWaitMs(counts.get(largest)!) / 1000))));
    return true;
  }

  private mayRun(heavy: boolean): boolean {
    return this.active < this.limit && (!heavy || this.heavyActive < this.heavyLimit);
  }

  private heavyCaller(caller: string): HeavyCaller {
    let state = this.heavyCallers.get(caller);
    if (!state) this.heavyCallers.set(caller, (state = { holding: 0, waiting: 0, lastTurn: 0 }));
    return state;
  }

  private forgetIdle(caller: string): void {
    const state = this.heavyCallers.get(caller);
    if (state && state.holding === 0 && state.waiting === 0) this.heavyCallers.delete(caller);
  }

  private start(heavy: boolean, caller: string): void {
    this.active += 1;
    if (!heavy) return;
    this.heavyActive += 1;
    const state = this.heavyCaller(caller);
    state.holding += 1;
    state.lastTurn = ++this.turns;
  }

  private remove(waiter: Waiter): void {
    const index = this.waiting.indexOf(waiter);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    if (!waiter.heavy) return;
    this.heavyCaller(waiter.caller).waiting -= 1;
    this.forgetIdle(waiter.caller);
  }

  private releaser(heavy: boolean, caller: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      if (heavy) {
        this.heavyActive -= 1;
        this.heavyCaller(caller).holding -= 1;
        this.forgetIdle(caller);
      }
      this.admitWaiters();
    };
  }

  /**
   * Starts the first waiters that may run now, in their order of arrival; a heavy slot goes to the
   * heavy waiter whose turn it is (nextHeavy), which may have arrived after the first one.
   */
  private admitWaiters(): void {
    for (let index = 0; index < this.waiting.length && this.active < this.limit; ) {
      const first = this.waiting[index]!;
      if (!this.mayRun(first.heavy)) {
        index += 1;
        continue;
      }
      const waiter = first.heavy ? this.nextHeavy() : first;
      this.remove(waiter);
      clearTimeout(waiter.timer);
      this.start(waiter.heavy, waiter.caller);
      waiter.admit();
    }
  }

  /** The oldest heavy waiter of the caller holding the fewest heavy slots, the longest since its last turn. */
  private nextHeavy(): Waiter {
    let best: Waiter | null = null;
    let bestState: HeavyCaller | null = null;
    for (const waiter of this.waiting) {
      if (!waiter.heavy) continue;
      const state = this.heavyCallers.get(waiter.caller)!;
      if (!bestState || state.holding < bestState.holding || (state.holding === bestState.holding && state.lastTurn < bestState.lastTurn)) {
        best = waiter;
        bestState = state;
      }
    }
    return best!;
  }
}
