/**
 * Single types: `GET /api/<singularName>` answers the one entry `{ data: { id, attributes },
 * meta: {} }` in the asked locale and publication state, with fields and populate, or a 404.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { repoRoot, serveApi, statementsOf, type ServedApi } from '../support/api.js';

const ROOT = join(repoRoot, 'test', 'fixtures', 'apps', 'single-types');

/** en published, fr draft only, linked both ways; two promos; an seo component on the en entry. */
async function insertHomepages(knex: Knex, sqlite: boolean): Promise<void> {
  const at = (iso: string) => (sqlite ? Date.parse(iso) : iso);
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
}

for (const kind of testDatabaseKinds()) {
  describe(`single types (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi;
    before(async function () {
      this.timeout(60_000);
      database = await createTestDatabase(kind.client);
      await syncSchema(database.knex, await loadSchema(ROOT));
      await insertHomepages(database.knex, kind.client === 'sqlite');
      served = await serveApi({ root: ROOT, database: database.knex, sync: false, resolveRole: (ctx) => ctx.get('x-test-role') || null });
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    it('answers the entry of the default locale, published, at the singular route', async () => {
      const response = await served.request.get('/api/homepage');
      expect(response.status).to.equal(200);
      expect(statementsOf(response)).to.equal(1);
      expect(response.body).to.deep.equal({
        data: {
          id: 1,
          attributes: {
            headline: 'Welcome',
            createdAt: '2024-01-01T00:00:00.000Z',
            updatedAt: '2024-01-02T00:00:00.000Z',
            publishedAt: '2024-01-03T00:00:00.000Z',
            locale: 'en',
          },
        },
        meta: {},
      });
    });

    it('populates relations, components and localizations, with fields', async () => {
      const response = await served.request.get('/api/homepage?fields[0]=headline&populate[promos][fields][0]=title&populate[seo]=true&populate[localizations][fields][0]=headline');
      expect(response.body.data.attributes).to.deep.equal({
        headline: 'Welcome',
        promos: { data: [{ id: 2, attributes: { title: 'Summer' } }, { id: 1, attributes: { title: 'Spring' } }] },
        seo: { id: 1, metaTitle: 'Home' },
        localizations: { data: [] },
      });
    });

    it('is a 404 where the locale has no published entry, and a draft needs preview', async () => {
      expect((await served.request.get('/api/homepage?locale=fr')).status).to.equal(404);
      expect((await served.request.get('/api/homepage?locale=de')).status).to.equal(404);
      expect((await served.request.get('/api/homepage?locale=fr&publicationState=preview')).status).to.equal(403);
      const draft = await served.request.get('/api/homepage?locale=fr&publicationState=preview').set('x-test-role', 'editor');
      expect(draft.status).to.equal(200);
      expect(draft.body.data.attributes).to.include({ headline: 'Bienvenue', publishedAt: null });
    });

    it('has no findOne route and no plural route', async () => {
      expect((await served.request.get('/api/homepage/1')).status).to.equal(404);
      expect((await served.request.get('/api/homepages')).status).to.equal(404);
    });

    it('validates its query like any read', async () => {
      const response = await served.request.get('/api/homepage?fields[0]=secret');
      expect(response.status).to.equal(400);
      expect(response.body.error.details.path).to.equal('fields[0]');
    });
  });
}
