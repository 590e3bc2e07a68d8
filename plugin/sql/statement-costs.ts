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
 * On SQLite, a tiny shape (isTiny) may also skip the worker's round trip.
 */

/** A statement whose recent runs all took longer than this (ms) is heavy. */
export const HEAVY_STATEMENT_MS = 20;

/**
 * A shape may run on the event loop (sqlite-executor.ts), when its request's estimate is tiny too,
 * once one of its recent runs took at most this long (ms)…
 */
export const TINY_STATEMENT_MS = 0.2;

/**
 * …and none of them took longer than this (ms): the same statement text may read far more for
 * another id, and nothing stops a statement on the event loop. The shape then goes back to the
 * workers until such a run has left its recent runs.
 */
export const STALLING_STATEMENT_MS = 10 * TINY_STATEMENT_MS;

/** Runs remembered per shape. */
const WINDOW = 8;

/** Shapes remembered; past it, the memory starts afresh (shapes are few in practice, but strangers choose them). */
const MAX_SHAPES = 5000;

export class StatementCosts {
  private readonly runs = new Map<string, number[]>();

  isHeavy(sql: string, estimatedLight = false): boolean {
    const recent = this.runs.get(sql);
    return recent === undefined ? !estimatedLight : Math.min(...recent) > HEAVY_STATEMENT_MS;
  }

  /**
   * Whether the shape may run on the event loop: it has run (its first run prepares it, on a
   * worker), its fastest recent run was tiny and its slowest did not stall. The fastest, because a
   * busy machine slows every run down; the slowest, because an expensive id must not come back.
   */
  isTiny(sql: string): boolean {
    const recent = this.runs.get(sql);
    return recent !== undefined && Math.min(...recent) <= TINY_STATEMENT_MS && Math.max(...recent) <= STALLING_STATEMENT_MS;
  }

  record(sql: string, milliseconds: number): void {
    let recent = this.runs.get(sql);
    if (!recent) {
      if (this.runs.size >= MAX_SHAPES) this.runs.clear();
      this.runs.set(sql, (recent = []));
    }
    recent.push(milliseconds);
    if (recent.length > WINDOW) recent.shift();
  }
}
