/**
 * Every distinct query shape prepares a statement on a PostgreSQL connection; callers choose the
 * shapes, so a connection releases them all past a bound instead of growing without limit.
 */
import { expect } from 'chai';
import { openDatabase } from '../../plugin/storage/database.js';
import { postgresServerUrl } from '../support/databases.js';
import { fixtureDatabase, repoRoot, serveApi, type ServedApi } from '../support/api.js';
import type { Knex } from 'knex';

(postgresServerUrl() ? describe : describe.skip)('prepared statements on PostgreSQL', function () {
  let knex: Knex;
  let served: ServedApi;
  before(async function () {
    this.timeout(120_000);
    // One connection, so that pg_prepared_statements shows the API's own session.
    knex = openDatabase(await fixtureDatabase('postgres'), { poolSize: 1 });
    served = await serveApi({ root: repoRoot, database: knex, sync: false, planCacheSize: 0 });
  });
  after(async () => {
    await served?.close();
    await knex?.destroy();
  });

  const prepared = async () => Number((await knex.raw('SELECT count(*) AS n FROM pg_prepared_statements')).rows[0].n);

  it('reuses the statement of a shape it has prepared', async () => {
    // A new shape counts as heavy and first runs in a body worker, on a connection of its own;
    // once it has run fast, the API's connection prepares it and reuses it from then on. A few
    // runs first: on a loaded machine the first ones may not be fast enough to count as light.
    for (let value = 0; value < 6; value += 1) await served.request.get(`/api/articles?fields[0]=title&filters[views][$gt]=${value}`);
    const before = await prepared();
    await served.request.get('/api/articles?fields[0]=title&filters[views][$gt]=7');
    expect(await prepared()).to.equal(before);
  });

  it('keeps at most 200 prepared statements, whatever the number of shapes', async function () {
    this.timeout(60_000);
    // Lists of 1 to 100 ids, sorted three ways: 300 distinct statements.
    let most = 0;
    for (const sort of ['id', 'views', 'title']) {
      for (let length = 1; length <= 100; length += 1) {
        const ids = Array.from({ length }, (_, index) => `filters[id][$in][${index}]=${index + 1}`).join('&');
        // The second time, the shape is known to be light and runs on the API's connection.
        for (let time = 0; time < 2; time += 1) {
          const response = await served.request.get(`/api/articles?fields[0]=title&pagination[withCount]=false&sort=${sort}&${ids}`);
          expect(response.status).to.equal(200);
        }
        most = Math.max(most, await prepared());
      }
    }
    expect(most).to.equal(200);
    expect(await prepared()).to.be.within(1, 200);
  });
});
