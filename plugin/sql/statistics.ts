/**
 * What the data looks like, for estimating a statement before it runs (estimate.ts): rows per
 * table, link rows per component field and per media field, and the average length of each text
 * and json column. Gathered by the executor like any read (in a read worker on SQLite, under the
 * admission queue and a deadline), after start and again once enough writes have gone by, never
 * on a request's path: until the first gathering completes, nothing is estimated and requests run
 * as they did without.
 */
import { MORPH_TABLE, type Model, type Registry } from '../schema/registry.js';
import type { Executor } from './executor.js';
import { literal, quoteIdentifier as q } from './dialect/dialect.js';

/** Types whose JSON length varies with the row: their average is measured, others are fixed. */
const MEASURED_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'json', 'password']);

/** How long gathering may take (ms); it runs beside the requests, as a heavy statement. */
const GATHER_DEADLINE_MS = 60_000;

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
  /** Whether a gathering has completed: estimates exist only then. */
  ready = false;
  /** Counts the gatherings completed: an estimate made from older figures is made again. */
  generation = 0;

  constructor(
    private readonly executor: Executor,
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

  /** Gathers the figures now (at most one gathering at a time); a failure leaves the previous figures. */
  gather(): Promise<void> {
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
    const attempt = async <T>(read: () => Promise<T>): Promise<T | null> => read().catch(() => null);
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
    const { dialect } = this.executor;
    const measured = [...model.attributes.values()].filter((attribute) => attribute.kind === 'scalar' && MEASURED_TYPES.has(attribute.type));
    const pairs: [string, string][] = [['rows', 'count(*)']];
    for (const attribute of measured) {
      if (attribute.kind !== 'scalar') continue;
      pairs.push([attribute.column, `coalesce(avg(length(${dialect.text(q(attribute.column), attribute.type)})), 0)`]);
    }
    const figures = parsed(await this.single(`SELECT ${dialect.jsonText(dialect.object(pairs))} FROM ${q(model.tableName)}`)) as Record<string, number>;
    const lengths = new Map<string, number>();
    for (const [column, length] of Object.entries(figures)) if (column !== 'rows') lengths.set(column, Number(length));
    return { rows: Number(figures.rows), lengths };
  }

  private async count(table: string): Promise<number> {
    return Number(await this.single(`SELECT count(*) FROM ${q(table)}`));
  }

  /** Rows per value of `columns`, keyed by the values joined with `|`. */
  private async grouped(table: string, columns: readonly string[]): Promise<Map<string, number>> {
    const { dialect } = this.executor;
    const key = columns.map((column) => `coalesce(${q(column)}, '')`).join(` || ${literal('|')} || `);
    const rows = await this.executor.column(
      { sql: `SELECT ${dialect.jsonText(dialect.object([['key', key], ['rows', 'count(*)']]))} FROM ${q(table)} GROUP BY ${columns.map(q).join(', ')}`, values: [] },
      { statements: 0, milliseconds: 0 },
      Date.now() + GATHER_DEADLINE_MS,
    );
    const counts = new Map<string, number>();
    for (const row of rows) {
      const { key: value, rows: count } = parsed(row) as { key: string; rows: number };
      counts.set(value, Number(count));
    }
    return counts;
  }

  private async single(sql: string): Promise<unknown> {
    const [value] = await this.executor.column({ sql, values: [] }, { statements: 0, milliseconds: 0 }, Date.now() + GATHER_DEADLINE_MS);
    return value;
  }
}

/** A JSON value as the executor hands it over: bytes on SQLite (Dialect.jsonText), text on PostgreSQL. */
function parsed(value: unknown): unknown {
  return JSON.parse(typeof value === 'string' ? value : Buffer.from(value as Uint8Array).toString('utf8'));
}
