/**
 * Lists' totals kept under their count: the count's text, and the values of the parameters it
 * reads (a filter's value, a row rule's `$user.id`). Each engine keeps a total with what proves it
 * still holds — SQLite's data version (sqlite-known-totals.ts), MariaDB's table versions
 * (mysql-known-totals.ts) — and checks that itself.
 *
 * Bounded: past MAX_COUNTS counts or MAX_TOTALS totals, both start afresh (an application's lists
 * are few, but strangers choose their filters). A count's text is kept once, with a number that
 * stands for it in its totals' keys.
 */
const MAX_COUNTS = 200;
const MAX_TOTALS = 2000;

interface Count {
  readonly id: number;
  /** The names of the parameters the count reads, as `pattern` captures them. */
  readonly parameters: readonly string[];
}

export class TotalsByCount<Known> {
  private readonly totals = new Map<string, Known>();
  private readonly counts = new Map<string, Count>();
  private nextCount = 0;

  /** `pattern`: a global pattern whose first group names a parameter in a count's text. */
  constructor(private readonly pattern: RegExp) {}

  /** What a list's total is kept under: `count`'s text and the values (`valueOf` a parameter's name) it reads. */
  key(count: string, valueOf: (name: string) => unknown): string {
    let known = this.counts.get(count);
    if (!known) {
      if (this.counts.size >= MAX_COUNTS) this.clear();
      known = { id: this.nextCount++, parameters: [...new Set(Array.from(count.matchAll(this.pattern), (match) => match[1]!))] };
      this.counts.set(count, known);
    }
    return `${known.id}\u0000${known.parameters.map((name) => valueKey(valueOf(name))).join('\u0001')}`;
  }

  get(key: string): Known | undefined {
    return this.totals.get(key);
  }

  delete(key: string): void {
    this.totals.delete(key);
  }

  set(key: string, known: Known): void {
    if (this.totals.size >= MAX_TOTALS) this.totals.clear();
    this.totals.set(key, known);
  }

  clear(): void {
    this.counts.clear();
    this.totals.clear();
  }
}

/** A bound value as key text: its type kept apart (1 and '1' differ), bigints and bytes included. */
export function valueKey(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (Buffer.isBuffer(value)) return `x${value.toString('hex')}`;
  return JSON.stringify(value) ?? 'undefined';
}
