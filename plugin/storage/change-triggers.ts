/**
 * Triggers that tell every server of a PostgreSQL or MariaDB database which tables changed,
 * whoever wrote (this API, another process, a Strapi admin, plain SQL), for the response cache
 * (docs/cache.md). Installed by sync when the cache is on (`content-api sync --change-triggers`),
 * on every table of the layout; never on SQLite, whose `PRAGMA data_version` tells the same.
 *
 * - PostgreSQL: a statement-level trigger per table sends `NOTIFY content_api_changes, '<table>'`,
 *   which PostgreSQL delivers when the transaction commits (once per table and transaction).
 * - MariaDB has no NOTIFY: a row-level trigger per table and event adds one to the table's row in
 *   `content_api_table_versions`, which servers read every few milliseconds. The row is locked
 *   until the write commits: writers of one table take turns on it.
 *
 * `'*'` stands for every table (a sync that changed the layout).
 */
import type { Knex } from 'knex';
import { clientOf, rawRows } from './database.js';
import { storedName } from './inspect.js';
import { describeLayout } from './layout.js';
import { EVERY_TABLE, VERSIONS_TABLE } from './table-versions.js';
import type { Registry } from '../schema/registry.js';

/** The NOTIFY channel of PostgreSQL's triggers. */
export const CHANGES_CHANNEL = 'content_api_changes';
export { EVERY_TABLE, VERSIONS_TABLE } from './table-versions.js';

const POSTGRES_TRIGGER = 'content_api_changes';
const POSTGRES_FUNCTION = 'content_api_table_changed';
const MYSQL_EVENTS = [
  ['INSERT', 'i'],
  ['UPDATE', 'u'],
  ['DELETE', 'd'],
] as const;

/** The layout's tables, which the cache may read. */
export function watchedTables(registry: Registry): string[] {
  return describeLayout(registry).tables.map((table) => table.name);
}

/** The tables among `tables` without their change triggers (all of them on SQLite, which needs none). */
export async function tablesWithoutTriggers(knex: Knex, tables: readonly string[]): Promise<string[]> {
  const client = clientOf(knex);
  if (client === 'sqlite') return [];
  const rows =
    client === 'postgres'
      ? rawRows<{ name: string }>(knex, await knex.raw(
          `SELECT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE t.tgname = ? AND n.nspname = current_schema()`,
          [POSTGRES_TRIGGER],
        ))
      : rawRows<{ name: string }>(knex, await knex.raw(
          `SELECT EVENT_OBJECT_TABLE AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'content\\_api\\_%' GROUP BY EVENT_OBJECT_TABLE HAVING COUNT(*) = ?`,
          [MYSQL_EVENTS.length],
        ));
  const present = new Set(rows.map((row) => row.name));
  return tables.filter((table) => !present.has(storedName(client, table)));
}

/**
 * MariaDB with the change triggers on every table of the layout: its versions table says when any
 * of them changed, by which lists' totals are kept (sql/mysql-known-totals.ts).
 */
export async function hasTableVersions(knex: Knex, registry: Registry): Promise<boolean> {
  return clientOf(knex) === 'mysql' && (await tablesWithoutTriggers(knex, watchedTables(registry))).length === 0;
}

/** Installs the triggers the tables lack (and MariaDB's versions table); answers the tables given one. */
export async function installChangeTriggers(knex: Knex, registry: Registry): Promise<string[]> {
  const client = clientOf(knex);
  if (client === 'sqlite') return [];
  const tables = watchedTables(registry);
  const missing = await tablesWithoutTriggers(knex, tables);
  if (client === 'postgres') await installPostgres(knex, missing);
  else await installMysql(knex, tables, missing);
  return missing;
}

async function installPostgres(knex: Knex, tables: readonly string[]): Promise<void> {
  if (!tables.length) return;
  await knex.raw(
    `CREATE OR REPLACE FUNCTION ${POSTGRES_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('${CHANGES_CHANNEL}', TG_ARGV[0]); RETURN NULL; END $$`,
  );
  for (const table of tables) {
    await knex.raw(
      `CREATE TRIGGER ${POSTGRES_TRIGGER} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE PROCEDURE ${POSTGRES_FUNCTION}('${literalText(table)}')`,
      [table],
    );
  }
}

async function installMysql(knex: Knex, tables: readonly string[], missing: readonly string[]): Promise<void> {
  await knex.raw(`CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (table_name VARCHAR(64) NOT NULL PRIMARY KEY, version BIGINT UNSIGNED NOT NULL DEFAULT 0) ENGINE=InnoDB`);
  // Every row exists before any trigger runs: the triggers only update, which locks no gap.
  const names = [EVERY_TABLE, ...tables];
  await knex.raw(`INSERT IGNORE INTO ${VERSIONS_TABLE} (table_name, version) VALUES ${names.map(() => '(?, 0)').join(', ')}`, names);
  for (const table of missing) {
    for (const [event, suffix] of MYSQL_EVENTS) {
      const name = storedName('mysql', `content_api_${table}_${suffix}`);
      await knex.raw(`DROP TRIGGER IF EXISTS ??`, [name]);
      await knex.raw(
        `CREATE TRIGGER ?? AFTER ${event} ON ?? FOR EACH ROW UPDATE ${VERSIONS_TABLE} SET version = version + 1 WHERE table_name = '${literalText(table)}'`,
        [name, table],
      );
    }
  }
}

/** Tells every server that any table may have changed (after a sync that changed the layout). */
export async function announceEveryTableChanged(knex: Knex): Promise<void> {
  const client = clientOf(knex);
  if (client === 'postgres') await knex.raw(`SELECT pg_notify(?, ?)`, [CHANGES_CHANNEL, EVERY_TABLE]);
  if (client === 'mysql') await knex.raw(`UPDATE ${VERSIONS_TABLE} SET version = version + 1 WHERE table_name = ?`, [EVERY_TABLE]);
}

/** A table name inside a string literal of a trigger's body. */
function literalText(name: string): string {
  return name.replace(/'/g, "''");
}
