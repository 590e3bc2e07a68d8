/**
 * Probes of the write side: a snapshot of every table (what a refused write must leave as it was)
 * and an answer with the id it named set aside, to compare a write naming a hidden row with the
 * same write naming a row that exists nowhere.
 */
import type { Knex } from 'knex';
import type supertest from 'supertest';

/** An id no row of any table has. */
export const NOWHERE = 987654;

/** Every row of every table, in a stable order: what a refused write must leave as it was. */
export async function snapshot(knex: Knex): Promise<Record<string, string[]>> {
  const client = knex.client.config.client as string;
  const listed =
    client === 'pg'
      ? ((await knex.raw('SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()')) as { rows: { name: string }[] }).rows
      : client === 'mysql2'
        ? ((await knex.raw('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()')) as [{ name: string }[]])[0]
        : ((await knex.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) as { name: string }[]);
  const tables: Record<string, string[]> = {};
  for (const { name } of listed) tables[name] = ((await knex(name).select('*')) as unknown[]).map((row) => JSON.stringify(row)).sort();
  return tables;
}

/**
 * An answer with the id it named set aside where a message repeats it, and with
 * the id of an entry it created, to compare a write naming a hidden row with one naming a missing one.
 */
export function answerOf(response: supertest.Response, id: number): { status: number; body: string } {
  // Where a message repeats the id the request gave: an upload's refId, a position's anchor.
  const body = response.text.replace(new RegExp(`(refId |\\\\"(?:before|after)\\\\":|relation with id )${id}\\b`, 'g'), '$1<id>');
  return { status: response.status, body: response.status === 200 && response.request.method === 'POST' ? body.replace(/^\{"data":\{"id":\d+/, '{"data":{"id":<new>') : body };
}

/** The rows of `before` missing or changed in `after` (new rows aside), the times a write sets on the entry it names left out. */
export function changedRows(before: Record<string, string[]>, after: Record<string, string[]>): string[] {
  const untimed = (row: string) => row.replace(/"updated_at":("[^"]*"|\d+|null)/g, '');
  const changed: string[] = [];
  for (const [table, rows] of Object.entries(before)) {
    const kept = new Set((after[table] ?? []).map(untimed));
    for (const row of rows) if (!kept.has(untimed(row))) changed.push(`${table}: ${row}`);
  }
  return changed;
}
