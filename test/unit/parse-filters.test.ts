import { expect } from 'chai';
import { parseFilters } from '../../plugin/query/parse-filters.js';
import { ID_FIELD, type Filter, type RelatedFilter } from '../../plugin/query/tree.js';
import { article, filterOf, registry } from '../support/article-registry.js';
import { describeFilter, parseQueryString } from '../support/query-string.js';
import { testModel } from '../support/test-registry.js';

describe('parseFilters: forms and structure', () => {
  function textOf(query: string, model = article): string {
    return describeFilter(filterOf(query, model));
  }

  describe('empty filters', () => {
    it('is null when absent, null or an empty object', () => {
      expect(parseFilters(article, undefined, 'filters', registry)).to.equal(null);
      expect(filterOf('filters')).to.equal(null);
      expect(parseFilters(article, {}, 'filters', registry)).to.equal(null);
      expect(parseFilters(article, [], 'filters', registry)).to.equal(null);
    });

    it('drops empty nested objects (Strapi removes them too)', () => {
      expect(parseFilters(article, { id: {} }, 'filters', registry)).to.equal(null);
      expect(parseFilters(article, { category: {}, title: 'A' }, 'filters', registry)).to.deep.equal(filterOf('filters[title]=A'));
      expect(parseFilters(article, { $not: {}, $and: [{}], $or: [{ category: { name: {} } }] }, 'filters', registry)).to.equal(null);
      expect(parseFilters(article, { title: { $not: {} } }, 'filters', registry)).to.equal(null);
      expect(describeFilter(parseFilters(article, { $or: [{}, { title: 'A' }] }, 'filters', registry))).to.equal('title $eq ["A"]');
    });
  });

  describe('scalar attributes', () => {
    it('reads a value as $eq, a list as $in and a missing value as $eq null', () => {
      expect(textOf('filters[title]=Hello')).to.equal('title $eq ["Hello"]');
      expect(textOf('filters[title][$eq]=Hello')).to.equal('title $eq ["Hello"]');
      expect(textOf('filters[title]=')).to.equal('title $eq [""]');
      expect(textOf('filters[views][0]=5&filters[views][1]=10')).to.equal('views $in [5,10]');
      expect(textOf('filters[title]=A&filters[title]=B')).to.equal('title $in ["A","B"]');
      expect(textOf('filters[views]')).to.equal('views $eq [null]');
      expect(textOf('filters[views][$eq]')).to.equal('views $eq [null]');
      expect(textOf('filters[views][$ne]')).to.equal('views $ne [null]');
    });

    it('ORs a non-list operator over a list', () => {
      expect(textOf('filters[title][$eq][0]=A&filters[title][$eq][1]=B')).to.equal('or(title $eq ["A"], title $eq ["B"])');
      expect(textOf('filters[views][$gt][0]=5')).to.equal('views $gt [5]');
      expect(textOf('filters[title][$containsi][0]=a&filters[title][$containsi][1]=b')).to.equal('or(title $containsi ["a"], title $containsi ["b"])');
    });

    it('ANDs several operators on one field', () => {
      expect(textOf('filters[views][$gte]=5&filters[views][$lt]=10')).to.equal('and(views $gte [5], views $lt [10])');
    });

    it('reads $not, $and and $or under a field', () => {
      expect(textOf('filters[title][$not][$eq]=Hello')).to.equal('not(title $eq ["Hello"])');
      expect(textOf('filters[title][$not]=Hello')).to.equal('not(title $eq ["Hello"])');
      expect(textOf('filters[views][$not][$in][0]=1&filters[views][$not][$in][1]=2')).to.equal('not(views $in [1,2])');
      expect(textOf('filters[title][$or][0][$eq]=A&filters[title][$or][1][$startsWith]=B')).to.equal('or(title $eq ["A"], title $startsWith ["B"])');
      expect(textOf('filters[views][$and][0][$gt]=1&filters[views][$and][1][$lt]=9')).to.equal('and(views $gt [1], views $lt [9])');
    });

    it('filters the id', () => {
      const filter = filterOf('filters[id][$in][0]=1&filters[id][$in][1]=2');
      expect(filter).to.deep.equal({ kind: 'compare', field: ID_FIELD, operator: '$in', values: [1, 2] });
      expect(textOf('filters[id]=4')).to.equal('id $eq [4]');
    });

    it('points compare nodes at the registry attributes and freezes them', () => {
      const filter = filterOf('filters[title]=A') as Filter & { kind: 'compare' };
      expect(filter.field).to.equal(article.attributes.get('title'));
      expect(Object.isFrozen(filter)).to.equal(true);
      expect(Object.isFrozen(filter.values)).to.equal(true);
    });
  });

  describe('logical keys', () => {
    it('ANDs several keys of one object and the items of a root array', () => {
      expect(textOf('filters[kind]=tutorial&filters[featured]=true')).to.equal('and(kind $eq ["tutorial"], featured $eq [true])');
      expect(textOf('filters[0][title]=A&filters[1][views]=1')).to.equal('and(title $eq ["A"], views $eq [1])');
    });

    it('reads $or and $and lists at any level', () => {
      expect(textOf('filters[$or][0][views][$gt]=90000&filters[$or][1][featured][$eq]=true')).to.equal('or(views $gt [90000], featured $eq [true])');
      expect(textOf('filters[$and][0][views][$gte]=20000&filters[$and][1][title][$contains]=Tips')).to.equal('and(views $gte [20000], title $contains ["Tips"])');
      expect(textOf('filters[$or][0][$and][0][title]=A&filters[$or][0][$and][1][views]=1&filters[$or][1][id]=2')).to.equal('or(and(title $eq ["A"], views $eq [1]), id $eq [2])');
      expect(textOf('filters[category][$or][0][name]=Food&filters[category][$or][1][name]=Art')).to.equal('category{or(name $eq ["Food"], name $eq ["Art"])}');
    });

    it('reads $not at the root and inside relations', () => {
      expect(textOf('filters[$not][kind]=news')).to.equal('not(kind $eq ["news"])');
      expect(textOf('filters[$not][$or][0][kind]=news&filters[$not][$or][1][featured]=true')).to.equal('not(or(kind $eq ["news"], featured $eq [true]))');
      expect(textOf('filters[category][$not][name]=Food')).to.equal('category{not(name $eq ["Food"])}');
    });

    it('keeps a single item of a list unwrapped', () => {
      expect(textOf('filters[$or][0][title]=A')).to.equal('title $eq ["A"]');
    });
  });

  describe('relations', () => {
    it('filters the related rows by their attributes', () => {
      expect(textOf('filters[category][name][$eq]=Food')).to.equal('category{name $eq ["Food"]}');
      expect(textOf('filters[categories][name][$eq]=Tech')).to.equal('categories{name $eq ["Tech"]}');
      expect(textOf('filters[featuredIn][name][$eq]=Travel')).to.equal('featuredIn{name $eq ["Travel"]}');
      expect(textOf('filters[author][username][$eq]=user02')).to.equal('author{username $eq ["user02"]}');
      expect(textOf('filters[category][name]=Food&filters[category][slug]=food')).to.equal('category{and(name $eq ["Food"], slug $eq ["food"])}');
      expect(textOf('filters[category][id][$in][0]=1&filters[category][id][$in][1]=2')).to.equal('category{id $in [1,2]}');
      expect(textOf('filters[localizations][title]=Bonjour')).to.equal('localizations{title $eq ["Bonjour"]}');
    });

    it('walks relations of relations, and self relations', () => {
      const category = testModel(registry, 'api::category.category');
      expect(textOf('filters[category][articles][title]=A')).to.equal('category{articles{title $eq ["A"]}}');
      expect(textOf('filters[parent][name][$eq]=Food', category)).to.equal('parent{name $eq ["Food"]}');
      expect(textOf('filters[children][parent][children][name]=Music', category)).to.equal('children{parent{children{name $eq ["Music"]}}}');
      expect(textOf('filters[author][role][name]=Public')).to.equal('author{role{name $eq ["Public"]}}');
    });

    it('compares the related id for a value, a list or operators on the relation', () => {
      expect(textOf('filters[category]=1')).to.equal('category{id $eq [1]}');
      expect(textOf('filters[category][0]=1&filters[category][1]=2')).to.equal('category{id $in [1,2]}');
      expect(textOf('filters[category][$eq]=1')).to.equal('category{id $eq [1]}');
      expect(textOf('filters[category][$in][0]=1')).to.equal('category{id $in [1]}');
      expect(textOf('filters[category][$notIn]=3')).to.equal('category{id $notIn [3]}');
      expect(textOf('filters[category][$between][0]=1&filters[category][$between][1]=4')).to.equal('category{id $between [1,4]}');
      expect(textOf('filters[categories][$gt]=1&filters[categories][$lt]=5')).to.equal('categories{and(id $gt [1], id $lt [5])}');
      expect(textOf('filters[category][$eq][0]=1&filters[category][$eq][1]=2')).to.equal('or(category{id $eq [1]}, category{id $eq [2]})');
    });

    it('builds the id comparison on ID_FIELD with the target model', () => {
      const filter = filterOf('filters[category]=1') as RelatedFilter;
      expect(filter.attribute).to.equal(article.attributes.get('category'));
      expect(filter.target).to.equal(testModel(registry, 'api::category.category'));
      expect(filter.filter).to.deep.equal({ kind: 'compare', field: ID_FIELD, operator: '$eq', values: [1] });
    });

    it('tests existence with $null, $notNull and a missing value', () => {
      expect(textOf('filters[category][$null]=true')).to.equal('not(category{})');
      expect(textOf('filters[category][$null]=false')).to.equal('category{}');
      expect(textOf('filters[category][$null]')).to.equal('category{}');
      expect(textOf('filters[category][$notNull]=true')).to.equal('category{}');
      expect(textOf('filters[category][$notNull]=0')).to.equal('not(category{})');
      expect(textOf('filters[category]')).to.equal('not(category{})');
      expect(textOf('filters[category][$eq]')).to.equal('not(category{})');
      expect(textOf('filters[category][$ne]')).to.equal('category{}');
      expect(textOf('filters[categories][$null]=t&filters[categories][$gt]=2')).to.equal('and(categories{id $gt [2]}, not(categories{}))');
      expect(textOf('filters[category][$eq][0]=1&filters[category][$eq][1]')).to.equal('or(category{id $eq [1]}, not(category{}))');
    });

    it('reads null tests on the related id as existence tests, as Strapi\'s LEFT JOIN does', () => {
      expect(textOf('filters[category][id][$null]=true')).to.equal('not(category{})');
      expect(textOf('filters[category][id][$null]=false')).to.equal('category{}');
      expect(textOf('filters[category][id][$notNull]=true')).to.equal('category{}');
      expect(textOf('filters[categories][id][$notNull]=f')).to.equal('not(categories{})');
      expect(textOf('filters[category][id]')).to.equal('not(category{})');
      expect(textOf('filters[category][id][$ne]')).to.equal('category{}');
      expect(textOf('filters[category][id][$gt]=1')).to.equal('category{id $gt [1]}');
      expect(textOf('filters[category][name][$null]=true')).to.equal('category{name $null [true]}');
    });

    it('records the parameter path of every related node', () => {
      const filter = filterOf('filters[$or][0][category][name]=A&filters[$or][1][seo][metaImage][name]=x');
      const paths: string[] = [];
      const collect = (node: Filter | null): void => {
        if (node === null) return;
        if (node.kind === 'related') {
          paths.push(node.path);
          collect(node.filter);
        } else if (node.kind === 'not') collect(node.item);
        else if (node.kind !== 'compare') node.items.forEach(collect);
      };
      collect(filter);
      expect(paths).to.deep.equal(['filters.$or[0].category', 'filters.$or[1].seo', 'filters.$or[1].seo.metaImage']);
    });
  });

  describe('components and media', () => {
    it('filters through single and repeatable components, nested components and relations inside them', () => {
      expect(textOf('filters[seo][metaTitle][$startsWith]=The')).to.equal('seo{metaTitle $startsWith ["The"]}');
      expect(textOf('filters[seo][preventIndexing][$eq]=true')).to.equal('seo{preventIndexing $eq [true]}');
      expect(textOf('filters[links][label][$eq]=Link 3')).to.equal('links{label $eq ["Link 3"]}');
      expect(textOf('filters[seo][metaSocial][socialNetwork]=Facebook')).to.equal('seo{metaSocial{socialNetwork $eq ["Facebook"]}}');
      expect(textOf('filters[related][category][name][$eq]=Art')).to.equal('related{category{name $eq ["Art"]}}');
      expect(textOf('filters[seo][id][$notNull]=true')).to.equal('seo{}');
      const filter = filterOf('filters[seo][metaTitle]=x') as RelatedFilter;
      expect(filter.target).to.equal(testModel(registry, 'shared.seo'));
    });

    it('filters through single and multiple media, also inside components', () => {
      expect(textOf('filters[headerImage][name][$eq]=image-001.jpg')).to.equal('headerImage{name $eq ["image-001.jpg"]}');
      expect(textOf('filters[gallery][mime][$eq]=application/pdf')).to.equal('gallery{mime $eq ["application/pdf"]}');
      expect(textOf('filters[seo][metaImage][width][$gt]=100')).to.equal('seo{metaImage{width $gt [100]}}');
      const filter = filterOf('filters[gallery][size][$lt]=1.5') as RelatedFilter;
      expect(filter.target).to.equal(registry.file);
      expect(describeFilter(filter)).to.equal('gallery{size $lt [1.5]}');
    });

    it('tests component and media existence with $null and $notNull', () => {
      expect(textOf('filters[seo][$null]=true')).to.equal('not(seo{})');
      expect(textOf('filters[links][$notNull]=true')).to.equal('links{}');
      expect(textOf('filters[headerImage][$null]=false')).to.equal('headerImage{}');
      expect(textOf('filters[gallery][$notNull]=false')).to.equal('not(gallery{})');
      expect(textOf('filters[seo]')).to.equal('not(seo{})');
    });
  });

  it('parses filters inside populate against the populated model, with the caller path', () => {
    const category = testModel(registry, 'api::category.category');
    const filter = parseFilters(category, parseQueryString('f[articles][title]=A').f, 'populate.category.filters', registry) as RelatedFilter;
    expect(filter.path).to.equal('populate.category.filters.articles');
    expect(describeFilter(filter)).to.equal('articles{title $eq ["A"]}');
  });
});
