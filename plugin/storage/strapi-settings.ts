/**
 * Settings Strapi keeps in its own database, read when serving one: the i18n default locale
 * (`plugin_i18n_default_locale` in `strapi_core_store_settings`); its locales: strapi-locales.ts.
 */
import type { Knex } from 'knex';

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
