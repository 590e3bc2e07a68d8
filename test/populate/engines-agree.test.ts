/**
 * SQLite and PostgreSQL answer the same request with the same JSON: the fixture copied from
 * SQLite to PostgreSQL must read back identically, for populate shapes of every kind, sorts,
 * filters and value types. (Key order inside json attributes may differ: PostgreSQL's jsonb
 * stores objects with sorted keys.)
 */
import { expect } from 'chai';
import { postgresServerUrl } from '../support/databases.js';
import { serveFixture, type ServedApi } from '../support/api.js';

const QUERIES = [
  '/api/articles?populate=*&pagination[pageSize]=100',
  '/api/articles?populate[blocks][populate]=*&populate[seo][populate]=*&pagination[pageSize]=100',
  '/api/articles?populate[category][populate]=*&populate[categories][populate][parent][populate][children]=true&pagination[pageSize]=100',
  '/api/articles?populate[related][populate]=*&populate[links][sort]=label:desc&populate[gallery][sort]=name:desc&pagination[pageSize]=100',
  '/api/articles?locale=all&publicationState=live&sort=title:desc&pagination[pageSize]=100&populate=localizations',
  '/api/articles?sort[0]=categories.name:desc&sort[1]=rating:asc&filters[categories][id][$notNull]=true&pagination[pageSize]=100',
  '/api/articles?filters[$or][0][views][$gt]=50000&filters[$or][1][title][$containsi]=TIPS&sort=scheduledAt:desc&pagination[pageSize]=100',
  '/api/categories?populate=*&pagination[pageSize]=100',
  '/api/categories?populate[articles][fields][0]=title&populate[articles][sort]=publishDate:asc&populate[articles][limit]=2',
  '/api/users?populate=*',
  // Booleans ordered: PostgreSQL compares them as integers on both sides.
  '/api/users?filters[blocked][$lte]=1&filters[confirmed][$gt]=false&fields[0]=username',
  '/api/users?filters[confirmed][$between][0]=0&filters[confirmed][$between][1]=1&filters[blocked][$lt]=true&sort=confirmed:desc',
  '/api/articles?populate[author][filters][blocked][$gte]=1&populate[author][fields][0]=username&pagination[pageSize]=100',
  '/api/restaurants/1?populate=*',
  '/api/articles/1?populate[blocks][on][shared.slider][populate]=*&populate[blocks][on][shared.quote][populate]=*',
];

(postgresServerUrl() ? describe : describe.skip)('SQLite and PostgreSQL return the same responses', function () {
  let sqlite: ServedApi;
  let postgres: ServedApi;
  const publicOrEditor = { resolveRole: () => 'editor' };
  before(async function () {
    this.timeout(120_000);
    sqlite = await serveFixture('sqlite', 'small', publicOrEditor);
    postgres = await serveFixture('postgres', 'small', publicOrEditor);
  });
  after(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  for (const query of QUERIES) {
    it(query, async () => {
      const [fromSqlite, fromPostgres] = await Promise.all([sqlite.request.get(query), postgres.request.get(query)]);
      expect(fromSqlite.status).to.equal(200);
      expect(fromPostgres.status).to.equal(200);
      expect(fromPostgres.body).to.deep.equal(fromSqlite.body);
    });
  }
});
