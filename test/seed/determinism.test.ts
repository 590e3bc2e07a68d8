/**
 * The demo data is deterministic (two empty databases seeded with it hold the same rows, on each
 * engine and across engines) and stored the way Strapi v4 stores it: epoch-ms datetimes, 0/1
 * booleans and json text on SQLite, exact bigintegers, and the order columns of link, component
 * join and morph tables.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Registry } from '../../plugin/schema/registry.js';
import { describeLayout } from '../../plugin/storage/layout.js';
import { rawRows } from '../../plugin/storage/database.js';
import { buildModels } from '../../plugin/storage/models.js';
import { testDatabaseKinds } from '../support/databases.js';
import { createSeededDatabase, type SeededDatabase } from './seeded.js';

/** Every row of every table of the layout, read through the models (exact bigintegers), by table. */
async function readAllTables(knex: Knex, registry: Registry): Promise<Map<string, Record<string, unknown>[]>> {
  const models = buildModels(registry, { knex });
  const tables = new Map<string, Record<string, unknown>[]>();
  for (const table of describeLayout(registry).tables) {
    const rows = await models.table(table.name).query().orderBy('id');
    tables.set(table.name, rows.map((row) => ({ ...row })));
  }
  return tables;
}

/** Rows of `sql` as plain objects, on any engine. */
async function select(knex: Knex, sql: string): Promise<Record<string, unknown>[]> {
  return rawRows(knex, await knex.raw(sql));
}

function expectSameTables(actual: Map<string, Record<string, unknown>[]>, expected: Map<string, Record<string, unknown>[]>): void {
  expect([...actual.keys()]).to.deep.equal([...expected.keys()]);
  for (const [table, rows] of expected) {
    expect(rows, table).to.have.length.greaterThan(0);
    const other = actual.get(table)!;
    expect(other.length, `${table}: row count`).to.equal(rows.length);
    rows.forEach((row, index) => expect(other[index], `${table} row ${index + 1}`).to.deep.equal(row));
  }
}

/** Whether `values` is 1, 2, 3… */
const isSequence = (values: unknown[]) => values.every((value, index) => Number(value) === index + 1);

/** Groups rows by a key, keeping their id order. */
function groupBy(rows: Record<string, unknown>[], key: (row: Record<string, unknown>) => string): Map<string, Record<string, unknown>[]> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

