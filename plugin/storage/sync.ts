/**
 * `sync`: brings a database up to the layout of a registry by adding what is missing — tables
 * (with their indexes and foreign keys), columns and indexes. It never drops, renames or alters
 * anything that exists, so an existing Strapi database keeps its data and its own tables; running
 * it twice changes nothing the second time. The one exception is an index it made itself for a
 * schema file's declaration (marked: declared-indexes.ts): dropped once no file declares it, and
 * made again when its declaration names other columns. All changes happen in one transaction (DDL is
 * transactional on both SQLite and PostgreSQL), so a failure leaves the database as it was. On
 * MariaDB and MySQL each DDL statement commits by itself: a failure keeps the tables made before it.
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import { clientOf, type DatabaseClient } from './database.js';
import { inspectDatabase, storedName, type ExistingTable } from './inspect.js';
import { vacuumAnalyze } from './vacuum.js';
import { announceEveryTableChanged, installChangeTriggers } from './change-triggers.js';
import { createDeclaredIndex, declaredIndexWork, dropDeclaredIndex } from './declared-indexes.js';
import { describeLayout, type ColumnLayout, type IndexLayout, type Layout, type TableLayout } from './layout.js';

/** One thing sync changed. */
export interface SchemaChange {
  /** `droppedIndex`: a declared index no schema file declares any more. */
  readonly kind: 'table' | 'column' | 'index' | 'droppedIndex' | 'triggers';
  readonly table: string;
  /** The table, column or index name. */
  readonly name: string;
}

/** How sync reports what it does. */
export interface SyncOptions {
  /** Receives one line per change. */
  log?: (line: string) => void;
  /** Install the triggers that tell servers with a response cache which tables change (change-triggers.ts). */
  changeTriggers?: boolean;
}

/** One line for a change, as the CLI prints it. */
export function describeChange(change: SchemaChange): string {
  if (change.kind === 'table') return `created table ${change.table}`;
  if (change.kind === 'column') return `added column ${change.table}.${change.name}`;
  if (change.kind === 'triggers') return `added change triggers on ${change.table}`;
  if (change.kind === 'droppedIndex') return `dropped index ${change.name} on ${change.table}: no schema file declares it as it was`;
  return `created index ${change.name} on ${change.table}`;
}

function addColumn(table: Knex.CreateTableBuilder, client: DatabaseClient, column: ColumnLayout): Knex.ColumnBuilder {
  const { name } = column;
  switch (column.type) {
    case 'increments':
      return table.increments(name, { primaryKey: true });
    case 'string':
      return table.string(name);
    case 'text':
      return table.text(name, 'longtext');
    case 'integer':
      return table.integer(name);
    case 'bigInteger':
      return table.bigInteger(name);
    case 'double':
      return table.double(name);
    case 'decimal':
      return table.decimal(name, 10, 2);
    case 'boolean':
      return table.boolean(name);
    case 'jsonb':
      return table.jsonb(name);
    case 'date':
      return table.date(name);
    case 'time':
      // knex's time() has no precision on PostgreSQL and MySQL; milliseconds are what the API returns.
      return client === 'sqlite' ? table.time(name) : table.specificType(name, 'time(3)');
    case 'datetime':
      return table.datetime(name, { useTz: false, precision: 6 });
  }
}

/**
 * Strapi declares the ids and orders of its link, component and morph tables unsigned, and the
 * creator columns of a model's table; on MySQL and MariaDB a foreign key must also match the
 * unsigned id it references.
 */
function addTableColumn(table: Knex.CreateTableBuilder, client: DatabaseClient, layout: TableLayout, column: ColumnLayout): Knex.ColumnBuilder {
  const built = addColumn(table, client, column);
  const linkNumber = layout.role !== 'model' && (column.type === 'integer' || column.type === 'double');
  const unsigned = client === 'mysql' && (linkNumber || column.referencesId === true);
  return unsigned ? built.unsigned() : built;
}

function addIndex(table: Knex.CreateTableBuilder, client: DatabaseClient, index: IndexLayout): void {
  const name = storedName(client, index.name);
  if (index.unique) table.unique([...index.columns], { indexName: name });
  else table.index([...index.columns], name);
}

