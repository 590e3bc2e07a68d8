/**
 * `copy`: moves the data of every table a schema owns from one database to another, e.g. a Strapi
 * SQLite database to PostgreSQL. The target gets the layout first (sync), must hold no rows in
 * those tables, and is written in one transaction: a failed copy leaves it as it was. The source
 * is read in one transaction too, so the copy is a consistent snapshot.
 *
 * Beside the schema's tables, the media library's (folders, the files' folder links) and Strapi's
 * settings store are copied when the source has them (created on the target if it lacks them):
 * without them, a copied file would keep a folder path to no folder, and the next upload would
 * make a second "API Uploads" folder. So are Strapi's i18n locales (`i18n_locale`), which
 * `GET /i18n/locales` lists and writes check.
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import { clientOf, type DatabaseClient } from './database.js';
import { fromTransferForm, readExpression, toTransferForm } from './copy-values.js';
import { inspectDatabase, type DatabaseSnapshot } from './inspect.js';
import { describeLayout, type ColumnLayout, type Layout, type TableLayout } from './layout.js';
import { applyLayout, describeChange } from './sync.js';
import { vacuumAnalyze } from './vacuum.js';
import { createMissingTables, FOLDER_TABLES } from '../upload/folder-tables.js';
import { LOCALE_TABLE_LAYOUT } from './strapi-locales.js';

/** The databases to copy between, and the schema whose tables are copied. */
export interface CopyOptions {
  from: Knex;
  to: Knex;
  registry: Registry;
  /** Receives the layout changes made on the target and one progress line per table. */
  log?: (line: string) => void;
  /** Told after each table: how many of the layout's tables are copied. */
  progress?: (done: number, total: number, table: string) => void;
}

/** How many rows of a table were copied. */
export interface CopiedTable {
  readonly table: string;
  readonly rows: number;
}

/** Bound parameters per statement: PostgreSQL allows 65535, SQLite (as better-sqlite3 builds it) 32766. */
const MAX_PARAMETERS: Record<DatabaseClient, number> = { postgres: 65000, sqlite: 32000, mysql: 60000 };
/**
 * knex inserts several rows into SQLite as a compound SELECT, which SQLite limits to 500 terms;
 * mysql2 writes the values into the statement's text, which max_allowed_packet (16 MB) bounds.
 */
const MAX_BATCH_ROWS: Record<DatabaseClient, number> = { postgres: 5000, sqlite: 500, mysql: 500 };

/** Thrown when the target already holds data in a table of the schema. */
export class TargetNotEmptyError extends Error {
  constructor(readonly tables: readonly string[]) {
    super(`the target database already has rows in ${tables.join(', ')}; copy only fills empty tables`);
    this.name = 'TargetNotEmptyError';
  }
}

async function findFilledTables(knex: Knex, tables: readonly TableLayout[]): Promise<string[]> {
  const filled: string[] = [];
  for (const table of tables) {
    if ((await knex(table.name).select('id').limit(1)).length) filled.push(table.name);
  }
  return filled;
}

interface TableCopy {
  source: Knex;
  target: Knex;
  sourceClient: DatabaseClient;
  targetClient: DatabaseClient;
  columns: readonly ColumnLayout[];
  table: string;
}

function convertRow(copy: TableCopy, raw: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const column of copy.columns) {
    const value = toTransferForm(copy.sourceClient, column.type, raw[column.name]);
    row[column.name] = fromTransferForm(copy.targetClient, column.type, value);
  }
  return row;
}

/** Reads the source table in id order, a batch at a time, and inserts each batch into the target. */
async function copyRows(copy: TableCopy): Promise<number> {
  const limit = Math.min(MAX_BATCH_ROWS[copy.targetClient], Math.floor(MAX_PARAMETERS[copy.targetClient] / copy.columns.length));
  const select = copy.columns.map((column) => readExpression(copy.source, copy.sourceClient, column));
  let lastId: unknown = null;
  let total = 0;
  for (;;) {
    const query = copy.source.select(select).from(copy.table).orderBy('id').limit(limit);
    if (lastId !== null) query.where('id', '>', lastId as number);
    const batch: Record<string, unknown>[] = await query;
    if (!batch.length) return total;
    await copy.target(copy.table).insert(batch.map((raw) => convertRow(copy, raw)));
    total += batch.length;
    if (batch.length < limit) return total;
    lastId = batch[batch.length - 1].id;
  }
}

async function copyTable(source: Knex, target: Knex, table: TableLayout, existing: DatabaseSnapshot, log: (line: string) => void): Promise<number> {
  const found = existing.get(table.name);
  if (!found) {
    log(`${table.name}: not in the source, left empty`);
    return 0;
  }
  // Columns the source has beyond the schema are not copied; columns it lacks stay NULL.
  const columns = table.columns.filter((column) => found.columns.includes(column.name));
  const missing = table.columns.filter((column) => !found.columns.includes(column.name));
  const copy = { source, target, sourceClient: clientOf(source), targetClient: clientOf(target), columns, table: table.name };
  const rows = await copyRows(copy);
  log(`${table.name}: ${rows} rows${missing.length ? ` (not in the source: ${missing.map((c) => c.name).join(', ')})` : ''}`);
  return rows;
}

/** The next id PostgreSQL hands out must follow the copied ones. */
async function resetSequences(knex: Knex, tables: readonly TableLayout[]): Promise<void> {
  for (const table of tables) {
    await knex.raw(`SELECT setval(pg_get_serial_sequence(?, 'id'), COALESCE((SELECT MAX(id) FROM ??), 0) + 1, false)`, [
      `"${table.name}"`,
      table.name,
    ]);
  }
}

async function copyInto(source: Knex, target: Knex, layout: Layout, log: (line: string) => void, progress: NonNullable<CopyOptions['progress']>): Promise<CopiedTable[]> {
  for (const change of await applyLayout(target, layout)) log(describeChange(change));
  const existing = await inspectDatabase(source);
  const strapiTables = [...FOLDER_TABLES, LOCALE_TABLE_LAYOUT].filter((table) => existing.has(table.name));
  for (const change of await createMissingTables(target, strapiTables)) log(describeChange(change));
  const tables = [...layout.tables, ...strapiTables];
  const filled = await findFilledTables(target, tables);
  if (filled.length) throw new TargetNotEmptyError(filled);
  const copied: CopiedTable[] = [];
  for (const table of tables) {
    progress(copied.length, tables.length, table.name);
    copied.push({ table: table.name, rows: await copyTable(source, target, table, existing, log) });
  }
  progress(copied.length, tables.length, '');
  if (clientOf(target) === 'postgres') await resetSequences(target, tables);
  return copied;
}

/**
 * Copy every table of the registry's layout from `from` to `to`.
 * @throws TargetNotEmptyError when a table of the schema already has rows in the target.
 */
export async function copyDatabase(options: CopyOptions): Promise<CopiedTable[]> {
  const { from, to, registry } = options;
  const log = options.log ?? (() => {});
  const progress = options.progress ?? (() => {});
  const layout = describeLayout(registry);
  const snapshot: Knex.TransactionConfig = clientOf(from) === 'postgres' ? { isolationLevel: 'repeatable read', readOnly: true } : {};
  const copied = await from.transaction((source) => to.transaction((target) => copyInto(source, target, layout, log, progress)), snapshot);
  await vacuumAnalyze(to, layout.tables.map((table) => table.name));
  return copied;
}
