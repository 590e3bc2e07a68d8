/**
 * One statement per request: every populate shape, at any depth, compiles to a single SQL
 * statement (plus the count when the list reports a total), whatever the page size.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { serveFixture, statementsOf, type ServedApi } from '../support/api.js';

const SHAPES = [
  'populate=*',
  'populate=category',
  'populate=category,categories,author',
  'populate[0]=headerImage&populate[1]=gallery',
  'populate=seo.metaSocial.image',
  'populate[0]=category.articles.categories',
  'populate=blocks.files',
  'populate[category]=true',
  'populate[category][populate]=*',
  'populate[category][populate][parent][populate][children]=true',
  'populate[categories][fields][0]=name&populate[categories][populate][parent][fields][0]=name&populate[categories][populate][parent][populate][children][fields][0]=name',
  'populate[categories][populate][0]=parent&populate[categories][populate][1]=children',
  'populate[seo][populate]=*',
  'populate[seo][populate][metaSocial][populate][image][fields][0]=url',
  'populate[links][sort][0]=label:desc',
  'populate[links][filters][label][$contains]=1',
  'populate[blocks]=true',
  'populate[blocks][populate]=*',
  'populate[blocks][on][shared.quote][populate]=*',
  'populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.media][populate]=*',
  'populate[blocks][on][shared.slider][populate][files][fields][0]=name&populate[blocks][on][shared.rich-text]=true',
  'populate[gallery][fields][0]=url&populate[gallery][filters][mime][$eq]=image/jpeg',
  'populate[gallery][sort][0]=name:desc&populate[gallery][limit]=2',
  'populate[localizations][fields][0]=title',
  'populate[featuredIn][populate][parent]=true',
  'populate[categories][count]=true&populate[links][count]=true&populate[localizations][count]=true',
  'populate[categories][limit]=1&populate[categories][start]=1',
  'populate[categories][sort][0]=name:asc&populate[categories][filters][name][$ne]=Food&populate[categories][limit]=2',
  'populate[related][populate][category][populate][articles][fields][0]=title',
  'populate[author][populate]=*',
  'populate[blocks][limit]=2',
  'populate[links][limit]=1&populate[links][start]=1',
  'populate[category][populate][articles][populate][category][populate][articles][fields][0]=title',
  'populate[categories][sort]=parent.name:desc&populate[categories][filters][articles][title][$contains]=Tips',
  'populate[seo][count]=true&populate[blocks][count]=true',
];

for (const kind of testDatabaseKinds()) {
  describe(`populate compiles to one statement (${kind.name})`, function () {
    let served: ServedApi;
    before(async function () {
      this.timeout(120_000);
      served = await serveFixture(kind.client);
    });
    after(() => served?.close());

    it(`covers ${SHAPES.length} populate shapes`, () => {
      expect(SHAPES.length).to.be.at.least(30);
    });

    for (const shape of SHAPES) {
      it(`${shape}`, async () => {
        const withoutCount = await served.request.get(`/api/articles?${shape}&pagination[withCount]=false&pagination[pageSize]=100`);
        expect(withoutCount.status, withoutCount.text.slice(0, 300)).to.equal(200);
        expect(withoutCount.body.data).to.have.length.greaterThan(0);
        expect(statementsOf(withoutCount)).to.equal(1);
        const withCount = await served.request.get(`/api/articles?${shape}`);
        expect(withCount.status).to.equal(200);
        // The count is inside the one statement.
        expect(statementsOf(withCount)).to.equal(1);
        expect(withCount.body.meta.pagination.total).to.be.a('number');
      });
    }

    it('findOne is one statement whatever the populate', async () => {
      const response = await served.request.get('/api/articles/1?populate[blocks][populate]=*&populate[seo][populate]=*&populate[category][populate]=*');
      expect(response.status).to.equal(200);
      expect(statementsOf(response)).to.equal(1);
    });
  });
}
