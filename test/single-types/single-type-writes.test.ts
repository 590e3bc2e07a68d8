/**
 * A single type's writes: `PUT /api/<singular>` updates the entry of the asked locale (another
 * locale's entry is a localization, never made by a PUT); `DELETE /api/<singular>` deletes it;
 * both need their permission. The recorded cases are in single-type-replay.test.ts.
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
      served = await serveApi({ root: SINGLE_TYPES_ROOT, database: database.knex, sync: false, locales: ['en', 'fr'], resolveRole: (ctx) => ctx.get('x-test-role') || null });
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

    it('updates the entry of the asked locale, and creates none in a locale without one', async () => {
      const fr = await as('writer').put('/api/homepage?locale=fr', { headline: 'Bonjour' });
      expect([fr.status, fr.body.data.id, fr.body.data.attributes.publishedAt]).to.deep.equal([200, 2, null]);
      const de = await as('writer').put('/api/homepage?locale=de', { headline: 'Hallo' });
      expect([de.status, de.body.error]).to.deep.equal([400, { status: 400, name: 'ValidationError', message: 'singleType.alreadyExists', details: {} }]);
    });

    it('deletes a draft only with preview, answering the bare entry; the locale comes back as a localization', async () => {
      expect((await as('writer').delete('/api/homepage?locale=fr')).status).to.equal(404);
      const deleted = await as('writer').delete('/api/homepage?locale=fr&publicationState=preview&populate=*');
      expect([deleted.status, deleted.body.data.id, Object.keys(deleted.body.data.attributes)]).to.deep.equal([
        200, 2, ['headline', 'title', 'createdAt', 'updatedAt', 'publishedAt', 'locale'],
      ]);
      expect((await as('writer').get('/api/homepage?locale=fr&publicationState=preview')).status).to.equal(404);
      expect((await as('writer').put('/api/homepage?locale=fr', { headline: 'Nouvelle' })).status).to.equal(400);
      const created = await served.request.post('/api/homepage/localizations').set('x-test-role', 'reference').send({ locale: 'fr', title: 'Accueil' });
      expect(created.status).to.equal(200);
      expect(created.body).to.include({ locale: 'fr', title: 'Accueil', publishedAt: null });
      expect(created.body.localizations.map((entry: { id: number }) => entry.id)).to.deep.equal([1]);
    });

    it('makes one first entry when two PUTs race for it', async () => {
      for (const path of ['/api/homepage?locale=fr&publicationState=preview', '/api/homepage?publicationState=preview']) {
        expect((await as('writer').delete(path)).status).to.equal(200);
      }
      const answers = await Promise.all(['One', 'Two'].map((headline) => as('writer').put('/api/homepage', { headline })));
      // The later one updates the entry the other made, or (when both looked before either wrote) is refused.
      for (const answer of answers) expect(answer.status === 200 || answer.body.error.message === 'singleType.alreadyExists', JSON.stringify(answer.body)).to.equal(true);
      expect((await database.knex('homepages').count({ n: '*' }))[0]!.n).to.satisfy((n: unknown) => Number(n) === 1);
    });

    it('needs update and delete', async () => {
      expect((await as('editor').put('/api/homepage', { headline: 'x' })).status).to.equal(403);
      expect((await as('editor').delete('/api/homepage')).status).to.equal(403);
    });
  });
}
