/**
 * What the data looks like, for estimating a statement before it runs (estimate.ts): rows per
 * table, link rows per component field and per media field, and the average length of each text
 * and json column. Read cheaply enough to run beside requests: a table's rows are its largest id
 * (an index lookup; ids freed by deletes count, so it errs high), lengths and the share of each
 * field among link rows come from a sample of the newest rows. Gathered after start and again once
 * enough writes have gone by; until the first gathering completes, nothing is estimated.
 */
import type { Knex } from 'knex';
import { rawRows } from '../storage/database.js';
import { MORPH_TABLE, type Model, type Registry } from '../schema/registry.js';
import type { Dialect } from './dialect/dialect.js';
import { quoteIdentifier as q } from './dialect/dialect.js';

/** Types whose JSON length varies with the row: their average is measured, others are fixed. */
const MEASURED_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'json', 'password']);

/** Rows sampled per table for lengths, and per link table for the shares of its fields. */
const SAMPLE_ROWS = 500;

/** Writes after which the figures are gathered again. */
const REFRESH_AFTER_WRITES = 500;

export interface TableFigures {
  readonly rows: number;
  /** Column → average length of its text (measured types only). */
  readonly lengths: ReadonlyMap<string, number>;
}

export class Statistics {
  private tables = new Map<string, TableFigures>();
  /** `<join table>|<field>` and `files_related_morphs|<uid>|<field>` → link rows. */
  private links = new Map<string, number>();
  private writesSince = 0;
  private gathering: Promise<void> | null = null;
  private closed = false;
  /** Whether a gathering has completed: estimates exist only then. */
  ready = false;
  /** Counts the gatherings completed: an estimate made from older figures is made again. */
  generation = 0;

  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
    private readonly registry: Registry,
  ) {}

  table(name: string): TableFigures | undefined {
    return this.tables.get(name);
  }

  /** Rows of a component join table for one field of its owners. */
  componentLinks(table: string, field: string): number {
    return this.links.get(`${table}|${field}`) ?? 0;
  }

  /** Rows of the media morph table for one media attribute. */
  mediaLinks(uid: string, field: string): number {
    return this.links.get(`${MORPH_TABLE}|${uid}|${field}`) ?? 0;
  }

  /**
   * Stops gathering and waits for the gathering under way, if any, to finish its statement: the
   * database may then be closed without a statement waiting on a closed pool (which knex leaves
   * pending until its acquire timeout, keeping the process alive for a minute).
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.gathering;
  }

  /** Gathers the figures now (at most one gathering at a time); a failure leaves the previous figures. */
  gather(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.gathering ??= this.collect()
      .then(() => {
        this.ready = true;
        this.generation += 1;
      })
      .catch(() => undefined)
      .finally(() => {
        this.gathering = null;
      });
    return this.gathering;
  }

  /** Counts a write; past enough of them, gathers again in the background. */
  written(): void {
    this.writesSince += 1;
    if (this.writesSince < REFRESH_AFTER_WRITES) return;
    this.writesSince = 0;
    void this.gather();
  }

  private async collect(): Promise<void> {
    const tables = new Map<string, TableFigures>();
    const links = new Map<string, number>();
    const models = [...this.registry.models.values()];
    // A table that cannot be read (not created yet on a database served without sync) is left
    // out: estimates that would need it are not made.
    // Once closed, nothing more is read: the figures are not needed any more.
    const attempt = async <T>(read: () => Promise<T>): Promise<T | null> => (this.closed ? null : read().catch(() => null));
    for (const model of models) {
      const figures = await attempt(() => this.measureTable(model));
      if (figures) tables.set(model.tableName, figures);
    }
    const linkTables = new Set<string>();
    for (const model of models) {
      for (const attribute of model.attributes.values()) if (attribute.kind === 'relation') linkTables.add(attribute.link.table);
    }
    for (const table of linkTables) {
      const rows = await attempt(() => this.count(table));
      if (rows !== null) tables.set(table, { rows, lengths: new Map() });
    }
    for (const model of models) {
      const table = model.componentJoinTable;
      if (!table) continue;
      for (const [field, rows] of (await attempt(() => this.grouped(table, ['field']))) ?? []) links.set(`${table}|${field}`, rows);
    }
    for (const [key, rows] of (await attempt(() => this.grouped(MORPH_TABLE, ['related_type', 'field']))) ?? []) links.set(`${MORPH_TABLE}|${key}`, rows);
    this.tables = tables;
    this.links = links;
  }

  private async measureTable(model: Model): Promise<TableFigures> {
    const measured = [...model.attributes.values()].flatMap((attribute) => (attribute.kind === 'scalar' && MEASURED_TYPES.has(attribute.type) ? [attribute] : []));
    const rows = await this.count(model.tableName);
    const lengths = new Map<string, number>();
    if (!measured.length || !rows) return { rows, lengths };
    const averages = measured.map((attribute, index) => `avg(length(${this.dialect.text(`s.${q(attribute.column)}`, attribute.type)})) AS "l${index}"`);
    const sample = `SELECT ${measured.map((attribute) => q(attribute.column)).join(', ')} FROM ${q(model.tableName)} ORDER BY "id" DESC LIMIT ${SAMPLE_ROWS}`;
    const [figures] = await this.rows(`SELECT ${averages.join(', ')} FROM (${sample}) s`);
    measured.forEach((attribute, index) => lengths.set(attribute.column, Number(figures?.[`l${index}`] ?? 0)));
    return { rows, lengths };
  }

  /** The table's largest id: its rows, counting those deleted since (an index lookup, not a scan). */
  private async count(table: string): Promise<number> {
    const [row] = await this.rows(`SELECT max("id") AS "rows" FROM ${q(table)}`);
    return Number(row?.rows ?? 0);
  }

  /** Rows per value of `columns` (keyed by the values joined with `|`), in the proportions of the newest rows. */
  private async grouped(table: string, columns: readonly string[]): Promise<Map<string, number>> {
    const total = await this.count(table);
    const counts = new Map<string, number>();
    if (!total) return counts;
    const names = columns.map((column) => q(column)).join(', ');
    const sampled = await this.rows(`SELECT ${names}, count(*) AS "rows" FROM (SELECT ${names} FROM ${q(table)} ORDER BY "id" DESC LIMIT ${SAMPLE_ROWS}) s GROUP BY ${names}`);
    const sampleSize = sampled.reduce((sum, row) => sum + Number(row.rows), 0);
    for (const row of sampled) counts.set(columns.map((column) => String(row[column] ?? '')).join('|'), (Number(row.rows) / sampleSize) * total);
    return counts;
  }

  private async rows(sql: string): Promise<Record<string, unknown>[]> {
    return rawRows(this.knex, await this.knex.raw(sql));
  }
}
