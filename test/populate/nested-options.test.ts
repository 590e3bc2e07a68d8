/**
 * Options inside populate: fields, filters and sort at depth 3, counts, per-parent limit/start
 * (D3), the link table's order, and locale never filtering populated relations.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { serveFixture, type ServedApi } from '../support/api.js';

interface Entry {
  id: number;
  attributes: Record<string, any>;
}

for (const kind of testDatabaseKinds()) {
  describe(`populate options (${kind.name})`, function () {
    let served: ServedApi;
    const list = async (path: string): Promise<Entry[]> => {
      const response = await served.request.get(path);
      expect(response.status, response.text).to.equal(200);
      return response.body.data;
    };
    before(async function () {
      this.timeout(120_000);
      served = await serveFixture(kind.client);
    });
    after(() => served?.close());

    it('fields, filters and sort apply at depth 3', async () => {
      const categories = await list(
        '/api/categories?fields[0]=name&pagination[pageSize]=100' +
          '&populate[articles][fields][0]=title&populate[articles][sort][0]=title:desc' +
          '&populate[articles][populate][categories][fields][0]=name&populate[articles][populate][categories][sort][0]=name:desc' +
          '&populate[articles][populate][categories][filters][name][$ne]=Food' +
          '&populate[articles][populate][categories][populate][parent][fields][0]=sortOrder',
      );
      let depth3 = 0;
      for (const category of categories) {
        const articles = category.attributes.articles.data as Entry[];
        const titles = articles.map((article) => article.attributes.title);
        expect(titles).to.deep.equal([...titles].sort().reverse());
        for (const article of articles) {
          expect(Object.keys(article.attributes)).to.deep.equal(['title', 'categories']);
          const names = (article.attributes.categories.data as Entry[]).map((entry) => entry.attributes.name);
          expect(names).to.not.include('Food');
          expect(names).to.deep.equal([...names].sort().reverse());
          for (const related of article.attributes.categories.data as Entry[]) {
            expect(Object.keys(related.attributes)).to.deep.equal(['name', 'parent']);
            const parent = related.attributes.parent.data as Entry | null;
            if (parent) {
              depth3 += 1;
              expect(Object.keys(parent.attributes)).to.deep.equal(['sortOrder']);
            }
          }
        }
      }
      expect(depth3).to.be.greaterThan(0);
    });

    it('populated lists follow the link table order, drafts are left out under live, and every locale is kept', async () => {
      const [food] = await list('/api/categories?filters[name]=Food&populate[articles][fields][0]=locale');
      // Category 1's link rows in order: 2, 5, 10, 15, 16, 29 (draft), 33, 39 (draft), 42 (fr).
      expect(food.attributes.articles.data.map((entry: Entry) => entry.id)).to.deep.equal([2, 5, 10, 15, 16, 33, 42]);
      expect(food.attributes.articles.data.at(-1).attributes.locale).to.equal('fr');
    });

    it('count is the length of the list it replaces, for relations and repeatable components', async () => {
      const full = await list('/api/articles?pagination[pageSize]=100&fields[0]=title&populate[categories][fields][0]=id&populate[links]=true&populate[localizations][fields][0]=id&populate[category][fields][0]=id');
      const counted = await list('/api/articles?pagination[pageSize]=100&fields[0]=title&populate[categories][count]=true&populate[links][count]=true&populate[localizations][count]=true&populate[category][count]=true');
      expect(counted.map((entry) => entry.id)).to.deep.equal(full.map((entry) => entry.id));
      counted.forEach((entry, index) => {
        const source = full[index].attributes;
        expect(entry.attributes.categories).to.deep.equal({ data: { attributes: { count: source.categories.data.length } } });
        expect(entry.attributes.localizations).to.deep.equal({ data: { attributes: { count: source.localizations.data.length } } });
        expect(entry.attributes.category).to.deep.equal({ data: { attributes: { count: source.category.data ? 1 : 0 } } });
        expect(entry.attributes.links).to.deep.equal({ count: source.links.length });
      });
    });

    it('count respects the publication state and the node filters', async () => {
      const [food] = await list('/api/categories?filters[name]=Food&populate[articles][count]=true&populate[relatedArticles][count]=true&populate[relatedArticles][filters][locale]=en');
      expect(food.attributes.articles.data.attributes.count).to.equal(7);
      const [withList] = await list('/api/categories?filters[name]=Food&populate[relatedArticles][fields][0]=locale&populate[relatedArticles][filters][locale]=en');
      expect(food.attributes.relatedArticles.data.attributes.count).to.equal(withList.attributes.relatedArticles.data.length);
    });

    it('limit and start apply per parent entry (D3)', async () => {
      const base = '/api/categories?pagination[pageSize]=100&fields[0]=name&populate[relatedArticles][fields][0]=title';
      const full = await list(base);
      const sliced = await list(`${base}&populate[relatedArticles][limit]=2&populate[relatedArticles][start]=1`);
      let nonEmpty = 0;
      full.forEach((category, index) => {
        const expected = category.attributes.relatedArticles.data.slice(1, 3);
        if (expected.length) nonEmpty += 1;
        expect(sliced[index].attributes.relatedArticles.data).to.deep.equal(expected);
      });
      expect(nonEmpty).to.be.greaterThan(1);
    });

    it('limit applies after the node sort and filters', async () => {
      const base = '/api/articles?pagination[pageSize]=100&fields[0]=title&populate[categories][fields][0]=name&populate[categories][sort][0]=name:asc&populate[categories][filters][name][$ne]=Tech';
      const full = await list(base);
      const limited = await list(`${base}&populate[categories][limit]=1`);
      full.forEach((article, index) => {
        expect(limited[index].attributes.categories.data).to.deep.equal(article.attributes.categories.data.slice(0, 1));
      });
    });

    it('limit works on repeatable components and media, and -1 means no limit', async () => {
      const full = await list('/api/articles?pagination[pageSize]=100&fields[0]=title&populate[links]=true&populate[gallery][fields][0]=name');
      const limited = await list('/api/articles?pagination[pageSize]=100&fields[0]=title&populate[links][limit]=1&populate[gallery][fields][0]=name&populate[gallery][start]=1&populate[gallery][limit]=-1');
      full.forEach((article, index) => {
        expect(limited[index].attributes.links).to.deep.equal(article.attributes.links.slice(0, 1));
        const gallery = article.attributes.gallery.data;
        const rest = gallery ? gallery.slice(1) : [];
        expect(limited[index].attributes.gallery.data).to.deep.equal(rest.length ? rest : null);
      });
    });

    it('nested sort through a relation orders populated entries', async () => {
      const articles = await list('/api/articles?pagination[pageSize]=100&fields[0]=title&populate[categories][fields][0]=name&populate[categories][sort][0]=id:desc');
      for (const article of articles) {
        const ids = article.attributes.categories.data.map((entry: Entry) => entry.id);
        expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
      }
    });

    it('the mappedBy side, self relations and one-way relations populate', async () => {
      const categories = await list('/api/categories?pagination[pageSize]=100&populate[parent][fields][0]=name&populate[children][fields][0]=name&populate[featuredArticle][fields][0]=title');
      const byId = new Map(categories.map((category) => [category.id, category]));
      for (const category of categories) {
        for (const child of category.attributes.children.data as Entry[]) {
          expect(byId.get(child.id)!.attributes.parent.data.id).to.equal(category.id);
        }
      }
      const articles = await list('/api/articles?pagination[pageSize]=100&fields[0]=title&populate[featuredIn][fields][0]=name');
      for (const article of articles) {
        const featuredIn = article.attributes.featuredIn.data as Entry | null;
        if (featuredIn) expect(byId.get(featuredIn.id)!.attributes.featuredArticle.data.id).to.equal(article.id);
      }
      expect(articles.some((article) => article.attributes.featuredIn.data)).to.equal(true);
    });
  });
}
