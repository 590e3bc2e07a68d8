/**
 * The indexes schema files declare are created with a mark in the database's own catalog:
 * `COMMENT ON INDEX` on PostgreSQL and the index's COMMENT on MariaDB, naming the columns; on
 * SQLite, which has no comments on indexes, an explicit `COLLATE BINARY` on every column of the
 * statement sqlite_master keeps (the default collation, so the index is the same; neither knex
 * nor Strapi writes it). A comment in that statement would do too, but knex's SQLite parser,
 * which reads every index of a table when Strapi drops or alters one of its columns, fails on
 * comments. So sync tells the indexes it made from Strapi's and from any an administrator added by
 * hand (whatever their names): only a marked index is ever dropped, when no schema file declares
 * it any more, or recreated, when its declaration now names other columns.
 */
import type { Knex } from 'knex';
import type { DatabaseClient } from './database.js';
import { indexKeys, indexMark } from './index-marks.js';
import { storedName, type ExistingTable } from './inspect.js';
import type { IndexLayout, TableLayout } from './layout.js';

/**
 * Create a declared index with its mark (names as stored: see storedName). On PostgreSQL the keys
 * are in the API's sort order (dialect/postgres.ts), which only such an index serves: NULL first
 * (`ASC NULLS FIRST`, read backwards for `DESC NULLS LAST`; a default index puts NULL last, and
 * `sort=views:desc` then read and sorted every row beside it; a `:desc` key is `DESC NULLS LAST`,
 * the same order backwards), and a string column `COLLATE "C"` (code points).
 */
export async function createDeclaredIndex(knex: Knex, client: DatabaseClient, table: TableLayout, name: string, index: IndexLayout): Promise<void> {
  const mark = indexMark(index);
  const textColumns = new Set(table.columns.filter((column) => column.type === 'string').map((column) => column.name));
  const key = (column: string, position: number) => {
    const descending = index.descending?.[position] === true;
    if (client === 'sqlite') return `?? COLLATE BINARY${descending ? ' DESC' : ''}`;
    if (client === 'postgres') return `??${textColumns.has(column) ? ' COLLATE "C"' : ''} ${descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`;
    // MariaDB builds a descending key from 10.8 (older servers parse DESC and build it ascending).
    return `??${descending ? ' DESC' : ''}`;
  };
  const keys = index.columns.map(key).join(', ');
  const create = knex.raw(`CREATE INDEX ?? ON ?? (${keys})`, [name, table.name, ...index.columns]).toQuery();
  // The mark holds only the fixed prefix and column names ([a-z0-9_,]), so it is written as a literal.
  if (client === 'sqlite') {
    await knex.raw(create);
  } else if (client === 'postgres') {
    await knex.raw(create);
    await knex.raw(`COMMENT ON INDEX ?? IS '${mark}'`, [name]);
  } else {
    await knex.raw(`${create} COMMENT '${mark}'`);
  }
}

/** Drop an index sync made (only ever called for a marked one). */
export async function dropDeclaredIndex(knex: Knex, client: DatabaseClient, table: string, name: string): Promise<void> {
  if (client === 'mysql') await knex.raw('DROP INDEX ?? ON ??', [name, table]);
  else await knex.raw('DROP INDEX ??', [name]);
}

/** What sync does to a table's declared indexes: names as stored. */
export interface DeclaredIndexWork {
  /** Marked indexes no declaration has as they are (gone, or now over other columns). */
  readonly stale: readonly string[];
  /** Declared indexes the table lacks (after the stale ones are dropped). */
  readonly missing: readonly IndexLayout[];
}

/**
 * Compares a table's declared indexes with the database's: an index of that name that is not
 * marked (Strapi's, or one added by hand) counts as present and is left alone.
 */
export function declaredIndexWork(client: DatabaseClient, layout: TableLayout, existing: ExistingTable): DeclaredIndexWork {
  const declared = new Map(layout.indexes.filter((index) => index.origin === 'schema').map((index) => [storedName(client, index.name), index]));
  const stale = [...existing.declaredIndexes].filter(([name, marked]) => { const index = declared.get(name); return !index || indexKeys(index) !== marked; }).map(([name]) => name).sort();
  const present = new Set(existing.indexes.filter((name) => !stale.includes(name)));
  return { stale, missing: [...declared].filter(([name]) => !present.has(name)).map(([, index]) => index) };
}
