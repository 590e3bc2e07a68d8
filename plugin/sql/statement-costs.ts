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
 */

/** A statement whose recent runs all took longer than this (ms) is heavy. */
export const HEAVY_STATEMENT_MS = 20;

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
