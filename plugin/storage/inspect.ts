/**
 * What a database already holds: its tables with their columns and index names, read from the
 * catalog (sqlite_master and table_info on SQLite; information_schema and pg_indexes in the
 * current schema on PostgreSQL; information_schema in the current database on MariaDB). Sync compares it with the layout; copy reads only what exists.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { clientOf, type DatabaseClient } from './database.js';
import { markedColumns, sqliteMarkedColumns } from './index-marks.js';

/** What the catalog says about one table. */
export interface ExistingTable {
  /** Column names in table order. */
  readonly columns: readonly string[];
  readonly indexes: readonly string[];
  /** The indexes sync made for a schema file's declaration, with the columns their mark names (declared-indexes.ts). */
  readonly declaredIndexes: ReadonlyMap<string, string>;
}

/** The existing tables by name. */
export type DatabaseSnapshot = ReadonlyMap<string, ExistingTable>;

interface CatalogRow {
  table_name: string;
  name: string;
}

/** An index, with the text its mark would be in: SQLite's statement, or the index's comment (declared-indexes.ts). */
interface IndexRow extends CatalogRow {
  mark: string | null;
}

/**
 * PostgreSQL cuts identifiers to 63 bytes; a name is compared with the catalog the way it was
 * stored. MariaDB refuses names over 64 characters: sync gives such an index or foreign key a name
 * of 64, its start and a hash of the whole (Strapi v4 cannot create those on MariaDB at all).
 */
export function storedName(client: DatabaseClient, name: string): string {
  if (client === 'mysql') return name.length <= 64 ? name : `${name.slice(0, 55)}_${createHash('sha1').update(name).digest('hex').slice(0, 8)}`;
  if (client !== 'postgres' || Buffer.byteLength(name) <= 63) return name;
  let cut = name;
  while (Buffer.byteLength(cut) > 63) cut = cut.slice(0, -1);
  return cut;
}

interface Catalog {
  tables: string[];
  columns: CatalogRow[];
  indexes: IndexRow[];
}

async function readSqliteCatalog(knex: Knex): Promise<Catalog> {
  const tables: { name: string }[] = await knex.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`);
  const columns: CatalogRow[] = await knex.raw(
    `SELECT m.name AS table_name, p.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid`,
  );
  const indexes: IndexRow[] = await knex.raw(`SELECT tbl_name AS table_name, name, sql AS mark FROM sqlite_master WHERE type = 'index'`);
  return { tables: tables.map((row) => row.name), columns, indexes };
}

async function readPostgresCatalog(knex: Knex): Promise<Catalog> {
  const tables = await knex.raw<{ rows: { table_name: string }[] }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const columns = await knex.raw<{ rows: CatalogRow[] }>(
    `SELECT table_name, column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const indexes = await knex.raw<{ rows: IndexRow[] }>(
    `SELECT i.tablename AS table_name, i.indexname AS name, obj_description(c.oid, 'pg_class') AS mark
     FROM pg_indexes i JOIN pg_namespace n ON n.nspname = i.schemaname JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = n.oid
     WHERE i.schemaname = current_schema()`,
  );
  return { tables: tables.rows.map((row) => row.table_name), columns: columns.rows, indexes: indexes.rows };
}

async function readMysqlCatalog(knex: Knex): Promise<Catalog> {
  const [tables] = await knex.raw(
    `SELECT TABLE_NAME AS table_name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'`,
  );
  const [columns] = await knex.raw(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  const [indexes] = await knex.raw(
    `SELECT DISTINCT TABLE_NAME AS table_name, INDEX_NAME AS name, INDEX_COMMENT AS mark FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()`,
  );
  return { tables: (tables as { table_name: string }[]).map((row) => row.table_name), columns, indexes };
}

/** Every table of the database (the current schema on PostgreSQL) with its columns and indexes. */
export async function inspectDatabase(knex: Knex): Promise<DatabaseSnapshot> {
  const client = clientOf(knex);
  const catalog = client === 'postgres' ? await readPostgresCatalog(knex) : client === 'mysql' ? await readMysqlCatalog(knex) : await readSqliteCatalog(knex);
  const snapshot = new Map<string, { columns: string[]; indexes: string[]; declaredIndexes: Map<string, string> }>();
  for (const table of catalog.tables) snapshot.set(table, { columns: [], indexes: [], declaredIndexes: new Map() });
  for (const row of catalog.columns) snapshot.get(row.table_name)?.columns.push(row.name);
  for (const row of catalog.indexes) {
    const table = snapshot.get(row.table_name);
    table?.indexes.push(row.name);
    const marked = client === 'sqlite' ? sqliteMarkedColumns(row.mark) : markedColumns(row.mark);
    if (marked !== null) table?.declaredIndexes.set(row.name, marked);
  }
  return snapshot;
}
