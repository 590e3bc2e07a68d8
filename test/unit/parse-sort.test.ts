import { expect } from 'chai';
import { parseSort } from '../../plugin/query/parse-sort.js';
import { ID_FIELD, type SortKey } from '../../plugin/query/tree.js';
import { article, registry } from '../support/article-registry.js';
import { expectValidationError, fuzz, itRejects, parseQueryString } from '../support/query-string.js';
import { testModel } from '../support/test-registry.js';

/** `category.name desc`: a sort key written back as a dot path and a direction. */
function describeKey(key: SortKey): string {
  return `${[...key.path.map((step) => step.attribute.name), key.field.name].join('.')} ${key.direction}`;
}

describe('parseSort', () => {
  function sortOf(query: string, model = article): string[] {
    return parseSort(model, parseQueryString(query).sort, 'sort', registry).map(describeKey);
  }

  describe('accepted forms', () => {
    it('has no keys when absent, null or empty', () => {
      expect(parseSort(article, undefined, 'sort', registry)).to.deep.equal([]);
      expect(sortOf('sort')).to.deep.equal([]);
      expect(sortOf('sort=')).to.deep.equal([]);
    });

    it('takes a name, ascending by default, and a direction in any case', () => {
      expect(sortOf('sort=title')).to.deep.equal(['title asc']);
      expect(sortOf('sort=title:desc')).to.deep.equal(['title desc']);
      expect(sortOf('sort=title:DESC')).to.deep.equal(['title desc']);
      expect(sortOf('sort=title:Asc')).to.deep.equal(['title asc']);
    });

    it('takes comma lists, trimmed, and arrays of them in order', () => {
      expect(sortOf('sort=kind:asc,views:desc')).to.deep.equal(['kind asc', 'views desc']);
      expect(sortOf('sort=kind , views : desc')).to.deep.equal(['kind asc', 'views desc']);
      expect(sortOf('sort[0]=featured:desc&sort[1]=title:asc')).to.deep.equal(['featured desc', 'title asc']);
      expect(sortOf('sort=views:desc&sort=title')).to.deep.equal(['views desc', 'title asc']);
      expect(sortOf('sort[0]=views,title:desc&sort[1]=id')).to.deep.equal(['views asc', 'title desc', 'id asc']);
    });

    it('takes objects, nested objects and arrays of objects', () => {
      expect(sortOf('sort[views]=desc')).to.deep.equal(['views desc']);
      expect(sortOf('sort[views]=DESC&sort[title]=asc')).to.deep.equal(['views desc', 'title asc']);
      expect(sortOf('sort[category][name]=desc')).to.deep.equal(['category.name desc']);
      expect(sortOf('sort[0][kind]=asc&sort[1][id]=desc')).to.deep.equal(['kind asc', 'id desc']);
      expect(sortOf('sort[0][seo][metaSocial][title]=desc&sort[1][title]=asc')).to.deep.equal(['seo.metaSocial.title desc', 'title asc']);
    });

    it('sorts by id, also through a relation', () => {
      const [key] = parseSort(article, 'id:desc', 'sort', registry);
      expect(key.field).to.equal(ID_FIELD);
      expect(sortOf('sort=category.id')).to.deep.equal(['category.id asc']);
    });

    it('walks relations (to-one and to-many), components, media and relations inside components', () => {
      expect(sortOf('sort=category.name:desc')).to.deep.equal(['category.name desc']);
      expect(sortOf('sort=categories.name')).to.deep.equal(['categories.name asc']);
      expect(sortOf('sort=category.parent.name')).to.deep.equal(['category.parent.name asc']);
      expect(sortOf('sort=featuredIn.sortOrder')).to.deep.equal(['featuredIn.sortOrder asc']);
      expect(sortOf('sort=seo.metaTitle')).to.deep.equal(['seo.metaTitle asc']);
      expect(sortOf('sort=links.label:desc')).to.deep.equal(['links.label desc']);
      expect(sortOf('sort=headerImage.name')).to.deep.equal(['headerImage.name asc']);
      expect(sortOf('sort=gallery.size')).to.deep.equal(['gallery.size asc']);
      expect(sortOf('sort=seo.metaImage.width')).to.deep.equal(['seo.metaImage.width asc']);
      expect(sortOf('sort=related.category.name')).to.deep.equal(['related.category.name asc']);
      expect(sortOf('sort=localizations.title')).to.deep.equal(['localizations.title asc']);
      expect(sortOf('sort=author.username')).to.deep.equal(['author.username asc']);
      expect(sortOf('sort=relatedRestaurants.name')).to.deep.equal(['relatedRestaurants.name asc']);
    });

    it('resolves each step to its attribute, target model and parameter path', () => {
      const [key] = parseSort(article, ['title', 'seo.metaImage.width:desc'], 'populate.x.sort', registry).slice(1);
      expect(key.path.map((step) => step.target.uid)).to.deep.equal(['shared.seo', 'plugin::upload.file']);
      expect(key.path.map((step) => step.attribute)).to.deep.equal([article.attributes.get('seo'), testModel(registry, 'shared.seo').attributes.get('metaImage')]);
      expect(key.path.map((step) => step.path)).to.deep.equal(['populate.x.sort[1]', 'populate.x.sort[1]']);
      expect(key.field).to.equal(registry.file.attributes.get('width'));
      const [nested] = parseSort(article, { category: { parent: { name: 'asc' } } }, 'sort', registry);
      expect(nested.path.map((step) => step.path)).to.deep.equal(['sort.category', 'sort.category.parent']);
    });

    it('returns frozen keys', () => {
      const keys = parseSort(article, 'category.name', 'sort', registry);
      expect(Object.isFrozen(keys)).to.equal(true);
      expect(Object.isFrozen(keys[0])).to.equal(true);
      expect(Object.isFrozen(keys[0].path)).to.equal(true);
    });
  });

  describe('rejected input (400 at the parameter path)', () => {
    const cases: [query: string, path: string][] = [
      ['sort=title:up', 'sort'],
      ['sort=title:', 'sort'],
      ['sort=title:ascending', 'sort'],
      ['sort=title:1', 'sort'],
      ['sort=:desc', 'sort'],
      ['sort=:', 'sort'],
      ['sort=title:asc:desc', 'sort'],
      ['sort=title,,views', 'sort'],
      ['sort=title,', 'sort'],
      ['sort=,', 'sort'],
      ['sort=%20', 'sort'],
      ['sort[0]=', 'sort[0]'],
      ['sort[0]=title&sort[1]=', 'sort[1]'],
      ['sort[0]=title&sort[1]=views:sideways', 'sort[1]'],
      ['sort[0]', 'sort[0]'],
      ['sort[title]=up', 'sort.title'],
      ['sort[title]=1', 'sort.title'],
      ['sort[title]=', 'sort.title'],
      ['sort[title]', 'sort.title'],
      ['sort[title][0]=asc', 'sort.title'],
      ['sort[title][name]=asc', 'sort.title'],
      ['sort[0]=title&sort[1][views]=desc', 'sort[1]'],
      ['sort[0][views]=desc&sort[1]=title', 'sort[1]'],
      ['sort[0][0]=title', 'sort[0]'],
      ['sort=nope', 'sort'],
      ['sort[0]=nope:asc', 'sort[0]'],
      ['sort[nope]=asc', 'sort.nope'],
      ['sort=Title', 'sort'],
      ['sort=publish_date', 'sort'],
      ['sort=internalNotes', 'sort'],
      ['sort[0]=accessCode:asc', 'sort[0]'],
      ['sort=createdBy.id', 'sort'],
      ['sort=blocks', 'sort'],
      ['sort=blocks.body', 'sort'],
      ['sort=category', 'sort'],
      ['sort=category:desc', 'sort'],
      ['sort[category]=desc', 'sort.category'],
      ['sort=seo', 'sort'],
      ['sort=headerImage', 'sort'],
      ['sort=title.length', 'sort'],
      ['sort=id.x', 'sort'],
      ['sort=category..name', 'sort'],
      ['sort=category.', 'sort'],
      ['sort=.title', 'sort'],
      ['sort=category.nope', 'sort'],
      ['sort[category][nope]=asc', 'sort.category.nope'],
      ['sort[category][name]=sideways', 'sort.category.name'],
      ['sort=author.password', 'sort'],
      ['sort=author.role', 'sort'],
      ['sort=headerImage.folderPath', 'sort'],
      ['sort=headerImage.related.id', 'sort'],
      ['sort=headerImage.folder.id', 'sort'],
      ['sort[category.name]=asc', 'sort.category.name'],
      ['sort=__proto__', 'sort'],
    ];
    itRejects(cases, (query) => parseSort(article, query.sort, 'sort', registry));

    it('rejects values qs never produces but a caller might pass', () => {
      expectValidationError(() => parseSort(article, 5, 'sort', registry), 'sort');
      expectValidationError(() => parseSort(article, [5], 'sort', registry), 'sort[0]');
      expectValidationError(() => parseSort(article, { category: {} }, 'sort', registry), 'sort.category');
      expectValidationError(() => parseSort(article, { title: 5 }, 'sort', registry), 'sort.title');
    });

    it('bounds the depth of self-referencing input', () => {
      const loop: Record<string, unknown> = {};
      loop.parent = loop;
      const category = testModel(registry, 'api::category.category');
      const error = expectValidationError(() => parseSort(category, loop, 'sort', registry), `sort${'.parent'.repeat(32)}`);
      expect(error.message).to.match(/nested more than 32 levels/);
      expectValidationError(() => parseSort(category, `${'parent.'.repeat(40)}name`, 'sort', registry), 'sort');
    });

    it('prefixes the caller path and says what is expected', () => {
      const category = testModel(registry, 'api::category.category');
      expectValidationError(() => parseSort(category, 'nope', 'populate.category.sort', registry), 'populate.category.sort');
      expectValidationError(() => parseSort(article, 'title:up', 'sort', registry), 'sort', /expected asc or desc/);
      expectValidationError(() => parseSort(article, 'category', 'sort', registry), 'sort', /category\.id/);
      expectValidationError(() => parseSort(article, ['title', { views: 'desc' }], 'sort', registry), 'sort[1]', /mixes/);
    });
  });

  it('never throws anything but a ValidationError (fuzz)', () => {
    const keys = ['title', 'category', 'name', 'seo', 'metaTitle', 'id', 'parent', 'blocks', 'headerImage'];
    const values = ['asc', 'DESC', 'title', 'category.name:desc', ':', '', 'a:b:c', ',', 'seo.metaTitle', 'up', 'x'.repeat(50_000)];
    fuzz({ seed: 11, runs: 3000, keys, values, depth: 4 }, (input) => parseSort(article, input, 'sort', registry));
  });
});
