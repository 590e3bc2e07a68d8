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
import { TotalsByCount } from './known-totals.js';

interface Pluck {
  get(): unknown;
}

export interface VersionedConnection {
  prepare(sql: string): { pluck(toggle?: boolean): Pluck };
}

/**
 * A connection's view of the database's version: it changes whenever another connection has
 * committed since the last read, never for the connection's own commits. The response cache reads
 * it on the writing connection (cache/sqlite-changes.ts): a change there is a write from elsewhere.
 */
export class DataVersion {
  private readonly dataVersion: Pluck;

  constructor(connection: VersionedConnection) {
    this.dataVersion = connection.prepare('PRAGMA data_version').pluck(true);
  }

  read(): unknown {
    return this.dataVersion.get();
  }
}

export class KnownTotals {
  private readonly totals = new TotalsByCount<{ readonly total: number; readonly version: unknown }>(/@(p\d+)\b/g);
  private readonly dataVersion: DataVersion;

  constructor(connection: VersionedConnection) {
    this.dataVersion = new DataVersion(connection);
  }

  version(): unknown {
    return this.dataVersion.read();
  }

  /** What a list's total is kept under: its count's text and the values of the parameters it reads. */
  key(given: GivenTotal, bindings: Readonly<Record<string, unknown>>): string {
    return this.totals.key(given.count, (name) => bindings[name]);
  }

  /** The total kept under `key`, with the data version it was counted at: valid only while that version holds (the caller checks). */
  known(key: string): { readonly total: number; readonly version: unknown } | undefined {
    return this.totals.get(key);
  }

  forget(key: string): void {
    this.totals.delete(key);
  }

  keep(key: string, total: number, version: unknown): void {
    this.totals.set(key, { total, version });
  }
}
