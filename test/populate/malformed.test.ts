/**
 * Malformed populate input of every kind is a 400 ValidationError naming the parameter path
 * (D1, D2, D3, D12), never a 500 and never silently ignored.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { serveFixture, type ServedApi } from '../support/api.js';

/** [query string, the path the error must name] */
const MALFORMED: [string, string][] = [
  ['populate[0]=nope', 'populate[0]'],
  ['populate=title', 'populate'],
  ['populate=nope', 'populate'],
  ['populate[nope]=true', 'populate.nope'],
  ['populate[title]=true', 'populate.title'],
  ['populate[0]=*', 'populate[0]'],
  ['populate=*,category', 'populate'],
  ['populate=category,', 'populate'],
  ['populate=category.', 'populate'],
  ['populate=.category', 'populate'],
  ['populate[category]=maybe', 'populate.category'],
  ['populate[category][fields][0]=nope', 'populate.category.fields[0]'],
  ['populate[category][fields][0]=articles', 'populate.category.fields[0]'],
  ['populate[category][fields][title]=1', 'populate.category.fields'],
  ['populate[category][filters][nope]=1', 'populate.category.filters.nope'],
  ['populate[category][filters][$or]=x', 'populate.category.filters.$or'],
  ['populate[category][sort]=nope', 'populate.category.sort'],
  ['populate[category][sort]=name:up', 'populate.category.sort'],
  ['populate[category][pagination][page]=1', 'populate.category.pagination'],
  ['populate[categories][page]=1', 'populate.categories.page'],
  ['populate[categories][pageSize]=1', 'populate.categories.pageSize'],
  ['populate[categories][limit]=abc', 'populate.categories.limit'],
  ['populate[categories][limit]=1.5', 'populate.categories.limit'],
  ['populate[categories][start]=x', 'populate.categories.start'],
  ['populate[categories][count]=maybe', 'populate.categories.count'],
  ['populate[categories][publicationState]=draft', 'populate.categories.publicationState'],
  ['populate[categories][locale]=fr', 'populate.categories.locale'],
  ['populate[headerImage][publicationState]=live', 'populate.headerImage.publicationState'],
  ['populate[blocks][on][shared.nope]=true', 'populate.blocks.on.shared.nope'],
  ['populate[blocks][fields][0]=body', 'populate.blocks.fields[0]'],
  ['populate[blocks][on][shared.quote][fields][0]=nope', 'populate.blocks.on.shared.quote.fields[0]'],
  ['populate[blocks][on][shared.quote][pagination][limit]=1', 'populate.blocks.on.shared.quote.pagination'],
  ['populate[blocks][on]=x', 'populate.blocks.on'],
  ['populate[blocks][on][shared.quote]=true&populate[blocks][fields][0]=id', 'populate.blocks.fields'],
  ['populate[category][on][shared.quote]=true', 'populate.category.on'],
  ['populate[headerImage][populate][0]=related', 'populate.headerImage.populate[0]'],
  ['populate=headerImage.related', 'populate'],
  ['populate[seo][populate][nope]=true', 'populate.seo.populate.nope'],
  ['populate=seo.nope', 'populate'],
  ['populate[blocks][populate][nope]=true', 'populate.blocks.populate'],
  ['populate=blocks.nope', 'populate'],
  ['populate[category][populate][articles][fields][0]=internalNotes', 'populate.category.populate.articles.fields[0]'],
  ['populate[localizations][fields][0]=accessCode', 'populate.localizations.fields[0]'],
  ['populate[author][filters][password][$null]=false', 'populate.author.filters.password'],
  ['populate[0][category]=true', 'populate[0]'],
  ['populate=*&populate[category]=true', 'populate[1]'],
  // Deeper than 10 levels: each level is a nested subquery and multiplies the response.
  [`populate=${deepPath(11)}`, 'populate'],
  [`populate[0]=${deepPath(400)}`, 'populate[0]'],
  [`populate[category][populate][articles][populate]=${deepPath(9)}`, 'populate'],
];

/** `category.articles.category…`, `levels` attributes long. */
function deepPath(levels: number): string {
  return Array.from({ length: levels }, (_, index) => (index % 2 ? 'articles' : 'category')).join('.');
}

for (const kind of testDatabaseKinds()) {
  describe(`malformed populate answers 400 with the path (${kind.name})`, function () {
    let served: ServedApi;
    before(async function () {
      this.timeout(120_000);
      served = await serveFixture(kind.client);
    });
    after(() => served?.close());

    it(`lists at least 30 malformed inputs (${MALFORMED.length})`, () => {
      expect(MALFORMED.length).to.be.at.least(30);
    });

    for (const [query, path] of MALFORMED) {
      it(`${query} → 400 at ${path}`, async () => {
        const response = await served.request.get(`/api/articles?${query}`);
        expect(response.status, response.text).to.equal(400);
        expect(response.body.data).to.equal(null);
        expect(response.body.error).to.include({ status: 400, name: 'ValidationError' });
        expect(response.body.error.details).to.deep.equal({ path });
        expect(response.body.error.message).to.include(path);
      });
    }
  });
}
