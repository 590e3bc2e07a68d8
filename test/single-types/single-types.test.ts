/**
 * Single types: `GET /api/<singularName>` answers the one entry `{ data: { id, attributes },
 * meta: {} }` in the asked locale and publication state, with fields and populate, or a 404.
 */
import { expect } from 'chai';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { serveApi, statementsOf, type ServedApi } from '../support/api.js';
import { insertHomepages, SINGLE_TYPES_ROOT as ROOT } from './homepages.js';

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
            title: null,
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
