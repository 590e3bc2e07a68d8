/**
 * The base of every generated Objection model: one class per table of the layout, holding its
 * rows with the column names as property names. It converts values between what the model holds
 * and what the bound database stores (see model-values.ts).
 */
import type { Knex } from 'knex';
import { Model, type Pojo, type QueryBuilder } from 'objection';
import { clientOf, type DatabaseClient } from './database.js';
import type { ColumnType } from './layout.js';
import { formatColumnValue, parseColumnValue } from './model-values.js';

/** A row of one table of the layout; generated subclasses set the table, its column types and relations. */
export class TableModel extends Model {
  static override idColumn = 'id';
  /**
   * Graph inserts run one query at a time: a transaction is one connection, where parallel
   * queries would only queue (and pg warns about them).
   */
  static concurrency = 1;
  /** json columns are converted by column type below, not by Objection's guess from the values. */
  static override jsonAttributes: string[] = [];
  /** The type of every column of the table, by column name. */
  static columnTypes: ReadonlyMap<string, ColumnType> = new Map();
  /** The uid of the content type, component or file type whose own table this is; null otherwise. */
  static uid: string | null = null;

  /** Every table of the layout has an integer id. */
  declare id: number;
  [column: string]: unknown;

  /**
   * Integers of SQLite reads arrive as BigInt (better-sqlite3's safe integers), so bigintegers
   * above 2^53 stay exact; parsing turns every other integer back into a number.
   */
  static onCreateQuery(builder: QueryBuilder<Model>): void {
    builder.onBuildKnex((knexBuilder, query) => {
      if (query.isFind() && clientOf(query.knex()) === 'sqlite') knexBuilder.options({ safeIntegers: true });
    });
  }

  /** The client of the knex instance the model set is bound to. */
  static databaseClient(): DatabaseClient {
    const knex: Knex | undefined = this.knex();
    if (!knex) throw new Error(`model ${this.name} is not bound to a database; pass { knex } to buildModels`);
    return clientOf(knex);
  }

  override $formatDatabaseJson(json: Pojo): Pojo {
    const formatted = super.$formatDatabaseJson(json);
    const modelClass = this.constructor as typeof TableModel;
    const client = modelClass.databaseClient();
    for (const [column, type] of modelClass.columnTypes) {
      if (column in formatted) formatted[column] = formatColumnValue(client, type, formatted[column]);
    }
    return formatted;
  }

  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    const modelClass = this.constructor as typeof TableModel;
    const client = modelClass.databaseClient();
    for (const [key, value] of Object.entries(parsed)) {
      const type = modelClass.columnTypes.get(key);
      // Keys beyond the table's columns (join-table extras, Objection's join keys) are integers or as read.
      parsed[key] = type ? parseColumnValue(client, type, value) : typeof value === 'bigint' ? Number(value) : value;
    }
    return parsed;
  }
}

/**
 * A row of a `<table>_components` join table. Each component type the owner uses is a relation
 * of the row, named after the uid (`shared.rich-text` → `sharedRichText`), holding the component
 * only when the row's `component_type` is that uid: that is how dynamic zones are read.
 */
export class ComponentJoinModel extends TableModel {
  /** The relation name of each component uid. */
  static componentRelations: ReadonlyMap<string, string> = new Map();

  /** The component this row points at, once fetched through its relation (e.g. `blocks.[sharedQuote]`). */
  $component(): TableModel | null | undefined {
    const name = (this.constructor as typeof ComponentJoinModel).componentRelations.get(this.component_type as string);
    return name ? (this[name] as TableModel | null | undefined) : undefined;
  }
}
