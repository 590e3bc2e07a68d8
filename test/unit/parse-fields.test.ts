import { expect } from 'chai';
import { parseFields } from '../../plugin/query/parse-fields.js';
import { article, registry } from '../support/article-registry.js';
import { expectValidationError, fuzz, itRejects, parseQueryString } from '../support/query-string.js';
import { testModel } from '../support/test-registry.js';

describe('parseFields', () => {
  /** The names `fields` selects on articles for a query string. */
  function names(query: string, model = article): string[] {
    return parseFields(model, parseQueryString(query).fields, 'fields').map((field) => field.name);
  }

  describe('accepted forms', () => {
    it('returns every default field when absent or null (a key without "=")', () => {
      expect(parseFields(article, undefined, 'fields')).to.equal(article.defaultFields);
      expect(names('fields')).to.deep.equal(article.defaultFields.map((field) => field.name));
    });

    it('takes a single name', () => {
      expect(names('fields=title')).to.deep.equal(['title']);
    });

    it('takes an array of names, in the model order', () => {
      expect(names('fields[0]=slug&fields[1]=title')).to.deep.equal(['title', 'slug']);
      expect(names('fields[]=views&fields[]=title')).to.deep.equal(['title', 'views']);
      expect(names('fields=views&fields=title')).to.deep.equal(['title', 'views']);
    });

    it('takes a comma list, trimmed, also inside array items (D9)', () => {
      expect(names('fields=title,slug')).to.deep.equal(['title', 'slug']);
      expect(names('fields= slug , title ')).to.deep.equal(['title', 'slug']);
      expect(names('fields[0]=views,title&fields[1]=slug')).to.deep.equal(['title', 'slug', 'views']);
    });

    it('removes duplicates', () => {
      expect(names('fields[0]=title&fields[1]=title,title')).to.deep.equal(['title']);
    });

    it('returns every default field for * anywhere', () => {
      const all = article.defaultFields.map((field) => field.name);
      expect(names('fields=*')).to.deep.equal(all);
      expect(names('fields[0]=*&fields[1]=title')).to.deep.equal(all);
      expect(names('fields=title,*')).to.deep.equal(all);
    });

    it('accepts id, always implied, so fields=id selects no attribute', () => {
      expect(names('fields=id')).to.deep.equal([]);
      expect(names('fields[0]=id&fields[1]=title')).to.deep.equal(['title']);
    });

    it('accepts every scalar type and the implicit timestamps and locale', () => {
      expect(names('fields=publishDate,publishTime,scheduledAt,rating,price,metadata,featured,viewsTotal')).to.deep.equal([
        'publishDate', 'publishTime', 'scheduledAt', 'viewsTotal', 'rating', 'price', 'featured', 'metadata',
      ]);
      expect(names('fields[0]=locale&fields[1]=publishedAt&fields[2]=updatedAt&fields[3]=createdAt')).to.deep.equal([
        'createdAt', 'updatedAt', 'publishedAt', 'locale',
      ]);
      expect(names('fields=contactEmail,slug,kind,readingMinutes,description,content')).to.deep.equal([
        'slug', 'description', 'content', 'kind', 'contactEmail', 'readingMinutes',
      ]);
    });

    it('works on components, the media file type and users', () => {
      expect(names('fields=metaTitle', testModel(registry, 'shared.seo'))).to.deep.equal(['metaTitle']);
      expect(names('fields=url,name', registry.file)).to.deep.equal(['name', 'url']);
      expect(names('fields=username,email', testModel(registry, 'plugin::users-permissions.user'))).to.deep.equal(['username', 'email']);
    });

    it('returns the registry attribute objects', () => {
      const [title] = parseFields(article, 'title', 'fields');
      expect(title).to.equal(article.attributes.get('title'));
    });
  });

  describe('rejected input (400 at the parameter path)', () => {
    const cases: [query: string, path: string][] = [
      ['fields=', 'fields'],
      ['fields=%20', 'fields'],
      ['fields=title,', 'fields'],
      ['fields=,title', 'fields'],
      ['fields=title,,slug', 'fields'],
      ['fields[0]=', 'fields[0]'],
      ['fields[0]=title&fields[1]=', 'fields[1]'],
      ['fields[0]', 'fields[0]'],
      ['fields[title]=1', 'fields'],
      ['fields[0][title]=1', 'fields[0]'],
      ['fields[0][]=title', 'fields[0]'],
      ['fields=nope', 'fields'],
      ['fields[0]=title&fields[1]=nope', 'fields[1]'],
      ['fields[0]=*&fields[1]=nope', 'fields[1]'],
      ['fields=title,nope', 'fields'],
      ['fields=Title', 'fields'],
      ['fields=ID', 'fields'],
      ['fields=publish_date', 'fields'],
      ['fields=created_at', 'fields'],
      ['fields=category', 'fields'],
      ['fields=localizations', 'fields'],
      ['fields=headerImage', 'fields'],
      ['fields=gallery', 'fields'],
      ['fields=seo', 'fields'],
      ['fields=links', 'fields'],
      ['fields=blocks', 'fields'],
      ['fields=internalNotes', 'fields'],
      ['fields=accessCode', 'fields'],
      ['fields=createdBy', 'fields'],
      ['fields=updatedBy', 'fields'],
      ['fields=title.name', 'fields'],
      ['fields=category.name', 'fields'],
      ['fields=**', 'fields'],
      ['fields=__proto__', 'fields'],
      ['fields=constructor', 'fields'],
    ];
    itRejects(cases, (query) => parseFields(article, query.fields, 'fields'));

    it('rejects hidden and internal attributes of the file and user types', () => {
      expectValidationError(() => parseFields(registry.file, 'folderPath', 'fields'), 'fields');
      expectValidationError(() => parseFields(registry.file, 'related', 'fields'), 'fields');
      expectValidationError(() => parseFields(registry.file, 'folder', 'fields'), 'fields');
      const user = testModel(registry, 'plugin::users-permissions.user');
      for (const name of ['password', 'resetPasswordToken', 'confirmationToken', 'role']) {
        expectValidationError(() => parseFields(user, [name], 'fields'), 'fields[0]');
      }
    });

    it('rejects values that qs never produces but a caller might pass', () => {
      expectValidationError(() => parseFields(article, 5, 'fields'), 'fields');
      expectValidationError(() => parseFields(article, true, 'fields'), 'fields');
      expectValidationError(() => parseFields(article, ['title', 7], 'fields'), 'fields[1]');
      expectValidationError(() => parseFields(article, [null], 'fields'), 'fields[0]');
    });

    it('prefixes the path given by the caller (populate)', () => {
      const category = testModel(registry, 'api::category.category');
      expectValidationError(() => parseFields(category, ['name', 'nope'], 'populate.category.fields'), 'populate.category.fields[1]');
    });

    it('says what is wrong and what is expected', () => {
      expectValidationError(() => parseFields(article, 'category', 'fields'), 'fields', /relation.*populate\[category\]/);
      expectValidationError(() => parseFields(article, 'Title', 'fields'), 'fields', /did you mean "title"/);
      expectValidationError(() => parseFields(article, 'publish_date', 'fields'), 'fields', /did you mean "publishDate"/);
      expectValidationError(() => parseFields(article, 'title,', 'fields'), 'fields', /empty attribute name/);
    });

    it('never names a hidden attribute in a suggestion', () => {
      const error = expectValidationError(() => parseFields(article, 'internal_notes', 'fields'), 'fields');
      expect(error.message).not.to.match(/internalNotes/);
      const same = expectValidationError(() => parseFields(article, 'nope', 'fields'), 'fields');
      expect(error.message.replace('internal_notes', 'nope')).to.equal(same.message);
    });
  });

  it('never throws anything but a ValidationError (fuzz)', () => {
    const keys = ['title', 'slug', '*', 'id', 'category', 'seo', ' ', ','];
    const values = ['title', 'title,slug', '*', '', ',', 'id', 'nope', 'x'.repeat(100_000), 'views,,', 'seo'];
    fuzz({ seed: 7, runs: 2000, keys, values, depth: 3 }, (input) => parseFields(article, input, 'fields'));
  });
});
