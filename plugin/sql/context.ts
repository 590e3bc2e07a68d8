/**
 * State of one compilation: the dialect, the parameters collected so far, fresh table aliases.
 */
import type { Dialect } from './dialect/dialect.js';

export class CompileContext {
  readonly dialect: Dialect;
  readonly values: unknown[] = [];
  private aliasCount = 0;
  /**
   * The relation hops of the statement's filters (`IN (SELECT …)` sets): those of the listed
   * entries' own conditions that lie in no other hop, and the rest (nested, or in a populate or a
   * sort path). MariaDB plans the first kind better as semi-joins, the rest not (dialect/mysql.ts).
   */
  readonly filterHops = { root: 0, other: 0 };
  private filterDepth = 0;
  private compilingRoot = false;

  constructor(dialect: Dialect) {
    this.dialect = dialect;
  }

  /** Adds a parameter and returns its placeholder. */
  parameter(value: unknown): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  }

  /**
   * A LIMIT or OFFSET count. SQLite reads a bound LIMIT while it plans a statement, and then
   * prepares the statement again each time that parameter is bound — which better-sqlite3 does on
   * every run: a list's statement was parsed and planned anew per request (0.1–0.3 ms measured).
   * Written into the SQL, the count leaves the statement prepared; it is a validated integer, and
   * each page of a query gets a statement of its own. PostgreSQL takes it as a parameter.
   */
  rowCount(count: number): string {
    if (this.dialect.name !== 'sqlite') return this.parameter(count);
    if (!Number.isInteger(count) || count < 0) throw new Error(`not a row count: ${count}`);
    // An offset past 2^53 rows (a huge page number) skips every row all the same.
    return String(Math.min(count, Number.MAX_SAFE_INTEGER));
  }

  /** Compiles the listed entries' own conditions (their filters' hops count as root hops). */
  rootConditions<T>(compile: () => T): T {
    this.compilingRoot = true;
    try {
      return compile();
    } finally {
      this.compilingRoot = false;
    }
  }

  /** Compiles a filter's relation hop, and what lies beyond it, counting the hop. */
  filterHop<T>(compile: () => T): T {
    if (this.compilingRoot && this.filterDepth === 0) this.filterHops.root += 1;
    else this.filterHops.other += 1;
    this.filterDepth += 1;
    try {
      return compile();
    } finally {
      this.filterDepth -= 1;
    }
  }

  /** A table alias not used elsewhere in the statement. */
  alias(prefix: string): string {
    this.aliasCount += 1;
    return `${prefix}${this.aliasCount}`;
  }
}
