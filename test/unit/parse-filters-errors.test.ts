import { expect } from 'chai';
import { parseFilters } from '../../plugin/query/parse-filters.js';
import { article, filterOf, registry } from '../support/article-registry.js';
import { expectParsedOrRejected, expectValidationError, fuzz, itRejects } from '../support/query-string.js';
import { testModel } from '../support/test-registry.js';

describe('parseFilters: rejected input', () => {
  /** Query string → the path of the 400 (filters as written on articles). */
  const cases: [query: string, path: string][] = [
    // not an object, or logical keys of the wrong shape (D1: Strapi 500s)
    ['filters=abc', 'filters'],
    ['filters=', 'filters'],
    ['filters[0]=abc', 'filters[0]'],
    ['filters[0][title]=A&filters[1]=x', 'filters[1]'],
    ['filters[$or]=x', 'filters.$or'],
    ['filters[$or][title]=x', 'filters.$or'],
    ['filters[$and]', 'filters.$and'],
    ['filters[$or][0]=x', 'filters.$or[0]'],
    ['filters[$or][0][title]=A&filters[$or][1][nope]=B', 'filters.$or[1].nope'],
    ['filters[$or][0][0][title]=A', 'filters.$or[0]'],
    ['filters[$not]=x', 'filters.$not'],
    ['filters[$not][0][title]=x', 'filters.$not'],
    ['filters[$not]', 'filters.$not'],
    // names that cannot be filtered
    ['filters[nope]=1', 'filters.nope'],
    ['filters[nope][$eq]=1', 'filters.nope'],
    ['filters[Title]=x', 'filters.Title'],
    ['filters[publish_date]=2024-01-01', 'filters.publish_date'],
    ['filters[t0][title]=x', 'filters.t0'],
    ['filters[internalNotes][$eq]=x', 'filters.internalNotes'],
    ['filters[accessCode][$null]=false', 'filters.accessCode'],
    ['filters[createdBy][id][$eq]=1', 'filters.createdBy'],
    ['filters[updatedBy]=1', 'filters.updatedBy'],
    ['filters[blocks][body]=x', 'filters.blocks'],
    ['filters[blocks][$null]=true', 'filters.blocks'],
    ['filters[author][password][$null]=false', 'filters.author.password'],
    ['filters[author][resetPasswordToken][$startsWith]=R', 'filters.author.resetPasswordToken'],
    ['filters[category][nope][$eq]=1', 'filters.category.nope'],
    ['filters[category][articles][accessCode]=x', 'filters.category.articles.accessCode'],
    ['filters[headerImage][folderPath]=/', 'filters.headerImage.folderPath'],
    ['filters[headerImage][related][id]=1', 'filters.headerImage.related'],
    ['filters[gallery][folder][id]=1', 'filters.gallery.folder'],
    ['filters[gallery][createdBy][id]=1', 'filters.gallery.createdBy'],
    ['filters[seo][nope]=x', 'filters.seo.nope'],
    ['filters[$or][1][seo][metaSocial][nope]=x&filters[$or][0][id]=1', 'filters.$or[1].seo.metaSocial.nope'],
    // operators
    ['filters[$eq]=1', 'filters.$eq'],
    ['filters[$fake]=1', 'filters.$fake'],
    ['filters[id][$STARTSWITH]=1', 'filters.id.$STARTSWITH'],
    ['filters[title][$Eq]=x', 'filters.title.$Eq'],
    ['filters[title][$like]=x', 'filters.title.$like'],
    ['filters[title][$jsonSupersetOf]=x', 'filters.title.$jsonSupersetOf'],
    ['filters[title][name]=x', 'filters.title.name'],
    ['filters[title][$eq][x]=1', 'filters.title.$eq'],
    ['filters[title][$eq][0][x]=1', 'filters.title.$eq[0]'],
    ['filters[title][$in][x]=1', 'filters.title.$in'],
    ['filters[title][$in][101]=1', 'filters.title.$in'],
    ['filters[title][$in][0][x]=1', 'filters.title.$in[0]'],
    ['filters[title][$in][0]', 'filters.title.$in[0]'],
    ['filters[title][$notIn]', 'filters.title.$notIn'],
    ['filters[title][0][$eq]=x', 'filters.title[0]'],
    ['filters[views][$between]=5', 'filters.views.$between'],
    ['filters[views][$between][0]=5', 'filters.views.$between'],
    ['filters[views][$between][0]=1&filters[views][$between][1]=2&filters[views][$between][2]=3', 'filters.views.$between'],
    ['filters[views][$between][0]=1&filters[views][$between][1]=x', 'filters.views.$between[1]'],
    ['filters[views][$between][0]&filters[views][$between][1]=2', 'filters.views.$between[0]'],
    ['filters[views][$gt]', 'filters.views.$gt'],
    ['filters[title][$contains]', 'filters.title.$contains'],
    ['filters[title][$eqi]', 'filters.title.$eqi'],
    ['filters[views][$null]=abc', 'filters.views.$null'],
    ['filters[views][$null][x]=1', 'filters.views.$null'],
    ['filters[views][$null][0][0]=1', 'filters.views.$null[0]'],
    ['filters[title][$or]=x', 'filters.title.$or'],
    ['filters[title][$or][0][$bad]=x', 'filters.title.$or[0].$bad'],
    ['filters[title][$not][$fake]=x', 'filters.title.$not.$fake'],
    // values that do not cast (D1)
    ['filters[views][$eq]=abc', 'filters.views.$eq'],
    ['filters[views]=1.5', 'filters.views'],
    ['filters[views][0]=1&filters[views][1]=x', 'filters.views[1]'],
    ['filters[views][$in][0]=1&filters[views][$in][1]=', 'filters.views.$in[1]'],
    ['filters[views][$gt][0]=1&filters[views][$gt][1]=two', 'filters.views.$gt[1]'],
    ['filters[id]=abc', 'filters.id'],
    ['filters[id][$lt]=99999999999999999999', 'filters.id.$lt'],
    ['filters[viewsTotal]=1.5', 'filters.viewsTotal'],
    ['filters[rating][$gt]=high', 'filters.rating.$gt'],
    ['filters[featured]=yes', 'filters.featured'],
    ['filters[publishDate][$gt]=notadate', 'filters.publishDate.$gt'],
    ['filters[publishTime][$gt]=25:00', 'filters.publishTime.$gt'],
    ['filters[createdAt][$gt]=garbage', 'filters.createdAt.$gt'],
    ['filters[title]=a%00b', 'filters.title'],
    // relations, components and media
    ['filters[category][$null]=true&filters[category][name]=Food', 'filters.category'],
    ['filters[category][$eq]=1&filters[category][$or][0][name]=x', 'filters.category'],
    ['filters[category]=abc', 'filters.category'],
    ['filters[category][0]=1&filters[category][1]=x', 'filters.category[1]'],
    ['filters[category][$in][0]=x', 'filters.category.$in[0]'],
    ['filters[category][$between]=1', 'filters.category.$between'],
    ['filters[category][$eq][x]=1', 'filters.category.$eq'],
    ['filters[category][$null]=maybe', 'filters.category.$null'],
    ['filters[category][$null][x]=1', 'filters.category.$null'],
    ['filters[category][$contains]', 'filters.category.$contains'],
    ['filters[category][$EQ]=1', 'filters.category.$EQ'],
    ['filters[category][name][$fake]=x', 'filters.category.name.$fake'],
    ['filters[category][name][$eq]=x&filters[category][sortOrder][$gt]=a', 'filters.category.sortOrder.$gt'],
    ['filters[seo]=1', 'filters.seo'],
    ['filters[seo][$eq]=1', 'filters.seo.$eq'],
    ['filters[seo][0]=1', 'filters.seo'],
    ['filters[links][$in][0]=1', 'filters.links.$in'],
    ['filters[headerImage]=1', 'filters.headerImage'],
    ['filters[gallery][$contains]=x', 'filters.gallery.$contains'],
    ['filters[seo][$null]=true&filters[seo][metaTitle]=x', 'filters.seo'],
    ['filters[seo][$notNull]=perhaps', 'filters.seo.$notNull'],
  ];
  itRejects(cases, (query) => parseFilters(article, query.filters, 'filters', registry));

  it('rejects values qs never produces but a caller might pass', () => {
    const reject = (filters: unknown, path: string) => expectValidationError(() => parseFilters(article, filters, 'filters', registry), path);
    reject(5, 'filters');
    reject(true, 'filters');
    reject({ views: { $in: [] } }, 'filters.views.$in');
    reject({ views: { $eq: [] } }, 'filters.views.$eq');
    reject({ category: { $eq: [] } }, 'filters.category.$eq');
    reject({ category: { $null: [] } }, 'filters.category.$null');
    reject({ title: { $eq: [['a']] } }, 'filters.title.$eq[0]');
    reject({ views: 1.5 }, 'filters.views');
    reject({ title: () => 1 }, 'filters.title');
    reject({ constructor: 'x' }, 'filters.constructor');
    reject(JSON.parse('{"__proto__": {"title": "x"}}'), 'filters.__proto__');
    reject({ toString: 'x' }, 'filters.toString');
  });

  it('ignores undefined values from programmatic callers', () => {
    expect(parseFilters(article, { title: undefined }, 'filters', registry)).to.equal(null);
  });

  it('prefixes the path given by the caller (populate)', () => {
    const category = testModel(registry, 'api::category.category');
    expectValidationError(() => filterOf('filters[articles][accessCode]=x', category, 'populate.categories.filters'), 'populate.categories.filters.articles.accessCode');
  });

  it('bounds nesting depth', () => {
    let deep: unknown = { title: 'x' };
    for (let i = 0; i < 10_000; i += 1) deep = { $not: deep };
    const error = expectValidationError(() => parseFilters(article, deep, 'filters', registry), `filters${'.$not'.repeat(33)}`);
    expect(error.message).to.match(/nested more than 32 levels/);
    let field: unknown = 'x';
    for (let i = 0; i < 10_000; i += 1) field = { $not: field };
    expectParsedOrRejected(() => parseFilters(article, { title: field }, 'filters', registry), 'deep $not on a field');
    const loop: Record<string, unknown> = {};
    loop.parent = loop;
    const category = testModel(registry, 'api::category.category');
    expectParsedOrRejected(() => parseFilters(category, loop, 'filters', registry), 'self-referencing input');
  });

  it('accepts the deepest filters qs (depth 20) can produce', () => {
    const query = `filters${'[$and][0]'.repeat(9)}[category][name]=x`;
    expect(filterOf(query)).not.to.equal(null);
  });

  it('says what is wrong and what is expected', () => {
    expectValidationError(() => filterOf('filters[$or]=x'), 'filters.$or', /expected a list of conditions/);
    expectValidationError(() => filterOf('filters[views][$between]=5'), 'filters.views.$between', /exactly two values/);
    expectValidationError(() => filterOf('filters[title][$STARTSWITH]=x'), 'filters.title.$STARTSWITH', /did you mean \$startsWith/);
    expectValidationError(() => filterOf('filters[category][$null]=true&filters[category][name]=x'), 'filters.category', /mixes operators/);
    expectValidationError(() => filterOf('filters[blocks][x]=1'), 'filters.blocks', /dynamic zones cannot be filtered/);
    expectValidationError(() => filterOf('filters[seo]=1'), 'filters.seo', /\$null/);
    expectValidationError(() => filterOf('filters[views][$gt]'), 'filters.views.$gt', /value is required/);
    expectValidationError(() => filterOf('filters[id][$in]=1,3'), 'filters.id.$in', /expected an integer .*; a list is written \[\$in\]\[0\]=1&\[\$in\]\[1\]=3, not with commas/);
  });

  it('answers a hidden attribute exactly as an unknown one', () => {
    const hidden = expectValidationError(() => filterOf('filters[internalNotes]=x'), 'filters.internalNotes');
    const unknown = expectValidationError(() => filterOf('filters[internalNoteZ]=x'), 'filters.internalNoteZ');
    expect(hidden.message.replaceAll('internalNotes', 'internalNoteZ')).to.equal(unknown.message);
  });

  it('never throws anything but a ValidationError (fuzz)', () => {
    const keys = [
      'title', 'views', 'featured', 'publishDate', 'scheduledAt', 'viewsTotal', 'id', 'category', 'categories', 'name',
      'seo', 'metaTitle', 'headerImage', 'blocks', 'author', 'password', '$and', '$or', '$not', '$eq', '$in', '$between',
      '$null', '$notNull', '$contains', '$gt', '$eqi',
    ];
    const values = ['1', '-1', 'abc', '', 'true', '2024-01-01', '12:00', '1.5', '%', 'x'.repeat(100_000), '9'.repeat(30), '\u0000'];
    fuzz({ seed: 42, runs: 5000, keys, values, depth: 6 }, (input) => parseFilters(article, input, 'filters', registry));
  });
});