async function createTable(knex: Knex, client: DatabaseClient, layout: TableLayout): Promise<void> {
  await knex.schema.createTable(layout.name, (table) => {
    for (const column of layout.columns) {
      const built = addTableColumn(table, client, layout, column);
      if (column.nullable) built.nullable();
    }
    for (const index of layout.indexes) if (index.origin !== 'schema') addIndex(table, client, index);
    for (const key of layout.foreignKeys) {
      table.foreign([...key.columns], storedName(client, key.name)).references([...key.referencedColumns]).inTable(key.referencedTable).onDelete(key.onDelete);
    }
  });
  for (const index of layout.indexes) if (index.origin === 'schema') await createDeclaredIndex(knex, client, layout, storedName(client, index.name), index);
}

/**
 * Adds the columns and indexes an existing table lacks, and drops or remakes the declared indexes
 * it made that the layout no longer has as they are. Foreign keys are only created with new tables.
 */
async function completeTable(knex: Knex, client: DatabaseClient, layout: TableLayout, existing: ExistingTable): Promise<SchemaChange[]> {
  const columns = new Set(existing.columns);
  const indexes = new Set(existing.indexes);
  const declared = declaredIndexWork(client, layout, existing);
  const missingColumns = layout.columns.filter((column) => !columns.has(storedName(client, column.name)));
  const missingIndexes = layout.indexes.filter((index) => index.origin !== 'schema' && !indexes.has(storedName(client, index.name)));
  if (missingColumns.some((column) => column.type === 'increments')) {
    throw new Error(`table ${layout.name} exists without an id column; it cannot be served`);
  }
  for (const name of declared.stale) await dropDeclaredIndex(knex, client, layout.name, name);
  if (missingColumns.length || missingIndexes.length) {
    await knex.schema.alterTable(layout.name, (table) => {
      for (const column of missingColumns) addTableColumn(table, client, layout, column).nullable();
      for (const index of missingIndexes) addIndex(table, client, index);
    });
  }
  for (const index of declared.missing) await createDeclaredIndex(knex, client, layout, storedName(client, index.name), index);
  return [
    ...declared.stale.map((name): SchemaChange => ({ kind: 'droppedIndex', table: layout.name, name })),
    ...missingColumns.map((column): SchemaChange => ({ kind: 'column', table: layout.name, name: column.name })),
    ...[...missingIndexes, ...declared.missing].map((index): SchemaChange => ({ kind: 'index', table: layout.name, name: index.name })),
  ];
}

/** Adds what `layout` needs and `knex`'s database lacks, inside the caller's transaction. */
export async function applyLayout(knex: Knex, layout: Layout): Promise<SchemaChange[]> {
  const client = clientOf(knex);
  const existing = await inspectDatabase(knex);
  const changes: SchemaChange[] = [];
  for (const table of layout.tables) {
    const found = existing.get(storedName(client, table.name));
    if (found) {
      changes.push(...(await completeTable(knex, client, table, found)));
    } else {
      await createTable(knex, client, table);
      changes.push({ kind: 'table', table: table.name, name: table.name });
    }
  }
  return changes;
}

/**
 * Create the missing tables, columns and indexes of the registry's layout, in one transaction.
 * @returns what was changed, in order; empty when the database already had everything.
 */
export async function syncSchema(knex: Knex, registry: Registry, options: SyncOptions = {}): Promise<SchemaChange[]> {
  const layout = describeLayout(registry);
  const changes = await knex.transaction((trx) => applyLayout(trx, layout));
  if (options.changeTriggers) {
    const triggered = await installChangeTriggers(knex, registry);
    // Servers caching answers drop them all: what they read may have changed shape.
    if (changes.length) await announceEveryTableChanged(knex);
    changes.push(...triggered.map((table): SchemaChange => ({ kind: 'triggers', table, name: table })));
  }
  for (const change of changes) options.log?.(describeChange(change));
  // A new index on a table that has rows serves index-only scans once the table is vacuumed.
  await vacuumAnalyze(knex, [...new Set(changes.filter((change) => change.kind === 'index').map((change) => change.table))]);
  return changes;
}
