/**
 * The generated Objection models read the fixture Strapi wrote as Strapi's recorded responses
 * show it — every relation kind, components, dynamic zones and media, in link order — and write
 * rows the way Strapi stores them, on SQLite (epoch ms, 0/1, json text), PostgreSQL and MariaDB.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Registry } from '../../plugin/schema/registry.js';
import { buildModels, type ModelSet } from '../../plugin/storage/models.js';
import type { ComponentJoinModel, TableModel } from '../../plugin/storage/table-model.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { testDatabaseKinds } from '../support/databases.js';
import { loadExampleRegistry, openFixtureDatabase, useOffsetTimeZone, type FixtureDatabase } from './fixtures.js';

interface RecordedEntry {
  id: number;
  attributes: Record<string, any>;
}

/** The body of a recorded Strapi response of the conformance kit. */
function recordedData(name: string): any {
  return JSON.parse(readFileSync(join(conformanceKitDir(), 'cases', 'public', `${name}.json`), 'utf8')).body.data;
}

const ids = (list: readonly { id: number }[] | null | undefined) => (list ?? []).map((item) => item.id);
const dataIds = (relation: { data: RecordedEntry[] | null }) => (relation.data ?? []).map((entry) => entry.id);

describe('storage models', function () {
  this.timeout(60_000);
  let registry: Registry;
  before(async () => {
    registry = await loadExampleRegistry();
  });

  it('has one model per content type, component and the file type, and one per link, join and morph table', () => {
    const set = buildModels(registry);
    expect(set.models.size).to.equal(16);
    expect(set.tables.size).to.equal(32);
    expect(set.model('api::article.article').tableName).to.equal('articles');
    expect(set.model('api::article.article').idColumn).to.equal('id');
    expect(set.model('plugin::upload.file').tableName).to.equal('files');
    expect(set.model('shared.seo').tableName).to.equal('components_shared_seos');
    expect(set.table('articles_categories_links').name).to.equal('ArticlesCategoriesLinks');
    expect(set.table('files_related_morphs').tableName).to.equal('files_related_morphs');
    expect(buildModels(registry).model('api::article.article')).to.not.equal(set.model('api::article.article'));
  });

  for (const kind of testDatabaseKinds()) {
    describe(`on strapi-small (${kind.name})`, () => {
      let fixture: FixtureDatabase;
      let set: ModelSet;
      useOffsetTimeZone();
      before(async () => {
        fixture = await openFixtureDatabase(kind.client, 'small', registry);
        set = buildModels(registry, { knex: fixture.knex });
      });
      after(() => fixture?.drop());

      it('fetches article 1 with every kind of relation as Strapi returned it (populate=*)', async () => {
        const recorded: RecordedEntry = recordedData('004-article-findone-populate-star');
        const article = await set
          .model('api::article.article')
          .query()
          .findById(1)
          .withGraphFetched('[category, categories, featuredIn, author.role, localizations, seo.metaSocial.image, links, blocks, headerImage, gallery]');
        const expected = recorded.attributes;
        expect(article?.category).to.include({ id: dataIds({ data: [expected.category.data] })[0] });
        expect(ids(article?.categories as TableModel[])).to.deep.equal(dataIds(expected.categories)).and.deep.equal([12, 9]);
        expect(article?.featuredIn).to.equal(null);
        expect(article?.author).to.include({ id: 2, username: 'user02', confirmed: true, blocked: false });
        expect((article?.author as TableModel).role).to.include({ type: 'authenticated' });
        expect(ids(article?.localizations as TableModel[])).to.deep.equal([41]);
        expect(ids(article?.links as TableModel[])).to.deep.equal(ids(expected.links)).and.deep.equal([1, 2, 3]);
        expect((article?.links as TableModel[]).map((link) => link.is_external)).to.deep.equal(expected.links.map((link: any) => link.isExternal));
        expect(article?.seo).to.include({ id: 1, meta_title: expected.seo.metaTitle, prevent_indexing: false });
        expect((article?.seo as TableModel).structured_data).to.deep.equal(expected.seo.structuredData);
        const zone = (article?.blocks as ComponentJoinModel[]).map((row) => [row.component_type, row.component_id]);
        expect(zone).to.deep.equal(expected.blocks.map((block: any) => [block.__component, block.id]));
        expect((article?.headerImage as TableModel).id).to.equal(expected.headerImage.data.id);
        expect((article?.headerImage as TableModel).formats).to.deep.equal(expected.headerImage.data.attributes.formats);
        expect(ids(article?.gallery as TableModel[])).to.deep.equal(dataIds(expected.gallery)).and.deep.equal([3]);
      });

      it('reads scalar values as Strapi returned them: exact bigint, UTC datetimes, booleans, json, decimal, date, time', async () => {
        const expected = recordedData('004-article-findone-populate-star').attributes;
        const article = (await set.model('api::article.article').query().findById(1)) as TableModel;
        expect(article.views_total).to.equal(expected.viewsTotal).and.equal('9007199254740993');
        expect((article.created_at as Date).toISOString()).to.equal(expected.createdAt);
        expect((article.scheduled_at as Date).toISOString()).to.equal(expected.scheduledAt);
        expect(article).to.include({ featured: expected.featured, price: expected.price, rating: expected.rating });
        expect(article).to.include({ publish_date: expected.publishDate, publish_time: expected.publishTime });
        expect(article.metadata).to.deep.equal(expected.metadata);
        const metadata = (await set.model('api::article.article').query().findByIds([2, 3]).orderBy('id')).map((row) => row.metadata);
        expect(metadata).to.deep.equal(['just a string', null]);
      });

      it('reads the media of components nested in components (seo.metaSocial.image)', async () => {
        const recorded: RecordedEntry[] = recordedData('120-pop-dot-component');
        const articles = await set
          .model('api::article.article')
          .query()
          .findByIds(ids(recorded))
          .withGraphFetched('seo.metaSocial.image');
        const byId = new Map(articles.map((article) => [article.id, article]));
        for (const entry of recorded) {
          const seo = byId.get(entry.id)?.seo as TableModel | null;
          const social = (seo?.metaSocial ?? []) as TableModel[];
          const expected = entry.attributes.seo?.metaSocial ?? [];
          expect(social.map((item) => [item.id, (item.image as TableModel | null)?.id ?? null]), `article ${entry.id}`).to.deep.equal(
            expected.map((item: any) => [item.id, item.image.data?.id ?? null]),
          );
        }
      });

      it('reads both sides of a self relation: parent (owner) and children (mappedBy, in link order)', async () => {
        const recorded: RecordedEntry[] = recordedData('151-c-self-parent-children');
        const categories = await set.model('api::category.category').query().withGraphFetched('[parent, children]').orderBy('id');
        expect(categories.map((category) => [category.id, (category.parent as TableModel | null)?.id ?? null, ids(category.children as TableModel[])])).to.deep.equal(
          recorded.map((entry) => [entry.id, entry.attributes.parent.data?.id ?? null, dataIds(entry.attributes.children)]),
        );
      });

      it('gives each dynamic-zone row its own component only, with relations inside components', async () => {
        const recorded: RecordedEntry[] = recordedData('141-dz-on-one').filter((entry: RecordedEntry) => entry.attributes.blocks.length);
        const articles = await set
          .model('api::article.article')
          .query()
          .findByIds(ids(recorded))
          .withGraphFetched('blocks.[sharedQuote.category, sharedRichText, sharedMedia, sharedSlider]');
        for (const entry of recorded) {
          const rows = articles.find((article) => article.id === entry.id)?.blocks as ComponentJoinModel[];
          for (const row of rows) {
            const reached = ['sharedQuote', 'sharedRichText', 'sharedMedia', 'sharedSlider'].filter((name) => row[name]);
            expect(reached, `${row.component_type} ${row.component_id}`).to.have.length(1);
            expect(row.$component()).to.include({ id: row.component_id });
          }
          const quotes = rows.filter((row) => row.component_type === 'shared.quote').map((row) => row.$component() as TableModel);
          expect(quotes.map((quote) => [quote.id, quote.title, (quote.category as TableModel | null)?.id ?? null])).to.deep.equal(
            entry.attributes.blocks.map((block: any) => [block.id, block.title, block.category.data?.id ?? null]),
          );
        }
      });

      it('writes datetimes, booleans, json and bigintegers the way Strapi stores them', async () => {
        const Article = set.model('api::article.article');
        const created = await Article.query().insert({
          title: 'Written by a model',
          created_at: new Date('2024-05-01T10:20:30.456Z'),
          featured: true,
          metadata: { tags: ['x'], level: 1 },
          views_total: '9007199254740995',
          price: 12.5,
          locale: 'en',
        });
        const raw =
          kind.client === 'sqlite'
            ? (await fixture.knex.raw(`SELECT created_at, typeof(created_at) AS type, featured, metadata, CAST(views_total AS TEXT) AS views_total FROM articles WHERE id = ?`, [created.id]))[0]
            : kind.client === 'mysql'
              ? (
                  await fixture.knex.raw(
                    `SELECT DATE_FORMAT(created_at, '%Y-%m-%d %H:%i:%s.%f') AS created_at, featured, metadata, CAST(views_total AS CHAR) AS views_total FROM articles WHERE id = ?`,
                    [created.id],
                  )
                )[0][0]
              : (
                await fixture.knex.raw(
                  `SELECT to_char(created_at, 'YYYY-MM-DD HH24:MI:SS.MS') AS created_at, featured, metadata::text AS metadata, views_total::text AS views_total FROM articles WHERE id = ?`,
                  [created.id],
                )
              ).rows[0];
        const stored = {
          sqlite: { created_at: 1714558830456, type: 'integer', featured: 1, metadata: '{"tags":["x"],"level":1}', views_total: '9007199254740995' },
          // MariaDB: datetime(6) in UTC, tinyint(1), json as the text written.
          mysql: { created_at: '2024-05-01 10:20:30.456000', featured: 1, metadata: '{"tags":["x"],"level":1}', views_total: '9007199254740995' },
          postgres: { created_at: '2024-05-01 10:20:30.456', featured: true, metadata: '{"tags": ["x"], "level": 1}', views_total: '9007199254740995' },
        };
        expect(raw).to.deep.equal(stored[kind.client]);
        const read = (await Article.query().findById(created.id as number)) as TableModel;
        expect((read.created_at as Date).toISOString()).to.equal('2024-05-01T10:20:30.456Z');
        expect(read).to.deep.include({ featured: true, metadata: { tags: ['x'], level: 1 }, views_total: '9007199254740995', price: 12.5 });
        await Article.query().deleteById(created.id as number);
      });

      it('writes relations, components and media through their tables, with the filter columns set', async () => {
        const Article = set.model('api::article.article');
        const article = (await Article.query().insert({ title: 'Related by a model', locale: 'en' })) as TableModel;
        await article.$relatedQuery<TableModel>('categories').relate({ id: 9, category_order: 2 });
        await article.$relatedQuery<TableModel>('categories').relate({ id: 12, category_order: 1 });
        await article.$relatedQuery<TableModel>('links').insert({ label: 'Second', order: 2 });
        await article.$relatedQuery<TableModel>('links').insert({ label: 'First', order: 1 });
        await article.$relatedQuery<TableModel>('gallery').relate({ id: 3, order: 1 });
        const joins = await set.table('articles_components').query().where('entity_id', article.id as number).orderBy('order');
        expect(joins.map((row) => [row.field, row.component_type, row.order])).to.deep.equal([
          ['links', 'shared.link', 1],
          ['links', 'shared.link', 2],
        ]);
        const morphs = await set.table('files_related_morphs').query().where('related_id', article.id as number);
        expect(morphs.map((row) => [row.file_id, row.related_type, row.field, row.order])).to.deep.equal([[3, 'api::article.article', 'gallery', 1]]);
        const read = (await Article.query().findById(article.id as number).withGraphFetched('[categories, links, gallery, headerImage]')) as TableModel;
        expect(ids(read.categories as TableModel[])).to.deep.equal([12, 9]);
        expect((read.links as TableModel[]).map((link) => link.label)).to.deep.equal(['First', 'Second']);
        expect(ids(read.gallery as TableModel[])).to.deep.equal([3]);
        expect(read.headerImage).to.equal(null);
        await Article.query().deleteById(article.id as number);
        // Link and join rows cascade with the article; morph rows are polymorphic and have no foreign key.
        expect(await set.table('articles_categories_links').query().where('article_id', article.id as number)).to.have.length(0);
        expect(await set.table('articles_components').query().where('entity_id', article.id as number)).to.have.length(0);
        await set.table('files_related_morphs').query().where({ related_id: article.id, related_type: 'api::article.article' }).delete();
      });
    });
  }
});
