import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { loadSchema } from '../../plugin/schema/load.js';
import { modelOf, type Registry, type RelationAttribute } from '../../plugin/schema/registry.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { repoRoot } from './schema-fixtures.js';

function relation(registry: Registry, uid: string, name: string): RelationAttribute {
  const attribute = modelOf(registry, uid).attributes.get(name);
  if (attribute?.kind !== 'relation') throw new Error(`${uid}.${name} is not a relation`);
  return attribute;
}

describe('schema loading: the example schema', () => {
  let registry: Registry;
  before(async () => {
    registry = await loadSchema(repoRoot);
  });

  it('has the content types of the conformance app, users and roles included', () => {
    expect(registry.contentTypes.map((model) => model.uid)).to.deep.equal([
      'api::article.article',
      'api::category.category',
      'api::restaurant.restaurant',
      'plugin::users-permissions.role',
      'plugin::users-permissions.user',
    ]);
    expect([...registry.routes.keys()].sort()).to.deep.equal(['articles', 'categories', 'restaurants', 'roles', 'users']);
    expect(registry.i18n.defaultLocale).to.equal('en');
  });

  it('has the components, named by folder and file', () => {
    expect(registry.components.map((model) => model.uid).sort()).to.deep.equal([
      'restaurant.opening-hour',
      'shared.address',
      'shared.link',
      'shared.media',
      'shared.meta-social',
      'shared.quote',
      'shared.related-content',
      'shared.rich-text',
      'shared.seo',
      'shared.slider',
    ]);
  });

  it('reads the article as written: draft and publish, i18n, attributes in order, private ones hidden', () => {
    const article = modelOf(registry, 'api::article.article');
    expect(article).to.include({ tableName: 'articles', draftAndPublish: true, localized: true, componentJoinTable: 'articles_components' });
    expect([...article.attributes.keys()].slice(0, 3)).to.deep.equal(['title', 'slug', 'description']);
    const fields = article.defaultFields.map((field) => field.name);
    expect(fields).to.include.members(['title', 'viewsTotal', 'createdAt', 'publishedAt', 'locale']);
    expect(fields).to.not.include.members(['internalNotes', 'accessCode']);
    expect(article.source).to.deep.equal({ file: 'content-types/article.yaml', line: 2, column: 1 });
  });

  it('names the owning side of article.category as Strapi does', () => {
    const category = relation(registry, 'api::article.article', 'category');
    expect(category.linkTable).to.deep.include({
      name: 'articles_category_links',
      joinColumn: 'article_id',
      inverseJoinColumn: 'category_id',
      orderColumn: null,
      inverseOrderColumn: 'article_order',
    });
    expect(category.link).to.deep.equal({ table: 'articles_category_links', sourceColumn: 'article_id', targetColumn: 'category_id', orderColumn: null });
  });

  it('reads mappedBy sides through the owner link table, columns swapped', () => {
    const articles = relation(registry, 'api::category.category', 'articles');
    expect(articles.linkTable).to.equal(null);
    expect(articles.link).to.deep.equal({ table: 'articles_category_links', sourceColumn: 'category_id', targetColumn: 'article_id', orderColumn: 'article_order' });
    const children = relation(registry, 'api::category.category', 'children');
    expect(children.link).to.deep.equal({ table: 'categories_parent_links', sourceColumn: 'inv_category_id', targetColumn: 'category_id', orderColumn: 'category_order' });
    const users = relation(registry, 'plugin::users-permissions.role', 'users');
    expect(users.link).to.deep.equal({ table: 'up_users_role_links', sourceColumn: 'role_id', targetColumn: 'user_id', orderColumn: 'user_order' });
  });

  it('adds the implicit localizations link of localized types', () => {
    const localizations = relation(registry, 'api::article.article', 'localizations');
    expect(localizations.link).to.deep.equal({ table: 'articles_localizations_links', sourceColumn: 'article_id', targetColumn: 'inv_article_id', orderColumn: 'article_order' });
  });

  it('names links declared in components after the component table and file name', () => {
    const category = relation(registry, 'shared.quote', 'category');
    expect(category.link).to.deep.equal({ table: 'components_shared_quotes_category_links', sourceColumn: 'quote_id', targetColumn: 'category_id', orderColumn: null });
    const restaurants = relation(registry, 'shared.related-content', 'restaurants');
    expect(restaurants.link.table).to.equal('components_shared_related_contents_restaurants_links');
    expect(restaurants.link.sourceColumn).to.equal('related_content_id');
  });

  it('names the component join tables', () => {
    expect(modelOf(registry, 'shared.seo').componentJoinTable).to.equal('components_shared_seos_components');
    expect(modelOf(registry, 'api::restaurant.restaurant').componentJoinTable).to.equal('restaurants_components');
    expect(modelOf(registry, 'api::category.category').componentJoinTable).to.equal(null);
  });

  it('keeps author.role a known relation of the user', () => {
    const role = relation(registry, 'plugin::users-permissions.user', 'role');
    expect(role.target).to.equal('plugin::users-permissions.role');
    expect(role.linkTable).to.deep.include({ name: 'up_users_role_links', joinColumn: 'user_id', inverseJoinColumn: 'role_id' });
    expect(relation(registry, 'api::article.article', 'author').target).to.equal('plugin::users-permissions.user');
  });

  it('finds every table and column it names in the fixture database Strapi wrote', () => {
    const database = new Database(join(conformanceKitDir(), 'db', 'strapi-small.db'), { readonly: true, fileMustExist: true });
    try {
      const columnsOf = (table: string) =>
        (database.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((row) => row.name);
      const missing: string[] = [];
      const expectColumns = (table: string, columns: (string | null)[]) => {
        const present = columnsOf(table);
        for (const column of columns) if (column && !present.includes(column)) missing.push(`${table}.${column}`);
        if (!present.length) missing.push(table);
      };
      for (const model of registry.models.values()) {
        const scalars = [...model.attributes.values()].flatMap((attribute) => (attribute.kind === 'scalar' ? [attribute.column] : []));
        expectColumns(model.tableName, scalars);
        if (model.componentJoinTable) expectColumns(model.componentJoinTable, ['entity_id', 'component_id', 'component_type', 'field', 'order']);
        for (const attribute of model.attributes.values()) {
          if (attribute.kind !== 'relation') continue;
          const { table, sourceColumn, targetColumn, orderColumn } = attribute.link;
          expectColumns(table, [sourceColumn, targetColumn, orderColumn]);
          if (attribute.linkTable) expectColumns(attribute.linkTable.name, [attribute.linkTable.inverseOrderColumn]);
        }
      }
      expect(missing).to.deep.equal([]);
    } finally {
      database.close();
    }
  });

  it('takes the default locale from the options', async () => {
    const french = await loadSchema(repoRoot, { defaultLocale: 'fr' });
    expect(french.i18n.defaultLocale).to.equal('fr');
  });
});
