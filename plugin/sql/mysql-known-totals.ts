/**
 * Lists' totals kept on MariaDB while the tables their count reads are unchanged, where the
 * database has the change triggers (storage/change-triggers.ts): a row per table in
 * `content_api_table_versions`, moved by every row any connection writes, visible when it commits.
 *
 * A list's body statement reads the versions of its count's tables and compares them with the
 * ones a total was kept at (Dialect.versionedTail): equal, it takes the total; otherwise it counts.
 * Either way it hands out, after its tail, the versions it read and the total it used — both of
 * the statement's one snapshot, so a pair kept is always true of some moment of the data, and is
 * used again only at a moment whose versions are the same, that is, with the same rows.
 *
 * MariaDB's TRUNCATE fires no trigger: one run through this process's knex forgets every total
 * (knex's query events), and a read under way across it keeps nothing. A TRUNCATE from elsewhere
 * is not seen (docs/cache.md says the same of the response cache).
 */
import type { Knex } from 'knex';
import type { VersionedTotal } from './compile.js';
import { TotalsByCount } from './known-totals.js';

export interface VersionedPair {
  readonly versions: string;
  readonly total: number;
}

/** The tail piece's bytes after the NUL: `<versions> <total>`. */
export function readVersionedPair(text: string): VersionedPair | null {
  const space = text.lastIndexOf(' ');
  const total = Number(text.slice(space + 1));
  return space > 0 && Number.isSafeInteger(total) ? { versions: text.slice(0, space), total } : null;
}

export class MysqlKnownTotals {
  private readonly totals = new TotalsByCount<VersionedPair>(/\?\/\*p(\d+)\*\//g);
  /** Moves at each TRUNCATE this process runs, before and after it: a read that saw it move keeps nothing. */
  private generation = 0;
  private readonly onQuery = (event: { sql?: unknown }) => {
    if (typeof event.sql === 'string' && /^\s*truncate\b/i.test(event.sql)) this.forgetAll();
  };
  private readonly onAnswer = (_answer: unknown, event: { sql?: unknown }) => this.onQuery(event);

  constructor(private readonly knex: Knex) {
    knex.on('query', this.onQuery);
    knex.on('query-response', this.onAnswer);
    knex.on('query-error', this.onAnswer);
  }

  close(): void {
    this.knex.removeListener('query', this.onQuery);
    this.knex.removeListener('query-response', this.onAnswer);
    this.knex.removeListener('query-error', this.onAnswer);
  }

  /**
   * The values to run `statement` with, the known pair in its place when one is kept, and `keep`,
   * to call with the pair the statement handed out: it answers whether the statement took the
   * known total rather than counting.
   */
  prepare(statement: { readonly values: readonly unknown[]; readonly versionedTotal: VersionedTotal }): { values: unknown[]; keep(pair: VersionedPair | null): boolean } {
    const { values, versionedTotal } = statement;
    const key = this.totals.key(versionedTotal.count, (number) => values[Number(number) - 1]);
    const known = this.totals.get(key);
    const bound = [...values];
    if (known) [bound[versionedTotal.versionsAt], bound[versionedTotal.versionsAt + 1]] = [known.versions, String(known.total)];
    const generation = this.generation;
    return {
      values: bound,
      keep: (pair) => {
        if (pair && generation === this.generation) this.totals.set(key, pair);
        return Boolean(pair && known && pair.versions === known.versions);
      },
    };
  }

  private forgetAll(): void {
    this.generation += 1;
    this.totals.clear();
  }
}
