/**
 * A single type's writes: `PUT /api/<singular>` updates the entry of the asked locale, or creates
 * it when there is none (published, as a POST would be); `DELETE /api/<singular>` deletes it; both
 * need their permission, and an unknown locale is Strapi's ApplicationError.
 */
import { expect } from 'chai';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { serveApi, type ServedApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { insertHomepages, SINGLE_TYPES_ROOT } from './homepages.js';

for (const kind of testDatabaseKinds()) {
  describe(`single type writes (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi;
    before(async function () {
      this.timeout(60_000);
      database = await createTestDatabase(kind.client);
      await syncSchema(database.knex, await loadSchema(SINGLE_TYPES_ROOT));
      await insertHomepages(database.knex, kind.client === 'sqlite');
      served = await serveApi({ root: SINGLE_TYPES_ROOT, database: database.knex, sync: false, resolveRole: (ctx) => ctx.get('x-test-role') || null });
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    const as = (role: string) => ({
      put: (path: string, data: unknown) => served.request.put(path).set('x-test-role', role).send({ data }),
      delete: (path: string) => served.request.delete(path).set('x-test-role', role),
      get: (path: string) => served.request.get(path).set('x-test-role', role),
    });

    it('updates the entry of the default locale, keeping what is not given', async () => {
      const response = await as('writer').put('/api/homepage?populate[promos][fields][0]=title', { headline: 'Hello again', promos: { connect: [{ id: 1, position: { start: true } }] } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.data.id).to.equal(1);
      expect(response.body.data.attributes).to.include({ headline: 'Hello again', locale: 'en' });
      expect(response.body.data.attributes.promos.data.map((promo: { id: number }) => promo.id)).to.deep.equal([1, 2]);
      expect((await as('writer').get('/api/homepage?populate=seo')).body.data.attributes.seo).to.include({ metaTitle: 'Home' });
    });

    it('updates the entry of the asked locale, and refuses a locale the app does not have', async () => {
      const fr = await as('writer').put('/api/homepage?locale=fr', { headline: 'Bonjour' });
      expect([fr.status, fr.body.data.id, fr.body.data.attributes.publishedAt]).to.deep.equal([200, 2, null]);
      const de = await as('writer').put('/api/homepage?locale=de', { headline: 'Hallo' });
      expect([de.status, de.body.error.name]).to.deep.equal([400, 'ApplicationError']);
    });

    it('deletes the entry of a locale, then creates it anew on the next PUT', async () => {
      const deleted = await as('writer').delete('/api/homepage?locale=fr');
      expect([deleted.status, deleted.body.data.id]).to.deep.equal([200, 2]);
      expect((await as('writer').get('/api/homepage?locale=fr&publicationState=preview')).status).to.equal(404);
      expect((await as('writer').delete('/api/homepage?locale=fr')).status).to.equal(404);
      const created = await as('writer').put('/api/homepage?locale=fr', { headline: 'Nouvelle' });
      expect(created.status).to.equal(200);
      expect(created.body.data.id).to.be.above(2);
      expect(created.body.data.attributes).to.include({ headline: 'Nouvelle', locale: 'fr' });
      expect(created.body.data.attributes.publishedAt).to.be.a('string');
    });

    it('needs update and delete', async () => {
      expect((await as('editor').put('/api/homepage', { headline: 'x' })).status).to.equal(403);
      expect((await as('editor').delete('/api/homepage')).status).to.equal(403);
    });
  });
}
