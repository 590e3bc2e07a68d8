import type { Knex } from 'knex';
import { clientOf } from './database.js';

/**
 * Statistics for the freshly filled tables. PostgreSQL, before autovacuum comes by: without
 * statistics it plans as if the tables were empty (a page of articles measured 8 ms instead of
 * 0.6 ms), and without the visibility map a list's count reads the whole table instead of the
 * `(locale, published_at)` index alone. MariaDB: the columns' histograms, below.
 */
export async function vacuumAnalyze(knex: Knex, tables: readonly string[]): Promise<void> {
  const client = clientOf(knex);
  if (tables.length === 0) return;
  const list = tables.map((table) => `"${table}"`).join(', ');
  if (client === 'postgres') await knex.raw(`VACUUM ANALYZE ${list}`);
  // MariaDB knows how many rows a condition on a column selects only from the column's histogram
  // (engine-independent statistics), collected only when asked: without one it takes a filter
  // through a relation for unselective and tests every entry against it (dialect/mysql.ts).
  if (client === 'mysql') await knex.raw(`ANALYZE TABLE ${list} PERSISTENT FOR ALL`);
}
