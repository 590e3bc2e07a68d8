/**
 * The query tree → the statement of a request: one SELECT whose rows are the entries' JSON text
 * (in order), wrapped with the count of a list into the response body (compile-body.ts). The page
 * is chosen first in a subquery over the bare rows, and JSON is built only for the rows of the page.
 */
import type { Model } from '../schema/registry.js';
import type { RootQuery } from '../query/tree.js';
import { CompileContext } from './context.js';
import type { Dialect } from './dialect/dialect.js';
import { escapeLike, quoteIdentifier as q } from './dialect/dialect.js';
import { compileFilter } from './compile-filter.js';
import { compileSort, sortJoins } from './compile-sort.js';
import { entryJson } from './compile-selection.js';
import { compileBody, POSITION } from './compile-body.js';

export interface Statement {
  readonly sql: string;
  readonly values: readonly unknown[];
  /**
   * A list's body on an engine that keeps totals (Dialect.knownTotal): `sql` then also hands the
   * list's total out, and this twin takes it instead of counting.
   */
  readonly givenTotal?: GivenTotal;
  /** A list's body on MariaDB with table versions (Dialect.versionedTail): where it takes a known total. */
  readonly versionedTotal?: VersionedTotal;
}

export interface VersionedTotal {
  /** The list's count statement, with the statement's parameters: what a known total is kept under. */
  readonly count: string;
  /** The index in `values` of the known versions' parameter; the known total's is the next. */
  readonly versionsAt: number;
}

export interface GivenTotal {
  /** The same body statement, with the total as the dialect's `knownTotal` parameter. */
  readonly sql: string;
  /** The count the total stands for, with the statement's parameters: what a known total is kept under. */
  readonly count: string;
}

export interface CompiledRequest {
  /** The statement a request runs: one row, the response body and the number of entries (compile-body.ts). */
  readonly body: Statement;
  /** Rows of one column, each the JSON text of one entry, in response order (the body's inner statement, to read on its own). */
  readonly entries: Statement;
}

const ROOT = 't';
const PAGE = 'p';

export function compileRequest(dialect: Dialect, root: RootQuery): CompiledRequest {
  const context = new CompileContext(dialect);
  const entries = compileEntries(context, root, !context.dialect.bodyPieces);
  return {
    entries: { sql: entries, values: [...context.values] },
    // The body's parameters continue the entries' (a findOne's id stays first).
    body: compileBody(context, root, entries, isCounted(root) ? countFrom(context, root) : null),
  };
}

/**
 * What `content-api explain` and the explorer show: the statement a request runs, then the
 * entries and count statements it is built around, on their own to read.
 */
export function explainedStatements(dialect: Dialect, root: RootQuery): { label: string; sql: string; values: readonly unknown[] }[] {
  const compiled = compileRequest(dialect, root);
  return [
    { label: 'statement', sql: compiled.body.sql, values: compiled.body.values },
    ...(compiled.body.givenTotal ? [{ label: 'the statement once its total is known (the count kept while the data is unchanged)', sql: compiled.body.givenTotal.sql, values: compiled.body.values }] : []),
    { label: 'entries (inside the statement)', ...compiled.entries },
    ...(isCounted(root) ? [{ label: 'count (inside the statement)', ...compileCount(dialect, root) }] : []),
  ];
}

/**
 * The statement of the entries' JSON text, one row each, in response order; `aggregated`: the
 * entries will be joined by an aggregate, which on some engines needs their place (`POSITION`).
 */
export function compileEntries(context: CompileContext, root: RootQuery, aggregated = false): string {
  return root.action === 'findOne' ? compileFindOne(context, root) : compileList(context, root, aggregated);
}

/** The page's window as (limit, offset). */
function pageWindow(root: RootQuery): { limit: number; offset: number } {
  const { pagination } = root;
  if (pagination.mode === 'page') return { limit: pagination.pageSize, offset: (pagination.page - 1) * pagination.pageSize };
  return { limit: pagination.limit, offset: pagination.start };
}

/**
 * The page is chosen over narrow rows (the id and the sort values), then joined back to the table
 * for the JSON: sorting and skipping never carry the entries' wide columns.
 */
function compileList(context: CompileContext, root: RootQuery, aggregated: boolean): string {
  const { dialect } = context;
  const entry = dialect.jsonText(entryJson(context, root.model, root.selection, ROOT, root.publicationState, root.shape?.row));
  const sort = compileSort(context, root.sort, ROOT, root.model);
  const conditions = rootConditions(context, root, 'page');
  const { limit, offset } = pageWindow(root);
  const keys = sort.map((term, index) => `${term.expression} AS "__s${index}"`);
  // Ordering by the projected names computes each sort value once per row.
  const innerOrder = [...sort.map((term, index) => `"__s${index}" ${term.direction}`), `${ROOT}."id" ASC`];
  const outerOrder = [
    ...root.sort.map((key, index) => `${dialect.sortable(`${PAGE}."__s${index}"`, key.field.type)} ${sort[index].direction}`),
    `${PAGE}."id" ASC`,
  ];
  const table = q(root.model.tableName);
  const page =
    `SELECT ${[`${ROOT}."id"`, ...keys].join(', ')} FROM ${table} ${ROOT}${sortJoins(sort)}${where(conditions)} ` +
    `ORDER BY ${innerOrder.join(', ')} LIMIT ${context.rowCount(limit)} OFFSET ${context.rowCount(offset)}`;
  const row = dialect.rowById(table, ROOT, `${PAGE}."id"`);
  const joined = [...row.conditions, ...(dialect.checkpoint ? [dialect.checkpoint] : [])];
  const orderBy = `ORDER BY ${outerOrder.join(', ')}`;
  const position = aggregated ? dialect.entryPosition(orderBy) : null;
  return `SELECT ${entry} AS "entry"${position ? `, ${position} AS "${POSITION}"` : ''} FROM (${page}) ${PAGE} ${row.join}${where(joined)} ${orderBy}`;
}

