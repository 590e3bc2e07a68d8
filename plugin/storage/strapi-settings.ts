/**
 * Settings Strapi keeps in its own database, read when serving one: the i18n default locale
 * (`plugin_i18n_default_locale` in `strapi_core_store_settings`) and its locales (`i18n_locale`).
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';

/** The default locale a Strapi database was configured with, or null when it has none. */
export async function storedDefaultLocale(knex: Knex): Promise<string | null> {
  if (!(await knex.schema.hasTable('strapi_core_store_settings'))) return null;
  const row = (await knex('strapi_core_store_settings').where({ key: 'plugin_i18n_default_locale' }).first('value')) as { value?: unknown } | undefined;
  if (typeof row?.value !== 'string') return null;
  try {
    const locale: unknown = JSON.parse(row.value);
    return typeof locale === 'string' && locale ? locale : null;
  } catch {
    return null;
  }
}

/**
 * The locales entries may be written in: those a Strapi database was configured with
 * (`i18n_locale`); without that table (a database `copy` moved, or one `sync` made), the
 * default locale and those the content already uses.
 */
export async function storedLocales(knex: Knex, registry: Registry): Promise<string[]> {
  const codes = new Set([registry.i18n.defaultLocale]);
  const add = (rows: { code: unknown }[]) => rows.forEach((row) => typeof row.code === 'string' && row.code && codes.add(row.code));
  if (await knex.schema.hasTable('i18n_locale')) {
    add((await knex('i18n_locale').select('code')) as { code: unknown }[]);
    return [...codes];
  }
  for (const model of registry.contentTypes) {
    if (model.localized) add((await knex(model.tableName).distinct({ code: 'locale' })) as { code: unknown }[]);
  }
  return [...codes];
}
