/**
 * How Strapi 4.26.2 checks drafts and new localizations, asked of the reference with these
 * attributes added to the conformance app's article (a required localized title, a minLength, a
 * required repeatable component, a required single component, a required relation, a required
 * attribute that is not localized):
 *
 * - an entry created with `publishedAt: null`, or a draft being updated (publishing it included),
 *   is saved unfinished: `required` holds only for repeatable components and zones, which must be
 *   given (an empty list is a value), and `minLength` not at all;
 * - a published entry needs every required attribute, an empty list counting as given;
 * - a new localization is checked as a published entry, its source's attributes that are not
 *   localized counting as given.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';

const ROOT = join(repoRoot, 'test', 'fixtures', 'apps', 'drafts');

for (const kind of testDatabaseKinds()) {
  describe(`draft checks, as Strapi's (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi;
    before(async function () {
      this.timeout(60_000);
      database = await createTestDatabase(kind.client);
      await syncSchema(database.knex, await loadSchema(ROOT));
      served = await serveApi({ root: ROOT, database: database.knex, sync: false, locales: ['en', 'fr'], resolveRole: () => 'writer' });
      expect((await served.request.post('/api/topics').send({ data: { name: 'One' } })).status).to.equal(200);
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    /** The status and the paths of the errors, as the reference's answer gives them. */
    async function send(method: 'post' | 'put', path: string, body: object): Promise<{ status: number; errors: unknown[]; id?: number }> {
      const response = await served.request[method](path).send(body);
      const errors = (response.body.error?.details?.errors ?? []).map((error: { path: unknown[] }) => error.path);
      return { status: response.status, errors, id: response.body.data?.id ?? response.body.id };
    }

    let draft: number;
    let published: number;

    it('a published entry needs every required attribute', async () => {
      expect(await send('post', '/api/stories', { data: { slug: 'x1' } })).to.deep.include({ status: 400, errors: [['title'], ['steps'], ['box'], ['mainTopic'], ['code']] });
    });

    it('a draft needs its repeatable components and zones only', async () => {
      expect(await send('post', '/api/stories', { data: { slug: 'x2', publishedAt: null } })).to.deep.include({ status: 400, errors: [['steps']] });
      const created = await send('post', '/api/stories', { data: { slug: 'x3', publishedAt: null, subtitle: 'ab', steps: [] } });
      expect(created.status).to.equal(200);
      draft = created.id!;
    });

    it('takes an empty list for a required repeatable component of a published entry', async () => {
      const created = await send('post', '/api/stories', { data: { slug: 'x4', title: 'T', code: 'c', subtitle: 'abcdef', steps: [], box: { label: 'l', url: 'http://a.b' }, mainTopic: 1 } });
      expect(created.status).to.equal(200);
      published = created.id!;
    });

    it('updates a draft as a draft, and a published entry with every check', async () => {
      expect(await send('put', `/api/stories/${draft}`, { data: { title: null, subtitle: 'xy', box: null, mainTopic: null } })).to.deep.include({ status: 200 });
      expect(await send('put', `/api/stories/${published}`, { data: { title: null, subtitle: 'xy' } })).to.deep.include({ status: 400, errors: [['title'], ['subtitle']] });
      expect(await send('put', `/api/stories/${draft}`, { data: { steps: null } })).to.deep.include({ status: 400, errors: [['steps']] });
    });

    it('publishes a draft with its values missing', async () => {
      const response = await served.request.put(`/api/stories/${draft}`).send({ data: { publishedAt: '2024-01-01T00:00:00.000Z' } });
      expect(response.status).to.equal(200);
      expect(response.body.data.attributes).to.include({ title: null, publishedAt: '2024-01-01T00:00:00.000Z' });
    });

    it("checks a new localization as a published entry, with its source's shared attributes given", async () => {
      const localization = await send('post', `/api/stories/${published}/localizations`, { locale: 'fr', subtitle: 'ab' });
      expect(localization).to.deep.include({ status: 400, errors: [['title'], ['subtitle'], ['steps'], ['box'], ['mainTopic']] });
    });
  });
}