/** Whether the response reports a total (single types are planned without a count). */
function isCounted(root: RootQuery): boolean {
  return root.action === 'find' && root.pagination.withCount;
}

/** The count of a list as a statement of its own, to read or explain (the body counts within). */
export function compileCount(dialect: Dialect, root: RootQuery): Statement {
  const context = new CompileContext(dialect);
  return { sql: `SELECT count(*) AS "total" ${countFrom(context, root)}`, values: context.values };
}

/** `FROM <table> t WHERE …`: the rows a list counts. */
export function countFrom(context: CompileContext, root: RootQuery): string {
  return `FROM ${q(root.model.tableName)} ${ROOT}${where(rootConditions(context, root, 'count'))}`;
}

/**
 * findOne looks the entry up by id in any locale; the publication state still applies (D6).
 * The id is always the first parameter, so a compiled findOne serves every id (FIND_ONE_ID_INDEX).
 */
function compileFindOne(context: CompileContext, root: RootQuery): string {
  const { dialect } = context;
  const id = dialect.typed(context.parameter(root.id), 'integer');
  const entry = dialect.jsonText(entryJson(context, root.model, root.selection, ROOT, root.publicationState, root.shape?.row));
  const conditions = [`${ROOT}."id" = ${id}`];
  if (root.model.draftAndPublish && root.publicationState === 'live') conditions.push(`${ROOT}."published_at" IS NOT NULL`);
  // A findOne takes no filters of the request; these are the role's row rule.
  if (root.filters) conditions.push(compileFilter(context, root.filters, ROOT, root.model));
  if (dialect.checkpoint) conditions.push(dialect.checkpoint);
  return `SELECT ${entry} AS "entry" FROM ${q(root.model.tableName)} ${ROOT}${where(conditions)}`;
}

/** Where a compiled findOne keeps the entry's id among its parameters. */
export const FIND_ONE_ID_INDEX = 0;

/**
 * The conditions every listed entry meets. For the page (`purpose` 'page'), the publication and
 * locale terms are kept from choosing an index: that index serves the count, while the page is
 * cheapest read in id order and stopped after one page.
 */
function rootConditions(context: CompileContext, root: RootQuery, purpose: 'page' | 'count'): string[] {
  const column = (name: string) => (purpose === 'page' ? context.dialect.unindexed(`${ROOT}.${q(name)}`) : `${ROOT}.${q(name)}`);
  const conditions = root.model.draftAndPublish && root.publicationState === 'live' ? [`${column('published_at')} IS NOT NULL`] : [];
  if (root.model.localized && root.locale) {
    const { dialect } = context;
    const locale = `${ROOT}."locale"`;
    if (!root.locale.length) conditions.push('1 = 0');
    else if (purpose === 'page' && dialect.unindexedExactIn) conditions.push(dialect.unindexedExactIn(locale, root.locale.map((code) => context.parameter(code))));
    else conditions.push(`${column('locale')} IN (${root.locale.map((code) => dialect.typed(context.parameter(code), 'string')).join(', ')})`);
  }
  if (root.filters) conditions.push(context.rootConditions(() => compileFilter(context, root.filters!, ROOT, root.model)));
  if (root.search !== null) conditions.push(searchCondition(context, root.model, root.search, root.unsearchable));
  return conditions;
}

/**
 * `_q`: a case-insensitive substring of any searchable text field (never a private or password
 * one, D10), or equality with the id and the numeric fields when the text is a number.
 */
function searchCondition(context: CompileContext, model: Model, text: string, unsearchable: ReadonlySet<string> = new Set()): string {
  const pattern = context.parameter(`%${escapeLike(text)}%`);
  const terms: string[] = [];
  for (const attribute of model.attributes.values()) {
    if (unsearchable.has(attribute.name)) continue;
    if (attribute.kind === 'scalar' && attribute.searchable) {
      terms.push(`LOWER(${ROOT}.${q(attribute.column)}) LIKE LOWER(${pattern}) ESCAPE '\\'`);
    }
  }
  const number = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(number)) {
    const integral = /^-?\d+$/.test(number);
    if (integral && Number.isSafeInteger(Number(number))) terms.push(`${ROOT}."id" = ${context.dialect.typed(context.parameter(Number(number)), 'integer')}`);
    for (const attribute of model.attributes.values()) {
      if (attribute.kind !== 'scalar' || attribute.hidden || unsearchable.has(attribute.name)) continue;
      const exact =
        attribute.type === 'biginteger'
          ? integral && BigInt.asIntN(64, BigInt(number)) === BigInt(number) && number
          : attribute.type === 'integer'
            ? integral && Number.isSafeInteger(Number(number)) && Number(number)
            : null;
      const approximate = attribute.type === 'float' || attribute.type === 'decimal' ? Number(number) : null;
      const value = exact !== null && exact !== false ? exact : approximate;
      // One parameter per column: PostgreSQL infers each parameter's type from its first use.
      if (value !== null) {
        const parameter = context.parameter(context.dialect.parameter(attribute.type, value));
        terms.push(`${ROOT}.${q(attribute.column)} = ${context.dialect.typed(parameter, attribute.type)}`);
      }
    }
  }
  return terms.length ? `(${terms.join(' OR ')})` : '1 = 0';
}

function where(conditions: readonly string[]): string {
  return conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
}
