/**
 * What a warm SQLite read worker runs for a body statement, prepared on `database`: a list's twin
 * with its total known (plugin/sql/sqlite-known-totals.ts), counted here once; else the
 * statement itself. The floors (floor.ts, floor-thread.ts) loop on it.
 */
import type Database from 'better-sqlite3';
import type { Statement } from '../plugin/sql/compile.js';
import { sqliteDialect } from '../plugin/sql/dialect/sqlite.js';

export function warmStatement(database: Database.Database, body: Statement): () => unknown {
  const bindings = sqliteDialect.bindings(body.values) as Record<string, unknown>;
  const prepared = database.prepare(body.sql).raw(true);
  if (!body.givenTotal) return () => prepared.all(bindings);
  const [[, , total]] = prepared.all(bindings) as [unknown, unknown, number][];
  const twin = database.prepare(body.givenTotal.sql).raw(true);
  const given = { ...bindings, total };
  return () => twin.all(given);
}
