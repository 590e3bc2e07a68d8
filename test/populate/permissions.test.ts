/**
 * Permission pruning on the query tree (SPEC §5): populated relations and media whose type the
 * role may not `find` disappear silently at any depth, in every populate form, inside components
 * and dynamic zones; filtering or sorting through them is a 400; drafts need `preview`.
 */
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDatabaseKinds } from '../support/databases.js';
import { serveFixture, type ServedApi } from '../support/api.js';

const PERMISSIONS = `
roles:
  public:
    article: [find, findOne]
    category: [find, findOne]
    restaurant: [findOne]
    file: [find]
    user: [find, findOne]
  no-categories:
    article: [find, findOne]
    file: [find]
  no-files:
    article: [find, findOne]
    category: [find, findOne]
  reviewer:
    article: [find, findOne, preview]
    category: [find, findOne]
    file: [find]
`;

interface Entry {
  id: number;
  attributes: Record<string, any>;
}

for (const kind of testDatabaseKinds()) {
  describe(`permissions on the query tree (${kind.name})`, function () {
    let served: ServedApi;
    const get = (path: string, role = 'public') => served.request.get(path).set('x-test-role', role);
    const list = async (path: string, role = 'public'): Promise<Entry[]> => {
      const response = await get(path, role);
      expect(response.status, response.text).to.equal(200);
      return response.body.data;
    };
    before(async function () {
      this.timeout(120_000);
      const dir = mkdtempSync(join(tmpdir(), 'content-api-permissions-'));
      writeFileSync(join(dir, 'permissions.yaml'), PERMISSIONS);
      served = await serveFixture(kind.client, 'small', {
        permissionsFile: join(dir, 'permissions.yaml'),
        resolveRole: (ctx) => ctx.get('x-test-role') || null,
      });
    });
    after(() => served?.close());

    it('a type without find answers 403, findOne needs findOne', async () => {
      expect((await get('/api/restaurants')).status).to.equal(403);
      expect((await get('/api/restaurants/1')).status).to.equal(200);
      expect((await get('/api/categories', 'no-categories')).status).to.equal(403);
      const forbidden = await get('/api/restaurants?filters[nope]=1');
      expect(forbidden.status, 'the route permission is checked before the query').to.equal(403);
      expect(forbidden.body.error.name).to.equal('ForbiddenError');
    });

    it('removes a forbidden relation in every populate form', async () => {
      for (const query of ['populate=*', 'populate=relatedRestaurants', 'populate[0]=relatedRestaurants', 'populate[relatedRestaurants][fields][0]=name', 'populate=category.restaurants', 'populate[related][populate]=*']) {
        for (const article of await list(`/api/articles?fields[0]=title&${query}`)) {
          expect(article.attributes).to.not.have.property('relatedRestaurants');
          if (article.attributes.category?.data) expect(article.attributes.category.data.attributes).to.not.have.property('restaurants');
          if (article.attributes.related) expect(article.attributes.related).to.not.have.property('restaurants');
        }
      }
    });

    it('prunes at depth 3', async () => {
      const articles = await list('/api/articles?fields[0]=title&populate[category][populate][articles][populate][relatedRestaurants]=true&populate[category][populate][articles][populate][author]=true');
      let seen = 0;
      for (const article of articles) {
        for (const nested of (article.attributes.category.data?.attributes.articles.data ?? []) as Entry[]) {
          seen += 1;
          expect(nested.attributes).to.have.property('author');
          expect(nested.attributes).to.not.have.property('relatedRestaurants');
        }
      }
      expect(seen).to.be.greaterThan(0);
    });

    it('prunes inside components and dynamic zones', async () => {
      const articles = await list('/api/articles?fields[0]=title&pagination[pageSize]=100&populate[blocks][populate]=*&populate[related][populate]=*', 'no-categories');
      let quotes = 0;
      for (const article of articles) {
        for (const block of article.attributes.blocks) {
          if (block.__component === 'shared.quote') quotes += 1;
          expect(block).to.not.have.property('category');
        }
        if (article.attributes.related) expect(article.attributes.related).to.not.have.any.keys('category', 'restaurants');
      }
      expect(quotes).to.be.greaterThan(0);
    });

    it('media needs find on the file type', async () => {
      const articles = await list('/api/articles?fields[0]=title&pagination[pageSize]=100&populate=*', 'no-files');
      for (const article of articles) expect(article.attributes).to.not.have.any.keys('headerImage', 'gallery');
      const inZone = await list('/api/articles?fields[0]=title&pagination[pageSize]=100&populate[blocks][populate]=*', 'no-files');
      for (const article of inZone) for (const block of article.attributes.blocks) expect(block).to.not.have.any.keys('file', 'files');
      expect((await get('/api/articles?filters[headerImage][name]=x', 'no-files')).status).to.equal(400);
    });

    it('filtering or sorting through a forbidden relation is a 400 naming it, at the root and nested', async () => {
      const cases: [string, string][] = [
        ['filters[relatedRestaurants][name]=x', 'filters.relatedRestaurants'],
        ['filters[$or][0][category][restaurants][name]=x', 'filters.$or[0].category.restaurants'],
        ['sort=relatedRestaurants.name', 'sort'],
        ['populate[category][filters][restaurants][name]=x', 'populate.category.filters.restaurants'],
        ['populate[category][sort]=restaurants.name', 'populate.category.sort'],
        ['filters[related][restaurants][name]=x', 'filters.related.restaurants'],
        ['filters[author][role][name]=x', 'filters.author.role'],
      ];
      for (const [query, path] of cases) {
        const response = await get(`/api/articles?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.details.path, query).to.equal(path);
      }
    });

    it('drafts: preview needs the permission; an explicit populate preview without it is a 403', async () => {
      expect((await get('/api/articles?publicationState=preview')).status).to.equal(403);
      const preview = await list('/api/articles?publicationState=preview&pagination[pageSize]=100&fields[0]=publishedAt', 'reviewer');
      expect(preview.some((article) => article.attributes.publishedAt === null)).to.equal(true);
      expect((await get('/api/categories?populate[articles][publicationState]=preview')).status).to.equal(403);
      const [food] = await list('/api/categories?filters[name]=Food&populate[articles][publicationState]=preview&populate[articles][fields][0]=title', 'reviewer');
      expect(food.attributes.articles.data.map((entry: Entry) => entry.id)).to.deep.equal([2, 5, 10, 15, 16, 29, 33, 39, 42]);
    });

    it('a root preview reaches populated drafts only where the role may preview them', async () => {
      const [asReviewer] = await list('/api/categories?filters[name]=Food&publicationState=preview&populate[articles][fields][0]=title', 'reviewer');
      expect(asReviewer.attributes.articles.data).to.have.length(9);
      const [asPublic] = await list('/api/categories?filters[name]=Food&publicationState=preview&populate[articles][fields][0]=title');
      expect(asPublic.attributes.articles.data.map((entry: Entry) => entry.id)).to.deep.equal([2, 5, 10, 15, 16, 33, 42]);
    });

    it('findOne of a draft is 404 under live (D6) and 200 in preview with the permission', async () => {
      expect((await get('/api/articles/4')).status).to.equal(404);
      expect((await get('/api/articles/4?publicationState=preview', 'reviewer')).status).to.equal(200);
    });
  });
}
