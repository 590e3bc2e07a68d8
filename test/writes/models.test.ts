/**
 * The models a host app gets (`api.models`, `buildModels`): a graph fetched through them holds the
 * same values the API answers for the same entries, and a graph with a component, a zone and a
 * relation inserted through them in one transaction is read back by the API as written.
 */
import { expect } from 'chai';
import type { ModelSet } from '../../plugin/index.js';
import { buildModels } from '../../plugin/index.js';
import type { Model, Registry } from '../../plugin/schema/registry.js';
import { modelOf } from '../../plugin/schema/registry.js';
import type { ComponentJoinModel, TableModel } from '../../plugin/storage/table-model.js';
import { serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freshFixture, type FreshFixture } from './support/fixture.js';

/** A row of a model's own table as the API writes its attributes: the visible scalars, by attribute name. */
function asAttributes(model: Model, row: TableModel): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const attribute of model.attributes.values()) {
    if (attribute.kind !== 'scalar' || attribute.hidden) continue;
    const value = row[attribute.column];
    attributes[attribute.name] = value instanceof Date ? value.toISOString() : value;
  }
  return attributes;
}

/** A zone row's component as the API writes a zone entry. */
function asZoneEntry(registry: Registry, row: ComponentJoinModel): Record<string, unknown> {
  const component = row.$component() as TableModel;
  const uid = row.component_type as string;
  return { id: component.id, __component: uid, ...asAttributes(modelOf(registry, uid), component) };
}

for (const kind of testDatabaseKinds()) {
  describe(`models for the host (${kind.name})`, () => {
    let fixture: FreshFixture;
    let served: ServedApi;
    let models: ModelSet;
    before(async () => {
      fixture = await freshFixture(kind.client);
      served = await serveApi({ root: fixture.root, database: fixture.url, sync: false });
      models = served.api.models;
    });
    after(async () => {
      await served?.close();
      await fixture?.drop();
    });

    it('names a class after each content type and component, bound to the API database', async () => {
      const { Article, Category, File, SharedSeo, User } = models.named;
      expect([Article, Category, File, SharedSeo, User].map((modelClass) => modelClass?.tableName)).to.deep.equal([
        'articles',
        'categories',
        'files',
        'components_shared_seos',
        'up_users',
      ]);
      expect(await models.model<{ title: string }>('api::article.article').query().findById(1)).to.have.property('title').that.is.a('string');
      expect(buildModels(served.api.registry, served.api.knex).named.Article).to.not.equal(Article);
    });

    it("withGraphFetched('[category, blocks]') holds the values the API answers", async () => {
      const registry = served.api.registry;
      const response = await served.request.get('/api/articles?locale=all&populate[category]=true&populate[blocks]=true&pagination[pageSize]=100');
      expect(response.status).to.equal(200);
      const articles = await models.named.Article!.query().whereNotNull('published_at').orderBy('id').withGraphFetched('[category, blocks]');
      expect(articles.length).to.equal(response.body.data.length).and.be.above(10);
      const category = modelOf(registry, 'api::category.category');
      const article = modelOf(registry, 'api::article.article');
      const fromModels = articles.map((row) => ({
        id: row.id,
        attributes: {
          ...asAttributes(article, row),
          category: { data: row.category ? { id: (row.category as TableModel).id, attributes: asAttributes(category, row.category as TableModel) } : null },
          blocks: (row.blocks as ComponentJoinModel[]).map((block) => asZoneEntry(registry, block)),
        },
      }));
      expect(fromModels).to.deep.equal(response.body.data);
      expect(fromModels.some((entry) => entry.attributes.blocks.length > 1)).to.equal(true);
    });

    it('inserts a graph with a component, a zone and a relation in one transaction, read back by the API', async () => {
      const { Article } = models.named;
      const created = await Article!.transaction(async (trx) =>
        Article!.query(trx).insertGraph(
          {
            title: 'Written as a graph',
            locale: 'en',
            created_at: new Date(),
            updated_at: new Date(),
            published_at: new Date(),
            seo: { meta_title: 'Graph SEO' },
            blocks: [
              { order: 1, sharedRichText: { body: 'First block' } },
              { order: 2, sharedQuote: { title: 'Second block', author: 'Ada' } },
            ],
            category: { id: 3, article_order: 1 },
          },
          { relate: ['category'] },
        ),
      );
      const response = await served.request.get(`/api/articles/${created.id}?populate[seo]=true&populate[blocks]=true&populate[category][fields][0]=name`);
      expect(response.status).to.equal(200);
      const { attributes } = response.body.data;
      expect(attributes.seo).to.include({ metaTitle: 'Graph SEO' });
      expect(attributes.blocks.map((block: any) => [block.__component, block.body ?? block.title])).to.deep.equal([
        ['shared.rich-text', 'First block'],
        ['shared.quote', 'Second block'],
      ]);
      expect(attributes.category.data.id).to.equal(3);
    });

    it('rolls the whole graph back when a part fails', async () => {
      const { Article } = models.named;
      const before = await Article!.query().resultSize();
      let failed = false;
      try {
        await Article!.transaction(async (trx) =>
          Article!.query(trx).insertGraph({ title: 'Never stored', locale: 'en', blocks: [{ order: 1, sharedQuote: { no_such_column: 1 } }] }),
        );
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect(await Article!.query().resultSize()).to.equal(before);
      expect(await Article!.query().where('title', 'Never stored')).to.have.length(0);
    });
  });
}
