/**
 * The statements of a write, inside its transaction: rows in and out of the Strapi v4 layout, with
 * values stored as each database stores them (storage/model-values.ts). Knows table and column
 * names through the layout only.
 */
import type { Knex } from 'knex';
import type { DatabaseClient } from '../storage/database.js';
import { describeLayout, type ColumnType } from '../storage/layout.js';
import { formatColumnValue } from '../storage/model-values.js';
import type { Model, Registry } from '../schema/registry.js';
import type { WriteAccess } from '../access/write-access.js';
import { hashPassword } from './password-hash.js';

/** A link-table column that holds the id of a row of some table: deleting that row deletes these links. */
interface LinkReference {
  readonly table: string;
  readonly column: string;
}

/** What every write of one API shares: the layout's column types and which links point at each table. */
export class WriteSchema {
  readonly columnTypes: ReadonlyMap<string, ReadonlyMap<string, ColumnType>>;
  readonly linksTo: ReadonlyMap<string, readonly LinkReference[]>;

  constructor(readonly registry: Registry) {
    const layout = describeLayout(registry);
    this.columnTypes = new Map(layout.tables.map((table) => [table.name, new Map(table.columns.map((column) => [column.name, column.type]))]));
    const linksTo = new Map<string, LinkReference[]>();
    const add = (table: string, reference: LinkReference) => linksTo.set(table, [...(linksTo.get(table) ?? []), reference]);
    for (const model of registry.models.values()) {
      for (const attribute of model.attributes.values()) {
        if (attribute.kind !== 'relation' || !attribute.linkTable) continue;
        const link = attribute.linkTable;
        add(link.ownerTable, { table: link.name, column: link.joinColumn });
        add(link.targetTable, { table: link.name, column: link.inverseJoinColumn });
      }
    }
    this.linksTo = linksTo;
  }
}

export class RowStore {
  constructor(
    readonly trx: Knex.Transaction,
    readonly schema: WriteSchema,
    readonly client: DatabaseClient,
    /** The write's time, for createdAt and updatedAt. */
    readonly now: Date,
    /** What the caller may change: every row the write touches is checked against it. */
    readonly access: WriteAccess,
  ) {}

  get registry(): Registry {
    return this.schema.registry;
  }

  /** A value as `table.column` stores it on this database. */
  stored(table: string, column: string, value: unknown): unknown {
    const type = this.schema.columnTypes.get(table)?.get(column);
    if (!type) throw new Error(`no column ${table}.${column} in the layout`);
    return formatColumnValue(this.client, type, value);
  }

  /** The columns of a row of `model` for attribute values (as write/scalar-values.ts converts them), passwords hashed; stored form comes at insert or update. */
  async columnsOf(model: Model, values: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const row: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) {
      const attribute = model.attributes.get(name);
      if (attribute?.kind !== 'scalar') continue;
      const held = attribute.type === 'password' && typeof value === 'string' ? await hashPassword(value) : value;
      row[attribute.column] = held;
    }
    return row;
  }

  /** Inserts a row and answers its id. */
  async insert(table: string, row: Record<string, unknown>): Promise<number> {
    const [inserted] = (await this.trx(table).insert(this.storedRow(table, row)).returning('id')) as ({ id: number | bigint } | number)[];
    return Number(typeof inserted === 'object' ? inserted.id : inserted);
  }

  async insertMany(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length) await this.trx(table).insert(rows.map((row) => this.storedRow(table, row)));
  }

  async update(table: string, id: number, row: Record<string, unknown>): Promise<void> {
    if (Object.keys(row).length) await this.trx(table).where({ id }).update(this.storedRow(table, row));
  }

  /** Values as the models hold them (Date, boolean, parsed json) → as this database stores them, per column. */
  private storedRow(table: string, row: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, this.stored(table, column, value)]));
  }
}
