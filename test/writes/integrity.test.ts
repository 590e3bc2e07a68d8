/**
 * Every write is one transaction: a statement that fails halfway through a graph write (a trigger
 * refusing the third table it writes) leaves every table as it was, and answers a bare 500. Two
 * APIs on the same database (two connection pools, as two processes would be) reordering the
 * same relation list at once leave both order columns a permutation; of concurrent creates with
 * one unique value, one wins and the others get a 400.
 */
import { expect } from 'chai';
import { serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { seededRandom } from '../support/seeded-random.js';
import { writeApi, type WriteApi } from './support/write-api.js';

const TABLES = ['articles', 'components_shared_seos', 'components_shared_links', 'articles_components', 'articles_category_links', 'files_related_morphs'];

for (const kind of testDatabaseKinds()) {
  describe(`write integrity (${kind.name})`, () => {
    let api: WriteApi;
    let second: ServedApi;
    before(async () => {
      api = await writeApi(kind.client);
      second = await serveApi({ root: api.fixture.root, database: api.fixture.url, watchPermissions: false });
    });
    after(async () => {
      await second?.close();
      await api?.close();
    });

    const counts = async () => Promise.all(TABLES.map(async (table) => Number(((await api.api.knex(table).count({ n: '*' }).first()) as { n: string | number }).n)));

    it('rolls a graph write back when a statement in the middle fails', async () => {
      const knex = api.api.knex;
      if (kind.client === 'sqlite') {
        await knex.raw("CREATE TRIGGER refuse_links BEFORE INSERT ON components_shared_links BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
      } else if (kind.client === 'mysql') {
        await knex.raw("CREATE TRIGGER refuse_links BEFORE INSERT ON components_shared_links FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'");
      } else {
        await knex.raw("CREATE FUNCTION refuse_row() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql");
        await knex.raw('CREATE TRIGGER refuse_links BEFORE INSERT ON components_shared_links FOR EACH ROW EXECUTE FUNCTION refuse_row()');
      }
      try {
        const before = await counts();
        const response = await api.as('editor').post('/api/articles', {
          data: { title: 'Half written', category: 2, headerImage: 1, seo: { metaTitle: 'written first' }, links: [{ label: 'refused' }] },
        });
        expect(response.status).to.equal(500);
        expect(JSON.stringify(response.body)).to.not.contain('refused by the test');
        expect(await counts()).to.deep.equal(before);
      } finally {
        await knex.raw('DROP TRIGGER refuse_links' + (kind.client === 'postgres' ? ' ON components_shared_links' : ''));
      }
    });

    it('gives one of many concurrent creates a unique value, and the others a 400', async () => {
      const create = (served: ServedApi) => served.request.post('/api/categories').set('Authorization', 'Bearer editor-token').send({ data: { name: 'Race', slug: 'race-slug' } });
      const responses = await Promise.all(Array.from({ length: 6 }, (_, index) => create(index % 2 ? second : api)));
      expect(responses.map((response) => response.status).sort()).to.deep.equal([200, 400, 400, 400, 400, 400]);
      for (const response of responses.filter((answer) => answer.status === 400)) expect(response.body.error.details.errors[0].path).to.deep.equal(['slug']);
    });

    it('answers a 503 within the deadline when another writer holds the table', async function () {
      const hurried = await serveApi({ root: api.fixture.root, database: api.fixture.url, watchPermissions: false, timeout: 500 });
      // SQLite: another connection holds the write lock; PostgreSQL: a transaction locks the table;
      // MariaDB: a transaction locks every row and the gap after the last (new rows wait).
      const holder = kind.client === 'sqlite' ? await second.api.knex.transaction() : await api.api.knex.transaction();
      try {
        const lock = { sqlite: 'UPDATE categories SET name = name WHERE id = 1', postgres: 'LOCK TABLE categories IN ACCESS EXCLUSIVE MODE', mysql: 'SELECT id FROM categories FOR UPDATE' };
        await holder.raw(lock[kind.client]);
        const started = Date.now();
        const response = await hurried.request.post('/api/categories').set('Authorization', 'Bearer editor-token').send({ data: { name: 'Hurried' } });
        expect([response.status, response.body.error.name]).to.deep.equal([503, 'ServiceUnavailableError']);
        expect(Date.now() - started).to.be.below(2_000);
      } finally {
        await holder.rollback();
        await hurried.close();
      }
      const later = await api.as('editor').post('/api/categories', { data: { name: 'Later' } });
      expect(later.status).to.equal(200);
    });

    it('keeps the order columns a permutation under two concurrent writers', async function () {
      this.timeout(120_000);
      const categories = [1, 2, 3, 4, 5, 6, 7, 8];
      const created = await api.as('editor').post('/api/articles', { data: { title: 'Contended', categories } });
      expect(created.status).to.equal(200);
      const id = created.body.data.id as number;
      const random = seededRandom(7);
      const positionFor = (target: number) => {
        const others = categories.filter((other) => other !== target);
        const anchor = others[Math.floor(random() * others.length)];
        return [{ start: true }, { end: true }, { before: anchor }, { after: anchor }][Math.floor(random() * 4)];
      };
      const writes = (served: ServedApi) =>
        Array.from({ length: 25 }, () => {
          const target = categories[Math.floor(random() * categories.length)];
          return served.request.put(`/api/articles/${id}`).set('Authorization', 'Bearer editor-token').send({ data: { categories: { connect: [{ id: target, position: positionFor(target) }] } } });
        });
      const responses = await Promise.all([...writes(api), ...writes(second)]);
      expect(responses.map((response) => response.status)).to.deep.equal(responses.map(() => 200));
      const rows = (await api.api.knex('articles_categories_links').where({ article_id: id }).orderBy('category_order')) as { category_id: number; category_order: number; article_order: number }[];
      expect(rows.map((row) => Number(row.category_order))).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(rows.map((row) => Number(row.category_id)).sort((a, b) => a - b)).to.deep.equal(categories);
      for (const category of categories) {
        const orders = (await api.api.knex('articles_categories_links').where({ category_id: category }).pluck('article_order')).map(Number);
        expect(new Set(orders).size, `article_order of category ${category}`).to.equal(orders.length);
      }
    });
  });
}
