/**
 * State of one compilation: the dialect, the parameters collected so far, fresh table aliases.
 */
import type { Dialect } from './dialect/dialect.js';

export class CompileContext {
  readonly dialect: Dialect;
  readonly values: unknown[] = [];
  private aliasCount = 0;

  constructor(dialect: Dialect) {
    this.dialect = dialect;
  }

  /** Adds a parameter and returns its placeholder. */
  parameter(value: unknown): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  }

  /** A table alias not used elsewhere in the statement. */
  alias(prefix: string): string {
    this.aliasCount += 1;
    return `${prefix}${this.aliasCount}`;
  }
}
