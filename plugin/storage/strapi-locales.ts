/**
 * The i18n locales an API serves: `GET /i18n/locales` lists them, and writes take only their codes.
 * One source for both: the codes of the `locales` option when given, else those of Strapi's
 * `i18n_locale` table (an existing Strapi database), else the default locale and the codes the
 * content uses. A code the table holds is answered with its row (id, name, dates); any other is
 * described from its code, with no dates, since nothing recorded when it was made.
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import type { ColumnLayout, TableLayout } from './layout.js';
import { clientOf } from './database.js';
import { parseColumnValue } from './model-values.js';

export const LOCALE_TABLE = 'i18n_locale';

/** A locale as Strapi's `plugin::i18n.locale` holds it. */
export interface LocaleEntry {
  readonly id: number;
  readonly name: string | null;
  readonly code: string;
  readonly createdAt: Date | null;
  readonly updatedAt: Date | null;
}

const column = (name: string, type: ColumnLayout['type']): ColumnLayout => ({ name, type, nullable: name !== 'id' });

/**
 * Strapi 4.26's `i18n_locale`, for `copy`: a database moved from Strapi keeps its locales. The
 * creator columns point at admin users, which are not copied: they are kept as plain integers.
 */
export const LOCALE_TABLE_LAYOUT: TableLayout = {
  name: LOCALE_TABLE,
  role: 'model',
  uid: null,
  columns: [column('id', 'increments'), column('name', 'string'), column('code', 'string'), column('created_at', 'datetime'), column('updated_at', 'datetime'), column('created_by_id', 'integer'), column('updated_by_id', 'integer')],
  indexes: [],
  foreignKeys: [],
};

/** `English (en)`, `English (United Kingdom) (en-GB)`: the name Strapi's list of locales gives a code. */
export function describeLocale(code: string): string {
  try {
    const name = new Intl.DisplayNames('en', { type: 'language', languageDisplay: 'standard' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    // Not a language tag Intl knows: the code says it best.
    return code;
  }
}

async function tableRows(knex: Knex): Promise<LocaleEntry[] | null> {
  if (!(await knex.schema.hasTable(LOCALE_TABLE))) return null;
  const rows = (await knex(LOCALE_TABLE).select('id', 'name', 'code', 'created_at', 'updated_at').orderBy('id')) as Record<string, unknown>[];
  const client = clientOf(knex);
  const date = (value: unknown) => (parseColumnValue(client, 'datetime', value) as Date | null | undefined) ?? null;
  return rows
    .filter((row) => typeof row.code === 'string' && row.code !== '')
    .map((row) => ({ id: Number(row.id), name: typeof row.name === 'string' ? row.name : null, code: row.code as string, createdAt: date(row.created_at), updatedAt: date(row.updated_at) }));
}

async function contentCodes(knex: Knex, registry: Registry): Promise<string[]> {
  const codes = new Set([registry.i18n.defaultLocale]);
  for (const model of registry.contentTypes) {
    if (!model.localized) continue;
    for (const { code } of (await knex(model.tableName).distinct({ code: 'locale' }).orderBy('locale')) as { code: unknown }[]) if (typeof code === 'string' && code) codes.add(code);
  }
  return [...codes];
}

/** The locales, in the table's order then the order given; `given` is the `locales` option. */
export async function readLocaleEntries(knex: Knex, registry: Registry, given?: readonly string[]): Promise<LocaleEntry[]> {
  const rows = await tableRows(knex);
  const codes = given ? [...new Set(given)] : rows ? [...new Set([...rows.map((row) => row.code), registry.i18n.defaultLocale])] : await contentCodes(knex, registry);
  const byCode = new Map((rows ?? []).map((row) => [row.code, row]));
  let nextId = Math.max(0, ...(rows ?? []).map((row) => row.id));
  const entries = codes.map((code) => byCode.get(code) ?? { id: ++nextId, name: describeLocale(code), code, createdAt: null, updatedAt: null });
  return entries.sort((a, b) => a.id - b.id);
}
