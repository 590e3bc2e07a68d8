/**
 * Lists' totals kept per read connection while the data is unchanged, so that the next page of a
 * list, or the same list again, is built without counting its rows again (a count over 5,500
 * articles is a third of `/api/articles`'s statement). A list's body statement hands its total out
 * (compile-body.ts); its twin takes a known one.
 *
 * A total is known for one version of the database: SQLite's `PRAGMA data_version`, which changes
 * on this connection whenever another connection commits. Read connections never write, so every
 * change comes from another connection: the plugin's writes, a sync, another process. A total is
 * kept under the version read before the statement that counted it, and a statement given it is
 * answered only if the version read after it is still that one: nothing committed from before the
 * count to after the entries were read, so the body and its total come from the same data.
 */
import type { GivenTotal } from './compile.js';

interface Pluck {
  get(): unknown;
}

export interface VersionedConnection {
  prepare(sql: string): { pluck(toggle?: boolean): Pluck };
}

/** Totals kept per connection; past it, they start afresh (lists are few, but strangers choose their filters). */
const MAX_TOTALS = 2000;

export class KnownTotals {
  private readonly totals = new Map<string, { readonly total: number; readonly version: unknown }>();
  /** The numbered parameters (`@p3`) each count reads, by the count's text. */
  private readonly parameters = new Map<string, string[]>();
  private readonly dataVersion: Pluck;

  constructor(connection: VersionedConnection) {
    this.dataVersion = connection.prepare('PRAGMA data_version').pluck(true);
  }

  version(): unknown {
    return this.dataVersion.get();
  }

  /** What a list's total is kept under: its count's text and the values of the parameters it reads. */
  key(given: GivenTotal, bindings: Readonly<Record<string, unknown>>): string {
    let names = this.parameters.get(given.count);
    if (!names) {
      names = [...new Set(Array.from(given.count.matchAll(/@(p\d+)\b/g), (match) => match[1]!))];
      if (this.parameters.size >= MAX_TOTALS) this.parameters.clear();
      this.parameters.set(given.count, names);
    }
    return `${given.count}\u0000${names.map((name) => valueKey(bindings[name])).join('\u0001')}`;
  }

  /** The total kept under `key`, if the data has not changed since it was counted. */
  known(key: string): { readonly total: number; readonly version: unknown } | undefined {
    return this.totals.get(key);
  }

  forget(key: string): void {
    this.totals.delete(key);
  }

  keep(key: string, total: number, version: unknown): void {
    if (this.totals.size >= MAX_TOTALS) this.totals.clear();
    this.totals.set(key, { total, version });
  }
}

/** A bound value as key text: its type kept apart (1 and '1' differ), bigints and bytes included. */
function valueKey(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (Buffer.isBuffer(value)) return `x${value.toString('hex')}`;
  return JSON.stringify(value) ?? 'undefined';
}
