import type { Dialect } from './dialect/dialect.js';

/**
 * A compiled statement with positional `?` placeholders, for a driver that binds in text order
 * (mysql2) or for `knex.raw` inside a write's transaction. The compiler numbers its parameters
 * (`$1` on PostgreSQL, `@p1` on SQLite, `?/*p1*\/` on MariaDB) and may write them out of number
 * order or twice; here each occurrence becomes `?`, with its value listed at that place.
 * `forKnex`: the dialect of a statement run by `knex.raw`, whose text it may adjust (knexText).
 */
export function positionalStatement(sql: string, values: readonly unknown[], options: { forKnex?: Dialect } = {}): { sql: string; values: unknown[] } {
  const ordered: unknown[] = [];
  const text = sql.replace(/\$(\d+)|@p(\d+)|\?\/\*p(\d+)\*\/|\?/g, (token, postgres?: string, sqlite?: string, mysql?: string) => {
    const number = postgres ?? sqlite ?? mysql;
    // A `?` of the statement's own text (an operator): knex.raw would read it as a placeholder.
    if (number === undefined) return options.forKnex ? '\\?' : token;
    ordered.push(values[Number(number) - 1]);
    return '?';
  });
  return { sql: options.forKnex?.knexText?.(text) ?? text, values: ordered };
}
