/**
 * The query tree → the statements of a request: one SELECT whose rows are the entries' JSON text
 * (in order), plus one COUNT when the list reports a total. The page is chosen first in a
 * subquery over the bare rows, and JSON is built only for the rows of the page.
 */
import type { Model } from '../schema/registry.js';
import type { RootQuery } from '../query/tree.js';
import { CompileContext } from './context.js';
import type { Dialect } from './dialect/dialect.js';
import { escapeLike, quoteIdentifier as q } from './dialect/dialect.js';
import { compileFilter } from './compile-filter.js';
import { compileSort, sortJoins } from './compile-sort.js';
import { entryJson } from './compile-selection.js';

export interface Statement {
  readonly sql: string;
  readonly values: readonly unknown[];
}

export interface CompiledRequest {
  /** Rows of one column, each the JSON text of one entry, in response order. */
  readonly entries: Statement;
  /** One row, one column: the total number of matching entries; null when not counted. */
  readonly count: Statement | null;
}

const ROOT = 't';
const PAGE = 'p';

export function compileRequest(dialect: Dialect, root: RootQuery): CompiledRequest {
  if (root.action === 'findOne') return { entries: compileFindOne(dialect, root), count: null };
  return { entries: compileList(dialect, root), count: root.pagination.withCount ? compileCount(dialect, root) : null };
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
function compileList(dialect: Dialect, root: RootQuery): Statement {
  const context = new CompileContext(dialect);
  const entry = dialect.jsonText(entryJson(context, root.model, root.selection, ROOT, root.publicationState));
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
    `ORDER BY ${innerOrder.join(', ')} LIMIT ${context.parameter(limit)} OFFSET ${context.parameter(offset)}`;
  // CROSS JOIN keeps the page as the outer loop on SQLite: one lookup by id per entry.
  const joined = [`${ROOT}."id" = ${PAGE}."id"`, ...(dialect.checkpoint ? [dialect.checkpoint] : [])];
  const sql = `SELECT ${entry} AS "entry" FROM (${page}) ${PAGE} CROSS JOIN ${table} ${ROOT}${where(joined)} ORDER BY ${outerOrder.join(', ')}`;
  return { sql, values: context.values };
}

function compileCount(dialect: Dialect, root: RootQuery): Statement {
  const context = new CompileContext(dialect);
  const conditions = rootConditions(context, root, 'count');
  return { sql: `SELECT count(*) AS "total" FROM ${q(root.model.tableName)} ${ROOT}${where(conditions)}`, values: context.values };
}

/**
 * findOne looks the entry up by id in any locale; the publication state still applies (D6).
 * The id is always the first parameter, so a compiled findOne serves every id (FIND_ONE_ID_INDEX).
 */
function compileFindOne(dialect: Dialect, root: RootQuery): Statement {
  const context = new CompileContext(dialect);
  const id = dialect.typed(context.parameter(root.id), 'integer');
  const entry = dialect.jsonText(entryJson(context, root.model, root.selection, ROOT, root.publicationState));
  const conditions = [`${ROOT}."id" = ${id}`];
  if (root.model.draftAndPublish && root.publicationState === 'live') conditions.push(`${ROOT}."published_at" IS NOT NULL`);
  if (dialect.checkpoint) conditions.push(dialect.checkpoint);
  return { sql: `SELECT ${entry} AS "entry" FROM ${q(root.model.tableName)} ${ROOT}${where(conditions)}`, values: context.values };
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
    conditions.push(root.locale.length ? `${column('locale')} IN (${root.locale.map((code) => context.parameter(code)).join(', ')})` : '1 = 0');
  }
  if (root.filters) conditions.push(compileFilter(context, root.filters, ROOT, root.model));
  if (root.search !== null) conditions.push(searchCondition(context, root.model, root.search));
  return conditions;
}

/**
 * `_q`: a case-insensitive substring of any searchable text field (never a private or password
 * one, D10), or equality with the id and the numeric fields when the text is a number.
 */
function searchCondition(context: CompileContext, model: Model, text: string): string {
  const pattern = context.parameter(`%${escapeLike(text)}%`);
  const terms: string[] = [];
  for (const attribute of model.attributes.values()) {
    if (attribute.kind === 'scalar' && attribute.searchable) {
      terms.push(`LOWER(${ROOT}.${q(attribute.column)}) LIKE LOWER(${pattern}) ESCAPE '\\'`);
    }
  }
  const number = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(number)) {
    const integral = /^-?\d+$/.test(number);
    if (integral && Number.isSafeInteger(Number(number))) terms.push(`${ROOT}."id" = ${context.dialect.typed(context.parameter(Number(number)), 'integer')}`);
    for (const attribute of model.attributes.values()) {
      if (attribute.kind !== 'scalar' || attribute.hidden) continue;
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