for (const kind of testDatabaseKinds()) {
  describe(`demo data: determinism and storage (${kind.name})`, function () {
    this.timeout(120_000);
    let first: SeededDatabase;
    let second: SeededDatabase;
    before(async () => {
      first = await createSeededDatabase(kind.client);
      second = await createSeededDatabase(kind.client);
    });
    after(async () => {
      await first?.database.drop();
      await second?.database.drop();
    });

    it('writes the same rows, table by table and row by row, into two empty databases', async () => {
      const expected = await readAllTables(first.database.knex, first.registry);
      expectSameTables(await readAllTables(second.database.knex, second.registry), expected);
      expect(second.summary).to.deep.equal(first.summary);
    });

    it('sums up every table of the layout with the rows it added', async () => {
      const { knex } = first.database;
      const layout = describeLayout(first.registry).tables.map((table) => table.name);
      expect(first.summary.tables.map((entry) => entry.table)).to.deep.equal(layout);
      for (const entry of first.summary.tables) {
        const [row] = await knex(entry.table).count({ rows: '*' });
        expect(Number(row!.rows), entry.table).to.equal(entry.rows);
      }
      const counts = Object.fromEntries(first.summary.tables.map((entry) => [entry.table, entry.rows]));
      expect(counts).to.include({ articles: 32, categories: 12, restaurants: 10, up_users: 8, up_roles: 3, files: 25, articles_localizations_links: 16 });
      expect(first.summary.total).to.equal(Object.values(counts).reduce((sum, rows) => sum + rows, 0));
    });

    it('stores datetimes, booleans, json and bigintegers as Strapi does on this engine', async () => {
      const { knex } = first.database;
      const sql = {
        sqlite: `SELECT id, typeof(created_at) AS created_type, created_at, featured, typeof(metadata) AS metadata_type, metadata, CAST(views_total AS TEXT) AS views_total FROM articles WHERE id <= 4 ORDER BY id`,
        postgres: `SELECT id, to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS created_at, featured, jsonb_typeof(metadata) AS metadata_type, views_total::text AS views_total FROM articles WHERE id <= 4 ORDER BY id`,
        mysql: `SELECT id, DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%s.%f') AS created_at, featured, LOWER(JSON_TYPE(metadata)) AS metadata_type, CAST(views_total AS CHAR) AS views_total FROM articles WHERE id <= 4 ORDER BY id`,
      }[kind.client];
      const rows = await select(knex, sql);
      expect(rows.map((row) => row.views_total).slice(0, 2)).to.deep.equal(['9007199254740993', '9223372036854775807']);
      if (kind.client === 'mysql') {
        // MariaDB: datetime(6) in UTC, tinyint(1) booleans, json checked by JSON_VALID.
        expect(rows[0]).to.include({ created_at: '2024-01-16T17:00:00.000000', featured: 1 });
        expect(rows.map((row) => row.metadata_type)).to.deep.equal(['object', 'array', 'string', null]);
      } else if (kind.client === 'sqlite') {
        expect(rows[0]).to.include({ created_type: 'integer', created_at: Date.parse('2024-01-16T17:00:00.000Z'), featured: 1, metadata_type: 'text' });
        expect(rows.map((row) => (row.metadata === null ? null : typeof JSON.parse(row.metadata as string)))).to.deep.equal(['object', 'object', 'string', null]);
      } else {
        expect(rows[0]).to.include({ created_at: '2024-01-16T17:00:00.000', featured: true });
        expect(rows.map((row) => row.metadata_type)).to.deep.equal(['object', 'array', 'string', null]);
      }
    });

    it('orders components 1.0, 2.0… per owner and field (one sequence across a zone), single components with NULL', async () => {
      for (const table of ['articles_components', 'restaurants_components', 'components_shared_seos_components']) {
        const rows = await select(first.database.knex, `SELECT * FROM ${table} ORDER BY id`);
        const single = rows.filter((row) => ['seo', 'related', 'address'].includes(row.field as string));
        expect(single.length > 0, `${table} has single components`).to.equal(table !== 'components_shared_seos_components');
        for (const row of single) expect(row.order, `${table} ${row.field}`).to.equal(null);
        const lists = groupBy(rows.filter((row) => !single.includes(row)), (row) => `${row.entity_id}/${row.field}`);
        for (const [key, group] of lists) expect(isSequence(group.map((row) => row.order)), `${table} ${key}`).to.equal(true);
      }
      const zoneTypes = await select(first.database.knex, `SELECT DISTINCT component_type FROM articles_components WHERE field = 'blocks' ORDER BY component_type`);
      expect(zoneTypes.map((row) => row.component_type)).to.deep.equal(['shared.media', 'shared.quote', 'shared.rich-text', 'shared.slider']);
    });

    it('relates media to the owner uid, or the component uid for media inside components, in order', async () => {
      const rows = await select(first.database.knex, `SELECT * FROM files_related_morphs ORDER BY id`);
      const owners = [...new Set(rows.map((row) => `${row.related_type}.${row.field}`))].sort();
      expect(owners).to.deep.equal([
        'api::article.article.gallery', 'api::article.article.headerImage', 'api::category.category.icon',
        'api::restaurant.restaurant.cover', 'api::restaurant.restaurant.images', 'shared.media.file',
        'shared.meta-social.image', 'shared.seo.metaImage', 'shared.slider.files',
      ]);
      for (const [key, group] of groupBy(rows, (row) => `${row.related_type}/${row.related_id}/${row.field}`)) {
        expect(isSequence(group.map((row) => row.order)), key).to.equal(true);
      }
    });

    it('writes the order columns of link tables: the owner side per owner, the inverse side per target', async () => {
      const { knex } = first.database;
      const categories = await select(knex, 'SELECT * FROM articles_categories_links ORDER BY id');
      for (const group of groupBy(categories, (row) => String(row.article_id)).values()) expect(isSequence(group.map((row) => row.category_order))).to.equal(true);
      for (const group of groupBy(categories, (row) => String(row.category_id)).values()) expect(isSequence(group.map((row) => row.article_order))).to.equal(true);
      const children = await select(knex, 'SELECT * FROM categories_parent_links ORDER BY id');
      for (const group of groupBy(children, (row) => String(row.inv_category_id)).values()) expect(isSequence(group.map((row) => row.category_order))).to.equal(true);
      const localizations = await select(knex, 'SELECT article_id, inv_article_id, article_order FROM articles_localizations_links ORDER BY id');
      const pairs = new Set(localizations.map((row) => `${row.article_id}>${row.inv_article_id}`));
      for (const row of localizations) {
        expect(pairs.has(`${row.inv_article_id}>${row.article_id}`), `the reverse of ${row.article_id}>${row.inv_article_id}`).to.equal(true);
        expect(Number(row.article_order)).to.equal(1);
      }
    });
  });
}

for (const kind of testDatabaseKinds().filter((other) => other.client !== 'sqlite')) {
  describe(`demo data: the same on SQLite and ${kind.name}`, function () {
    this.timeout(120_000);
    let sqlite: SeededDatabase | undefined;
    let server: SeededDatabase | undefined;
    before(async () => {
      sqlite = await createSeededDatabase('sqlite');
      server = await createSeededDatabase(kind.client);
    });
    after(async () => {
      await sqlite?.database.drop();
      await server?.database.drop();
    });

    it('holds the same values in every row of every table, as the models read them', async () => {
      const expected = await readAllTables(sqlite!.database.knex, sqlite!.registry);
      expectSameTables(await readAllTables(server!.database.knex, server!.registry), expected);
    });
  });
}
