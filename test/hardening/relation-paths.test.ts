/**
 * Sorts and filters through long relation paths cost linear work per hop: on the large fixture
 * each answers within a time budget, on both engines, and gives what the short path with the
 * same meaning gives. `[category][articles]` leads from an article to the articles of its
 * category, and repeating it leads nowhere new, so eight pairs must answer as one pair does.
 * Beyond the hop limit, a 400 naming the parameter.
 */
import { expect } from 'chai';
import { serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

/** Far above the linear cost (tens of milliseconds), far below the combinatorial one (minutes). */
const BUDGET_MS = 3_000;
const pairs = (count: number) => '[category][articles]'.repeat(count);
const dotted = (count: number) => Array(count).fill('category.articles').join('.');

/** The same request written through one pair and through three (six hops, the limit). */
const EQUIVALENT: Array<[string, string, string]> = [
  ['sort ascending', `sort${pairs(1)}[id]=asc`, `sort${pairs(3)}[id]=asc`],
  ['sort descending', `sort${pairs(1)}[title]=desc`, `sort${pairs(3)}[title]=desc`],
  ['sort by a dot path, then by a field', `sort[0]=${dotted(1)}.views:desc&sort[1]=title`, `sort[0]=${dotted(3)}.views:desc&sort[1]=title`],
  ['sort mixing to-one and to-many hops with a component', `sort${pairs(1)}[seo][metaTitle]=asc`, `sort${pairs(2)}[seo][metaTitle]=asc`],
  ['filter', `filters${pairs(1)}[id][$eq]=2`, `filters${pairs(3)}[id][$eq]=2`],
  ['$or across hops', `filters[$or][0]${pairs(1)}[title][$startsWith]=The Quick&filters[$or][1][featured][$eq]=true`, `filters[$or][0]${pairs(3)}[title][$startsWith]=The Quick&filters[$or][1][featured][$eq]=true`],
  ['$not', `filters[$not]${pairs(1)}[views][$gt]=500`, `filters[$not]${pairs(3)}[views][$gt]=500`],
  ['media at the end', `filters${pairs(1)}[gallery][mime][$startsWith]=image/`, `filters${pairs(2)}[gallery][mime][$startsWith]=image/`],
];

const POPULATED: Array<[string, string, string]> = [
  ['populate filter', `populate[articles][filters]${pairs(1)}[id][$lt]=100`, `populate[articles][filters]${pairs(3)}[id][$lt]=100`],
  ['populate sort', `populate[articles][sort]${pairs(1)}[title]=desc`, `populate[articles][sort]${pairs(2)}[title]=desc`],
];

for (const kind of testDatabaseKinds()) {
  describe(`relation paths: linear work per hop (${kind.name}, large fixture)`, () => {
    let served: ServedApi;
    before(async () => {
      served = await serveFixture(kind.client, 'large');
    });
    after(() => served.close());

    async function timed(path: string) {
      const started = performance.now();
      const response = await served.request.get(path);
      const elapsed = performance.now() - started;
      expect(response.status, `${path}: ${response.text.slice(0, 300)}`).to.equal(200);
      expect(elapsed, `${path} took ${elapsed.toFixed(0)} ms`).to.be.below(BUDGET_MS);
      return response.body as { data: { id: number }[]; meta: unknown };
    }

    for (const [title, short, long] of EQUIVALENT) {
      it(`${title}: six hops answer in time, as two do`, async () => {
        const query = 'fields[0]=title&pagination[pageSize]=100';
        const expected = await timed(`/api/articles?${short}&${query}`);
        const actual = await timed(`/api/articles?${long}&${query}`);
        expect(actual.data.map((entry) => entry.id)).to.deep.equal(expected.data.map((entry) => entry.id));
        expect(actual.meta).to.deep.equal(expected.meta);
        expect(expected.data.length).to.be.above(0);
      });
    }

    for (const [title, short, long] of POPULATED) {
      it(`${title}: six hops answer in time, as two do`, async () => {
        const query = 'fields[0]=name&populate[articles][fields][0]=title&pagination[pageSize]=50';
        const expected = await timed(`/api/categories?${short}&${query}`);
        const actual = await timed(`/api/categories?${long}&${query}`);
        expect(actual).to.deep.equal(expected);
      });
    }

    it('sorts by the smallest related value ascending and the largest descending (D5), through every hop', async () => {
      // Through its own articles a category reaches only itself: the order is its own sortOrder's.
      const query = 'fields[0]=sortOrder&pagination[pageSize]=100&filters[articles][id][$notNull]=true';
      const through = (direction: string) => timed(`/api/categories?sort[0]${'[articles][category]'.repeat(3)}[sortOrder]=${direction}&sort[1][id]=asc&${query}`);
      const own = (direction: string) => timed(`/api/categories?sort[0]=sortOrder:${direction}&sort[1]=id:asc&${query}`);
      const ids = (body: { data: { id: number }[] }) => body.data.map((entry) => entry.id);
      expect(ids(await through('asc'))).to.deep.equal(ids(await own('asc')));
      expect(ids(await through('desc'))).to.deep.equal(ids(await own('desc')));
      expect(ids(await own('asc'))).to.have.length.above(10);
    });

    it('answers a 400 naming the parameter beyond six hops, in every path form', async () => {
      const forms = [
        [`/api/articles?sort${pairs(4)}[id]=asc`, 'sort.category.articles.category.articles.category.articles.category'],
        [`/api/articles?sort=${dotted(4)}.id`, 'sort'],
        [`/api/articles?filters${pairs(4)}[id][$eq]=1`, 'filters.category.articles.category.articles.category.articles.category'],
        [`/api/articles?filters[$or][0]${pairs(4)}[id][$eq]=1`, 'filters.$or[0].category.articles.category.articles.category.articles.category'],
        [`/api/categories?populate[articles][filters]${pairs(4)}[id][$eq]=1`, 'populate.articles.filters.category.articles.category.articles.category.articles.category'],
      ];
      for (const [path, parameter] of forms) {
        const response = await served.request.get(path);
        expect(response.status, path).to.equal(400);
        expect(response.body.error.name).to.equal('ValidationError');
        expect(response.body.error.details.path, path).to.equal(parameter);
      }
    });
  });
}
