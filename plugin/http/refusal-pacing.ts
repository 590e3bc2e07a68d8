/**
 * Pacing of the refusals for cost, per caller. The response budget's 400 (a body estimated or
 * found far too large) is decided in tens of microseconds, but a client that sends nothing else,
 * on several connections at once, gets one back as fast as it can ask: thousands a second, enough
 * to keep the event loop busy and slow every other request. Past a burst, a caller's refusals are
 * answered at a steady rate: each one is held (a timer, no work) until its turn, so a client that
 * waits for its answers before asking again cannot go faster. Nothing else of that caller waits.
 *
 * The rate is kept as a generic cell rate (one "due" time per caller, as a token bucket would):
 * each refusal moves the caller's due time one interval later; a refusal that finds it more than
 * a burst ahead of now is held by the difference, never longer than MAX_HOLD_MS.
 */

/** Refusals per caller and second once past the burst. */
const REFUSALS_PER_SECOND = 500;
/** Refusals a caller gets at once, before any is held. */
const BURST = 100;
/** The longest a refusal is held (ms): a caller on many connections gets more per second, each held this long. */
const MAX_HOLD_MS = 1000;
/** Callers remembered at most; beyond, the ones whose burst is whole again are forgotten first. */
const MAX_CALLERS = 10_000;

export class RefusalPacer {
  private readonly due = new Map<string, number>();
  private readonly interval: number;

  constructor(
    perSecond = REFUSALS_PER_SECOND,
    private readonly burst = BURST,
    private readonly maxCallers = MAX_CALLERS,
  ) {
    this.interval = 1000 / perSecond;
  }

  /** Counts one refusal of `caller` at `now` (ms); answers how long to hold it (ms, 0 for at once). */
  hold(caller: string, now: number): number {
    const ahead = this.burst * this.interval;
    const due = Math.min(Math.max(this.due.get(caller) ?? now, now) + this.interval, now + ahead + MAX_HOLD_MS);
    // Deleted and set again: the map's order is then the order of last refusals, oldest first.
    this.due.delete(caller);
    this.makeRoom(now);
    this.due.set(caller, due);
    return Math.max(0, due - now - ahead);
  }

  /** Waits out `caller`'s hold for one more refusal. */
  async pace(caller: string): Promise<void> {
    const milliseconds = this.hold(caller, Date.now());
    if (milliseconds > 0) await new Promise((resolve) => setTimeout(resolve, milliseconds));
  }

  get size(): number {
    return this.due.size;
  }

  private makeRoom(now: number): void {
    if (this.due.size < this.maxCallers) return;
    // A due time already past is a caller whose burst is whole: forgetting it changes nothing.
    for (const [caller, due] of this.due) if (due <= now) this.due.delete(caller);
    while (this.due.size >= this.maxCallers) this.due.delete(this.due.keys().next().value as string);
  }
}
