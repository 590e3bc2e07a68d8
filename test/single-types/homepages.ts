/**
 * The single-types test app (test/fixtures/apps/single-types) and its rows: a localized,
 * draft-and-publish homepage with a relation and a component.
 */
import { join } from 'node:path';
import type { Knex } from 'knex';
import { repoRoot } from '../support/api.js';

export const SINGLE_TYPES_ROOT = join(repoRoot, 'test', 'fixtures', 'apps', 'single-types');

/** en published, fr draft only, linked both ways; two promos; an seo component on the en entry. */
export async function insertHomepages(knex: Knex, sqlite: boolean): Promise<void> {
  // UTC wall-clock text: MariaDB refuses an ISO `T…Z` in a datetime column.
  const at = (iso: string) => (sqlite ? Date.parse(iso) : iso.replace('T', ' ').replace('Z', ''));
  await knex('homepages').insert([
    { id: 1, headline: 'Welcome', secret: 's3cret', locale: 'en', created_at: at('2024-01-01T00:00:00Z'), updated_at: at('2024-01-02T00:00:00Z'), published_at: at('2024-01-03T00:00:00Z') },
    { id: 2, headline: 'Bienvenue', secret: 'x', locale: 'fr', created_at: at('2024-01-01T00:00:00Z'), updated_at: at('2024-01-02T00:00:00Z'), published_at: null },
  ]);
  await knex('homepages_localizations_links').insert([
    { homepage_id: 1, inv_homepage_id: 2, homepage_order: 1 },
    { homepage_id: 2, inv_homepage_id: 1, homepage_order: 1 },
  ]);
  await knex('promos').insert([
    { id: 1, title: 'Spring' },
    { id: 2, title: 'Summer' },
  ]);
  await knex('homepages_promos_links').insert([
    { homepage_id: 1, promo_id: 2, promo_order: 1 },
    { homepage_id: 1, promo_id: 1, promo_order: 2 },
  ]);
  await knex('components_parts_seos').insert({ id: 1, meta_title: 'Home' });
  await knex('homepages_components').insert({ entity_id: 1, component_id: 1, component_type: 'parts.seo', field: 'seo', order: null });
  // Rows inserted with their ids leave PostgreSQL's sequences behind: new rows come after them
  // (MariaDB's AUTO_INCREMENT follows inserted ids by itself).
  if (!sqlite && knex.client.config.client === 'pg') {
    for (const table of ['homepages', 'promos', 'components_parts_seos']) {
      await knex.raw(`SELECT setval(pg_get_serial_sequence(?, 'id'), (SELECT MAX(id) FROM ??))`, [table, table]);
    }
  }
}

