/**
 * No input whatsoever is a 500: a few thousand random queries written in the query language
 * (mostly valid names, awkward values, deep filters and populate) answer 200, 400, 403 or 404 on
 * both engines, always in the envelope, and each within a second.
 */
import { expect } from 'chai';
import { queryGrammar } from '../support/query-grammar.js';
import { testDatabaseKinds } from '../support/databases.js';
import { serveFixture, type ServedApi } from '../support/api.js';
import { quickly } from '../support/quick-request.js';

const REQUESTS = 4000;

for (const kind of testDatabaseKinds()) {
  describe(`random queries in the query language (${kind.name})`, function () {
    let served: ServedApi;
    before(async function () {
      this.timeout(120_000);
      served = await serveFixture(kind.client, 'small', { resolveRole: (ctx) => ctx.get('x-test-role') || null });
    });
    after(() => served?.close());

    it(`answers ${REQUESTS} of them without a server error, half as editor`, async function () {
      this.timeout(180_000);
      const next = queryGrammar(served.api.registry, 20261123);
      const statuses = new Map<number, number>();
      for (let index = 0; index < REQUESTS; index += 1) {
        const path = next();
        const response = await quickly(path, () => served.request.get(path).set('x-test-role', index % 2 ? 'editor' : ''));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect([200, 400, 403, 404], `${response.status} for ${path}: ${response.text.slice(0, 200)}`).to.include(response.status);
        if (response.status !== 200) expect(response.body).to.have.nested.property('error.status', response.status);
      }
      // The grammar reaches the database often, not only the validator.
      expect(statuses.get(200) ?? 0).to.be.greaterThan(REQUESTS / 4);
      expect(statuses.get(400) ?? 0).to.be.greaterThan(REQUESTS / 10);
    });
  });
}
