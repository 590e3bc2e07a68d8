/**
 * The demo data read back through the HTTP API with Strapi v4's shapes: populated media (with
 * formats), relations, components and the dynamic zone, French localizations, drafts hidden
 * unless previewed, exact bigintegers, booleans and json values, self relations of categories,
 * restaurants' components, users with their roles.
 */
import { expect } from 'chai';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { createSeededDatabase, type SeededDatabase } from './seeded.js';

const DRAFTS = [11, 16, 22, 24];

type Body = Record<string, any>;

for (const kind of testDatabaseKinds()) {
  describe(`demo data through the API (${kind.name})`, function () {
    this.timeout(120_000);
    let seeded: SeededDatabase;
    let visitor: ServedApi;
    let editor: ServedApi;
    const get = async (served: ServedApi, path: string): Promise<Body> => {
      const response = await served.request.get(path);
      expect(response.status, `${path}: ${response.text}`).to.equal(200);
      return response.body;
    };
    before(async () => {
      seeded = await createSeededDatabase(kind.client);
      visitor = await serveApi({ root: repoRoot, database: seeded.database.url, sync: false });
      editor = await serveApi({ root: repoRoot, database: seeded.database.url, sync: false, resolveRole: () => 'editor' });
    });
    after(async () => {
      await visitor?.close();
      await editor?.close();
      await seeded?.database.drop();
    });

    it('lists the published English articles; drafts only in preview', async () => {
      const live = await get(visitor, '/api/articles?pagination[pageSize]=100&fields[0]=title');
      expect(live.meta.pagination.total).to.equal(20);
      expect(live.data.map((entry: Body) => entry.id)).to.not.include.members(DRAFTS);
      expect((await visitor.request.get(`/api/articles/${DRAFTS[0]}`)).status).to.equal(404);
      const preview = await get(editor, '/api/articles?publicationState=preview&pagination[pageSize]=100&filters[publishedAt][$null]=true&fields[0]=title');
      expect(preview.data.map((entry: Body) => entry.id)).to.deep.equal(DRAFTS);
      const draft = await get(editor, `/api/articles/${DRAFTS[0]}?publicationState=preview`);
      expect(draft.data.attributes.publishedAt).to.equal(null);
    });

    it('populate=* fills media, relations, components and the dynamic zone of the first article', async () => {
      const { attributes } = (await get(visitor, '/api/articles/1?populate=*')).data;
      // jsonb keeps object keys in its own order on PostgreSQL, as it does under Strapi.
      expect(attributes.headerImage.data.attributes.formats).to.have.all.keys('thumbnail', 'small', 'medium');
      expect(attributes.headerImage.data.attributes.url).to.match(/^\/uploads\/lisbon_tram_[0-9a-f]{10}\.jpg$/);
      expect(attributes.gallery.data.map((file: Body) => file.attributes.mime)).to.deep.equal(['image/jpeg', 'application/pdf', 'video/mp4', 'audio/mpeg']);
      expect(attributes.category.data.attributes.name).to.equal('Street Food');
      expect(attributes.categories.data.map((category: Body) => category.attributes.name)).to.deep.equal(['Street Food', 'City Guides', 'Travel']);
      expect(attributes.featuredIn.data.attributes.name).to.equal('Street Food');
      expect(attributes.author.data.attributes).to.include({ username: 'amelie.laurent', confirmed: true, blocked: false });
      expect(attributes.seo).to.include({ metaTitle: 'A Weekend of Street Food in Lisbon', preventIndexing: false });
      expect(attributes.links).to.have.length(2);
      for (const link of attributes.links) expect(link.isExternal).to.be.a('boolean');
      expect(attributes.related).to.include({ heading: 'More about Street Food' });
      expect(attributes.blocks.map((block: Body) => block.__component)).to.deep.equal(['shared.rich-text', 'shared.quote', 'shared.media', 'shared.slider', 'shared.quote']);
      expect(attributes.localizations.data.map((entry: Body) => entry.attributes.locale)).to.deep.equal(['fr']);
      expect(attributes).to.not.have.any.keys('relatedRestaurants', 'internalNotes', 'accessCode');
      const asEditor = (await get(editor, '/api/articles/1?populate=relatedRestaurants')).data.attributes;
      expect(asEditor.relatedRestaurants.data).to.have.length.greaterThan(0);
    });

    it('returns every scalar type: exact bigintegers, booleans, json, dates, times and datetimes', async () => {
      const list = await get(visitor, '/api/articles?filters[id][$lte]=4&sort=id');
      const [first, second, third, fourth] = list.data.map((entry: Body) => entry.attributes);
      expect([first.viewsTotal, second.viewsTotal]).to.deep.equal(['9007199254740993', '9223372036854775807']);
      expect([first.metadata, second.metadata, third.metadata, fourth.metadata].map((value) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value))).to.deep.equal(['object', 'array', 'string', 'null']);
      expect(third.metadata).to.equal('editor’s pick');
      expect(first).to.include({ featured: true, createdAt: '2024-01-16T17:00:00.000Z', publishedAt: '2024-01-16T19:00:00.000Z', publishDate: '2024-01-17', kind: 'review' });
      expect(first.publishTime).to.match(/^\d\d:(00|15|30|45):00\.000$/);
      expect(first.scheduledAt).to.match(/^2024-\d\d-\d\dT\d\d:00:00\.000Z$/);
      expect(second.price).to.equal(0);
      expect(first.rating).to.be.a('number');
      expect(first.views).to.be.a('number');
    });

    it('serves the French localizations, linked both ways to the English entries', async () => {
      const french = await get(visitor, '/api/articles?locale=fr&pagination[pageSize]=100&populate[localizations][fields][0]=locale&populate[localizations][fields][1]=readingMinutes');
      expect(french.meta.pagination.total).to.equal(7);
      for (const entry of french.data) {
        expect(entry.attributes.locale).to.equal('fr');
        const [english] = entry.attributes.localizations.data;
        expect(english.attributes.locale).to.equal('en');
        expect(english.attributes.readingMinutes, 'readingMinutes is not localized').to.equal(entry.attributes.readingMinutes);
      }
      const english = await get(visitor, '/api/articles/1?populate[localizations][fields][0]=title');
      expect(english.data.attributes.localizations.data[0].attributes.title).to.equal('Un week-end de street food à Lisbonne');
      expect((await get(visitor, '/api/articles?locale=all')).meta.pagination.total).to.equal(27);
    });

    it('fills media and relations inside components and zone blocks', async () => {
      const seo = (await get(visitor, '/api/articles/1?populate[seo][populate][metaImage]=true&populate[seo][populate][metaSocial][populate]=image')).data.attributes.seo;
      expect(seo.metaImage.data.attributes.name).to.equal('lisbon-tram.jpg');
      expect(seo.metaSocial.length).to.be.greaterThan(0);
      for (const card of seo.metaSocial) expect(card.image.data.attributes.mime).to.equal('image/jpeg');
      const blocks = (await get(visitor, '/api/articles/1?populate[blocks][populate]=*')).data.attributes.blocks;
      const byType = (uid: string) => blocks.filter((block: Body) => block.__component === uid);
      expect(byType('shared.quote').map((quote: Body) => quote.category.data === null)).to.deep.equal([false, true]);
      expect(byType('shared.media')[0].file.data.attributes).to.have.property('mime');
      expect(byType('shared.slider')[0].files.data.length).to.be.at.least(2);
      const related = (await get(editor, '/api/articles/1?populate[related][populate]=*')).data.attributes.related;
      expect(related.category.data.attributes.name).to.equal('Street Food');
      expect(related.restaurants.data.length).to.be.at.least(1);
    });

    it('links categories to their parent, children, icon, featured article and articles', async () => {
      const list = await get(visitor, '/api/categories?populate=*&pagination[pageSize]=100');
      const byName = new Map(list.data.map((entry: Body) => [entry.attributes.name, entry.attributes]));
      expect(list.data).to.have.length(12);
      const names = (relation: Body) => relation.data.map((entry: Body) => entry.attributes.name);
      const food = byName.get('Food') as Body;
      expect(names(food.children)).to.deep.equal(['Street Food', 'Baking', 'Wine & Drinks']);
      expect(food.parent.data).to.equal(null);
      expect(food.icon.data.attributes.formats).to.have.all.keys('thumbnail');
      expect(food.featuredArticle.data.attributes.title).to.equal('A Chef Who Cooks Only With the Season');
      expect(food.articles.data.length).to.be.greaterThan(0);
      expect((byName.get('Sourdough') as Body).parent.data.attributes.name).to.equal('Baking');
      expect((byName.get('Travel') as Body).featuredArticle.data).to.equal(null);
      expect((byName.get('Street Food') as Body).icon.data).to.equal(null);
    });

    it('gives restaurants an address, a week of opening hours, a cover, photos and categories', async () => {
      const { attributes } = (await get(visitor, '/api/restaurants/1?populate=*')).data;
      expect(attributes.address).to.include({ city: 'Lisbon', country: 'PT' });
      expect(attributes.address.geo).to.deep.equal({ lat: 38.7117, lng: -9.1295 });
      expect(attributes.openingHours.map((hours: Body) => hours.day)).to.deep.equal(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
      const closed = attributes.openingHours.filter((hours: Body) => hours.closed);
      expect(closed.length).to.be.within(1, 2);
      for (const hours of closed) expect(hours).to.include({ opens: null, closes: null });
      expect(attributes.cover.data.attributes.mime).to.equal('image/jpeg');
      expect(attributes.images.data.length).to.be.at.least(1);
      expect(attributes.categories.data.map((category: Body) => category.attributes.name)).to.deep.equal(['Food', 'Street Food']);
      expect(attributes).to.not.have.property('secretRecipe');
    });

    it('lists users with their roles, never their passwords', async () => {
      const users = await get(editor, '/api/users?populate=role&pagination[pageSize]=100');
      expect(users.data).to.have.length(8);
      const roles = Object.fromEntries(users.data.map((user: Body) => [user.attributes.username, user.attributes.role.data.attributes.type]));
      expect(roles).to.include({ 'amelie.laurent': 'editor', 'joao.silva': 'authenticated' });
      const sofia = users.data.find((user: Body) => user.attributes.username === 'sofia.rossi').attributes;
      expect(sofia.blocked).to.equal(true);
      for (const user of users.data) expect(user.attributes).to.not.have.any.keys('password', 'resetPasswordToken', 'confirmationToken');
    });
  });
}
