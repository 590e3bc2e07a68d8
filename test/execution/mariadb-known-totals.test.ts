/**
 * Lists' totals known on MariaDB while the tables their count reads are unchanged
 * (sql/mysql-known-totals.ts), on a database with the change triggers: the same list again is
 * built without counting (Server-Timing says `total;desc="known"`) and answers the same bytes; a
 * write to a table the count reads — through the plugin, or plain SQL on a connection of its own —
 * is counted by the very next answer; a write to another table keeps the total; this process's
 * TRUNCATE, which fires no trigger, forgets every total. Without the triggers nothing is kept.
 */
import { expect } from 'chai';
import { createConnection } from 'mysql2/promise';
import { loadSchema } from '../../plugin/schema/load.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { installChangeTriggers } from '../../plugin/storage/change-triggers.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { mysqlConnectionConfig } from '../../plugin/storage/mysql-session.js';
import { serveApi, repoRoot, statementsOf, type ServedApi } from '../support/api.js';
import { createTestDatabase, mysqlServerUrl, type TestDatabase } from '../support/databases.js';
import { copyFixtureFile, createScratchFolder } from '../storage/fixtures.js';

const LIST = '/api/articles?fields[0]=title&pagination[pageSize]=2';
const FOOD = '/api/articles?filters[category][name][$eq]=Food&fields[0]=title';
const totalKnown = (response: { headers: Record<string, string> }) => /total;desc="known"/.test(response.headers['server-timing'] ?? '');
const totalOf = (response: { body: { meta: { pagination: { total: number } } } }) => response.body.meta.pagination.total;

/** One more published English article. */
const INSERT_ARTICLE = "INSERT INTO articles (title, locale, published_at, created_at, updated_at) VALUES ('Counted again', 'en', NOW(), NOW(), NOW())";

/** The small fixture copied into a MariaDB database of the suite's own, with the change triggers when `triggers`. */
async function ownDatabase(triggers: boolean): Promise<TestDatabase> {
  const folder = createScratchFolder();
  const target = await createTestDatabase('mysql');
  const source = openDatabase(`sqlite:${copyFixtureFile('small', folder)}`);
  try {
    const registry = await loadSchema(repoRoot);
    await copyDatabase({ from: source, to: target.knex, registry });
    if (triggers) await installChangeTriggers(target.knex, registry);
    return target;
  } catch (error) {
    await target.drop();
    throw error;
  } finally {
    await source.destroy();
    folder.remove();
  }
}

(mysqlServerUrl() ? describe : describe.skip)('MariaDB: lists\' totals known while their tables are unchanged', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let served: ServedApi;

  describe('with the change triggers', () => {
    beforeEach(async () => {
      database = await ownDatabase(true);
      served = await serveApi({ root: repoRoot, database: database.url, sync: false });
    });
    afterEach(async () => {
      await served?.close();
      await database?.drop();
    });

    it('answers the same list again with its total known, the same bytes, in one statement', async () => {
      const first = await served.request.get(LIST);
      expect(first.status).to.equal(200);
      expect(totalKnown(first)).to.equal(false);
      const again = await served.request.get(LIST);
      expect(totalKnown(again), again.headers['server-timing']).to.equal(true);
      expect(statementsOf(again)).to.equal(1);
      expect(again.text).to.equal(first.text);
      expect(again.headers.etag).to.equal(first.headers.etag);
    });

    it('keeps a total per filter value, and shares it between the pages of a list', async () => {
      const food = await served.request.get(FOOD);
      const tech = await served.request.get(FOOD.replace('Food', 'Tech'));
      expect(totalOf(food)).not.to.equal(totalOf(tech));
      const [foodAgain, techAgain] = [await served.request.get(FOOD), await served.request.get(FOOD.replace('Food', 'Tech'))];
      expect([totalKnown(foodAgain), totalKnown(techAgain)]).to.deep.equal([true, true]);
      expect([totalOf(foodAgain), totalOf(techAgain)]).to.deep.equal([totalOf(food), totalOf(tech)]);
      await served.request.get(LIST);
      const nextPage = await served.request.get(`${LIST}&pagination[page]=2`);
      expect(totalKnown(nextPage)).to.equal(true);
    });

    it('counts again in the first answer after a commit of another connection, and keeps the total through writes to tables the count does not read', async () => {
      const before = totalOf(await served.request.get(LIST));
      const other = await createConnection(mysqlConnectionConfig(database.url, 10_000));
      try {
        await other.query("UPDATE categories SET name = 'Renamed' WHERE id = 1");
        const unrelated = await served.request.get(LIST);
        expect(totalKnown(unrelated)).to.equal(true);
        await other.query(INSERT_ARTICLE);
        const after = await served.request.get(LIST);
        expect(totalKnown(after)).to.equal(false);
        expect(totalOf(after)).to.equal(before + 1);
        await other.query("DELETE FROM articles WHERE title = 'Counted again'");
      } finally {
        await other.end();
      }
      expect(totalOf(await served.request.get(LIST))).to.equal(before);
    });

    it('counts again after a write of the plugin\'s own knex, and through a filter\'s link table', async () => {
      const before = totalOf(await served.request.get(LIST));
      await served.api.knex.raw(INSERT_ARTICLE);
      expect(totalOf(await served.request.get(LIST))).to.equal(before + 1);
      const food = totalOf(await served.request.get(FOOD));
      expect(totalKnown(await served.request.get(FOOD))).to.equal(true);
      await served.api.knex.raw("DELETE FROM articles_category_links WHERE category_id = (SELECT id FROM categories WHERE name = 'Food') LIMIT 1");
      expect(totalOf(await served.request.get(FOOD))).to.equal(food - 1);
    });

    it('forgets every total at a TRUNCATE of its own knex, which fires no trigger', async () => {
      expect(totalOf(await served.request.get(FOOD))).to.be.above(0);
      expect(totalKnown(await served.request.get(FOOD))).to.equal(true);
      await served.api.knex('articles_category_links').truncate();
      const after = await served.request.get(FOOD);
      expect(totalKnown(after)).to.equal(false);
      expect(totalOf(after)).to.equal(0);
    });
  });

  it('keeps nothing on a database without the change triggers', async () => {
    database = await ownDatabase(false);
    served = await serveApi({ root: repoRoot, database: database.url, sync: false });
    try {
      const answers = [await served.request.get(LIST), await served.request.get(LIST)];
      expect(answers.map(totalKnown)).to.deep.equal([false, false]);
      expect(answers[1]!.text).to.equal(answers[0]!.text);
    } finally {
      await served.close();
      await database.drop();
    }
  });
});
