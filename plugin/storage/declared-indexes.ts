/**
 * The indexes schema files declare are created with a mark in the database's own catalog: a
 * comment at the end of the statement SQLite keeps in sqlite_master, `COMMENT ON INDEX` on
 * PostgreSQL, the index's COMMENT on MariaDB. The mark names the columns, so sync can tell the
 * indexes it made from Strapi's and from any an administrator added by hand (whatever their
 * names): only a marked index is ever dropped, when no schema file declares it any more, or
 * recreated, when its declaration now names other columns.
 */
import type { Knex } from 'knex';
import type { DatabaseClient } from './database.js';
import type { IndexLayout } from './layout.js';

const MARK = 'koa-content-api index: ';

/** The mark of an index over `columns`: `koa-content-api index: views,id`. */
export function indexMark(columns: readonly string[]): string {
  return `${MARK}${columns.join(',')}`;
}

/** The columns a mark names, or null when the text (a comment, or SQLite's statement) has none. */
export function markedColumns(text: string | null | undefined): string | null {
  if (!text) return null;
  const found = new RegExp(`${MARK}([a-z0-9_,]*)`).exec(text);
  return found ? found[1]! : null;
}

/** Create a declared index with its mark (names as stored: see storedName). */
export async function createDeclaredIndex(knex: Knex, client: DatabaseClient, table: string, name: string, index: IndexLayout): Promise<void> {
  const mark = indexMark(index.columns);
  // The mark holds only the fixed prefix and column names ([a-z0-9_,]), so it is written as a literal.
  if (client === 'sqlite') {
    await knex.raw(`CREATE INDEX ?? ON ?? (${index.columns.map(() => '??').join(', ')}) /* ${mark} */`, [name, table, ...index.columns]);
  } else if (client === 'postgres') {
    await knex.raw(`CREATE INDEX ?? ON ?? (${index.columns.map(() => '??').join(', ')})`, [name, table, ...index.columns]);
    await knex.raw(`COMMENT ON INDEX ?? IS '${mark}'`, [name]);
  } else {
    await knex.raw(`CREATE INDEX ?? ON ?? (${index.columns.map(() => '??').join(', ')}) COMMENT '${mark}'`, [name, table, ...index.columns]);
  }
}

/** Drop an index sync made (only ever called for a marked one). */
export async function dropDeclaredIndex(knex: Knex, client: DatabaseClient, table: string, name: string): Promise<void> {
  if (client === 'mysql') await knex.raw('DROP INDEX ?? ON ??', [name, table]);
  else await knex.raw('DROP INDEX ??', [name]);
}
