/**
 * Reads a database's catalog for the storage suites — tables, columns in order, index names and
 * foreign keys — with plain catalog queries, independent of the code under test. MariaDB's
 * information_schema is read for the current database only (`DATABASE()`).
 */
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { clientOf, rawRows } from '../../plugin/storage/database.js';

export interface CatalogForeignKey {
  name: string;
  column: string;
  references: string;
  onDelete: string;
}

/** Strapi tables that are not part of the schema's layout, each with the reason. */
export const OUT_OF_SCOPE_TABLES: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /^admin_/, why: "the admin panel's users, roles and permissions: the back office is Strapi's, not the API's" },
  { pattern: /^strapi_/, why: "Strapi's own bookkeeping: API and transfer tokens, webhooks, releases, core store, migrations" },
  { pattern: /^up_permissions/, why: "users-permissions' permission rows: roles and permissions come from permissions.yaml" },
  { pattern: /^i18n_locale$/, why: 'the locales table: locales are plugin options' },
  { pattern: /^upload_folders|^files_folder_links$/, why: "the media library's folders, an admin-panel arrangement the content API never shows" },
  { pattern: /^sqlite_/, why: "SQLite's own tables (the AUTOINCREMENT counters)" },
];

export function isInScope(table: string): boolean {
  return !OUT_OF_SCOPE_TABLES.some(({ pattern }) => pattern.test(table));
}

/** Column names in table order, by table. */
export async function readColumns(knex: Knex): Promise<Map<string, string[]>> {
  const client = clientOf(knex);
  const rows: { table_name: string; column_name: string }[] =
    client === 'postgres'
      ? (
          await knex.raw(
            `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
          )
        ).rows
      : client === 'mysql'
        ? rawRows(
            knex,
            await knex.raw(
              `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
            ),
          )
        : await knex.raw(
          `SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`,
        );
  const tables = new Map<string, string[]>();
  for (const row of rows) tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
  return tables;
}

/**
 * `name [unique] (columns)` for every index of the in-scope tables, sorted; the name alone on
 * PostgreSQL. MariaDB's primary keys (all named PRIMARY) are left out.
 */
export async function readIndexes(knex: Knex): Promise<string[]> {
  const client = clientOf(knex);
  const rows: { table_name: string; name: string; definition: string }[] =
    client === 'postgres'
      ? (await knex.raw(`SELECT tablename AS table_name, indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema()`)).rows
      : client === 'mysql'
        ? rawRows(
            knex,
            await knex.raw(
              `SELECT TABLE_NAME AS table_name, INDEX_NAME AS name,
                 CONCAT(IF(MIN(NON_UNIQUE) = 0, 'unique ', ''), '(', GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX SEPARATOR ','), ')') AS definition
               FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME <> 'PRIMARY' GROUP BY TABLE_NAME, INDEX_NAME`,
            ),
          )
        : await knex.raw(
          `SELECT m.tbl_name AS table_name, m.name, (CASE WHEN l."unique" THEN 'unique ' ELSE '' END) || '(' || (SELECT group_concat(name, ',') FROM pragma_index_info(m.name)) || ')' AS definition
           FROM sqlite_master m JOIN pragma_index_list(m.tbl_name) l ON l.name = m.name WHERE m.type = 'index'`,
        );
  return rows
    .filter((row) => isInScope(row.table_name))
    .map((row) => (client === 'postgres' ? row.name : `${row.name} ${row.definition}`))
    .sort();
}

const CONSTRAINT = /CONSTRAINT `([^`]+)` FOREIGN KEY ?\(`([^`]+)`\) REFERENCES `([^`]+)` ?\(`id`\) ON DELETE (CASCADE|SET NULL|RESTRICT|NO ACTION)/gi;

/** Foreign keys (name, column, referenced table, on delete) of the in-scope tables, by table. */
export async function readForeignKeys(knex: Knex): Promise<Map<string, CatalogForeignKey[]>> {
  const keys = new Map<string, CatalogForeignKey[]>();
  const add = (table: string, key: CatalogForeignKey) => {
    const list = keys.get(table) ?? [];
    // SQLite keeps a constraint twice when Strapi recreated the table to add it.
    if (!list.some((other) => other.name === key.name)) list.push(key);
    keys.set(table, list);
  };
  if (clientOf(knex) === 'postgres') {
    const { rows } = await knex.raw(
      `SELECT c.conrelid::regclass::text AS table_name, c.conname AS name, a.attname AS column, c.confrelid::regclass::text AS references, c.confdeltype AS on_delete
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] WHERE c.contype = 'f'`,
    );
    for (const row of rows) add(row.table_name, { name: row.name, column: row.column, references: row.references, onDelete: row.on_delete === 'c' ? 'CASCADE' : row.on_delete });
  } else if (clientOf(knex) === 'mysql') {
    const rows = rawRows<{ table_name: string; name: string; column: string; references: string; on_delete: string }>(
      knex,
      await knex.raw(
        `SELECT k.TABLE_NAME AS table_name, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS \`column\`, k.REFERENCED_TABLE_NAME AS \`references\`, r.DELETE_RULE AS on_delete
         FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS r
           ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
         WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL AND k.ORDINAL_POSITION = 1`,
      ),
    );
    for (const row of rows) add(row.table_name, { name: row.name, column: row.column, references: row.references, onDelete: row.on_delete });
  } else {
    const rows: { name: string; sql: string }[] = await knex.raw(`SELECT name, sql FROM sqlite_master WHERE type = 'table'`);
    for (const row of rows) {
      for (const match of row.sql.matchAll(CONSTRAINT)) {
        add(row.name, { name: match[1], column: match[2], references: match[3], onDelete: match[4].toUpperCase() });
      }
    }
  }
  for (const list of keys.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  return keys;
}

/** Every row of a SQLite table in id order, integers as BigInt so that nothing is rounded. */
export function readSqliteRows(file: string, table: string, columns: readonly string[]): Record<string, unknown>[] {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const list = columns.map((column) => `"${column}"`).join(', ');
    return database.prepare(`SELECT ${list} FROM "${table}" ORDER BY id`).safeIntegers(true).all() as Record<string, unknown>[];
  } finally {
    database.close();
  }
}

/**
 * `table.column` → declared type (SQLite), formatted type (PostgreSQL) or column type (MariaDB:
 * `int(10) unsigned`, `longtext`), with ` not null` when so.
 */
export async function readColumnTypes(knex: Knex): Promise<Map<string, string>> {
  const client = clientOf(knex);
  const rows: { table_name: string; column_name: string; type: string; not_null: boolean | number }[] =
    client === 'mysql'
      ? rawRows(
          knex,
          await knex.raw(
            `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, COLUMN_TYPE AS type, IS_NULLABLE = 'NO' AS not_null
             FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()`,
          ),
        )
      : client === 'postgres'
      ? (
          await knex.raw(
            `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
             FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
          )
        ).rows
      : await knex.raw(
          `SELECT m.name AS table_name, p.name AS column_name, p.type, p."notnull" AS not_null FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'`,
        );
  return new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, `${row.type}${row.not_null ? ' not null' : ''}`]));
}
