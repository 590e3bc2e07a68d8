/**
 * How long each statement shape takes, to tell heavy statements from light ones before they run.
 * Admission (admission.ts) keeps a slot that heavy statements may not take, so a client sending
 * nothing but the heaviest queries it can type cannot make every other request wait behind them.
 *
 * A shape's cost is the fastest of its recent runs: when the machine is busy every statement takes
 * longer than it costs, and a light statement slowed down by its neighbours must not be taken for
 * a heavy one (it would then queue behind the very statements that slowed it). A shape never seen
 * is taken for heavy until it has run once, unless its estimate (estimate.ts, from the data's
 * figures) says it is small: a stranger cannot get a new expensive shape into the light lane by
 * writing it differently, and a light request of a new shape does not wait behind heavy ones.
 * On SQLite, a shape whose recent runs were all tiny may also skip the worker's round trip.
 */

/** A statement whose recent runs all took longer than this (ms) is heavy. */
export const HEAVY_STATEMENT_MS = 20;

/**
 * A statement whose recent runs all took at most this long (ms) may run on the event loop
 * (sqlite-executor.ts) when its request's estimate is tiny too.
 */
export const TINY_STATEMENT_MS = 0.2;

/**
 * A run on the event loop this long (ms) sends its shape to the workers for good: the same
 * statement text may read far more for another id or caller, and the event loop cannot stop it.
 */
const STALLED_EVENT_LOOP_MS = 10 * TINY_STATEMENT_MS;

/** Runs remembered per shape. */
const WINDOW = 8;

/** Shapes remembered; past it, the memory starts afresh (shapes are few in practice, but strangers choose them). */
const MAX_SHAPES = 5000;

export class StatementCosts {
  private readonly runs = new Map<string, number[]>();
  /** Shapes that once held the event loop too long. */
  private readonly stalled = new Set<string>();

  isHeavy(sql: string, estimatedLight = false): boolean {
    const recent = this.runs.get(sql);
    return recent === undefined ? !estimatedLight : Math.min(...recent) > HEAVY_STATEMENT_MS;
  }

  /** Whether the shape may run on the event loop: never stalled it, and each recent run (if any) was tiny. */
  isTiny(sql: string): boolean {
    if (this.stalled.has(sql)) return false;
    const recent = this.runs.get(sql);
    return recent === undefined || Math.max(...recent) <= TINY_STATEMENT_MS;
  }

  record(sql: string, milliseconds: number, onEventLoop = false): void {
    if (onEventLoop && milliseconds > STALLED_EVENT_LOOP_MS) {
      if (this.stalled.size >= MAX_SHAPES) this.stalled.clear();
      this.stalled.add(sql);
    }
    let recent = this.runs.get(sql);
    if (!recent) {
      if (this.runs.size >= MAX_SHAPES) this.runs.clear();
      this.runs.set(sql, (recent = []));
    }
    recent.push(milliseconds);
    if (recent.length > WINDOW) recent.shift();
  }
}
