/**
 * A request's cost known before it runs (sql/estimate.ts), on the large fixture: the estimate of
 * a body is within a small factor of the body built, a body estimated far over the response
 * budget is refused without running (its 400 says "about"), and a new statement shape estimated
 * small is admitted as light.
 */
import { expect } from 'chai';
import { planRestRead } from '../../plugin/http/rest-read.js';
import { DIALECTS } from '../../plugin/sql/dialect/dialects.js';
import { estimateRequest } from '../../plugin/sql/estimate.js';
import { Statistics } from '../../plugin/sql/statistics.js';
import { StatementCosts } from '../../plugin/sql/statement-costs.js';
import { serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

const HOSTILE = '/api/categories?populate[articles][populate][category][populate][articles][populate][category][populate][articles]=*&pagination[pageSize]=100';

for (const kind of testDatabaseKinds()) {
  describe(`estimates before running (${kind.name}, large fixture)`, function () {
    this.timeout(120_000);
    let served: ServedApi;
    before(async () => {
      served = await serveFixture(kind.client, 'large');
    });
    after(() => served.close());

    it('estimates bodies within a factor of two of what is built', async () => {
      const statistics = new Statistics(served.api.knex, DIALECTS[kind.client], served.api.registry);
      {
        await statistics.gather();
        expect(statistics.ready).to.equal(true);
        const limits = { defaultLimit: 25, maxLimit: 100, withCount: true };
        for (const path of ['/api/articles', '/api/articles?populate=*', '/api/categories?populate[articles][fields][0]=title&pagination[pageSize]=100', '/api/articles?populate[blocks][populate]=*']) {
          const url = new URL(path, 'http://localhost');
          const model = served.api.registry.routes.get(url.pathname.split('/')[2]!)!;
          const root = planRestRead({ registry: served.api.registry, permissions: served.api.permissions, limits }, { model, action: 'find', id: null, querystring: url.search.slice(1), role: 'public' });
          const estimate = estimateRequest(root, statistics)!;
          const built = (await served.request.get(path)).text.length;
          expect(estimate.bytes / built, path).to.be.within(0.5, 2);
        }
      }
    });

    it('refuses a body estimated far over the budget without building it, once the figures are gathered', async () => {
      let response = await served.request.get(HOSTILE);
      // The figures are gathered beside the first requests; until then the body is built and measured.
      for (let tries = 0; tries < 100 && !/would be about/.test(response.body.error?.message ?? ''); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        response = await served.request.get(HOSTILE.replace('pageSize]=100', `pageSize]=${99 - (tries % 50)}`));
      }
      expect(response.status).to.equal(400);
      expect(response.body.error.message).to.match(/^The response would be about \d+\.\d MB, above the limit of 32\.0 MB/);
      expect(response.body.error.details.path).to.equal('populate.articles.populate.category.populate.articles.populate.category.populate.articles');
    });
  });
}

describe('statement costs', () => {
  it('takes a new shape for heavy unless its estimate says it is light, and then learns from its runs', () => {
    const costs = new StatementCosts();
    expect(costs.isHeavy('SELECT 1')).to.equal(true);
    expect(costs.isHeavy('SELECT 1', true)).to.equal(false);
    costs.record('SELECT 1', 50);
    expect(costs.isHeavy('SELECT 1', true)).to.equal(true);
  });
});
