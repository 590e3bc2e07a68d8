import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadSchema } from '../../plugin/schema/load.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { modelOf, type Registry } from '../../plugin/schema/registry.js';
import { compileScalarChecker, type CheckedValues, type ScalarChecker, type ValuePath } from '../../plugin/write/scalar-values.js';
import { loadTestRegistry } from '../support/test-registry.js';

const ARTICLE = 'api::article.article';
const CATEGORY = 'api::category.category';
const RESTAURANT = 'api::restaurant.restaurant';
const SEO = 'shared.seo';

/** A content type with every constraint a schema file may put on a scalar. */
const GADGET_YAML = `
kind: collectionType
collectionName: gadgets
info: { singularName: gadget, pluralName: gadgets, displayName: Gadget }
options: { draftAndPublish: false }
attributes:
  code: { type: string, regex: '^[A-Z]{3}-\\d+$', minLength: 5, maxLength: 10 }
  handle: { type: uid, regex: '^@[a-z]+$' }
  nickname: { type: text, minLength: 3, required: true }
  stock: { type: integer, min: 0, max: 100 }
  serial: { type: biginteger, min: '-5', max: '9007199254740993' }
  weight: { type: float, min: 0.5, max: '2.5' }
  released: { type: date, required: true }
  settings: { type: json, required: true }
  cover: { type: media, required: true }
  parts: { type: component, component: shared.part, repeatable: true, required: true, min: 1, max: 3 }
`;
const PART_YAML = `
collectionName: components_shared_parts
info: { displayName: part }
attributes:
  label: { type: string }
`;

/** A schema folder written from YAML texts (`content-types/x.yaml` → text), removed after the suite. */
async function schemaFolder(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'write-values-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}

describe('write: scalar values of a body', () => {
  let registry: Registry;
  let checker: ScalarChecker;
  before(async () => {
    registry = await loadTestRegistry();
    checker = compileScalarChecker(registry);
  });

  const create = (uid: string, data: Record<string, unknown>, path: ValuePath = []): CheckedValues => checker.check(uid, data, { partial: false, path });
  const update = (uid: string, data: Record<string, unknown>, path: ValuePath = []): CheckedValues => checker.check(uid, data, { partial: true, path });
  /** The one problem of an update setting `name` to `value`, as [path, message]. */
  const problemOf = (uid: string, name: string, value: unknown) => {
    const { problems, values } = update(uid, { [name]: value });
    expect(values).to.not.have.property(name);
    expect(problems, JSON.stringify(value)).to.have.length(1);
    return [problems[0].path, problems[0].message];
  };
  /** The converted value of an update setting `name` to `value`, which must have no problem. */
  const valueOf = (uid: string, name: string, value: unknown): unknown => {
    const { problems, values } = update(uid, { [name]: value });
    expect(problems, JSON.stringify(value)).to.deep.equal([]);
    return values[name];
  };

  describe('accepted forms and their conversion', () => {
    /** uid, attribute, value sent, value converted. */
    const ACCEPTED: readonly [string, string, unknown, unknown][] = [
      [ARTICLE, 'title', 'Hello', 'Hello'],
      [ARTICLE, 'description', 'plain', 'plain'],
      [ARTICLE, 'content', '## Rich', '## Rich'],
      [ARTICLE, 'kind', 'review', 'review'],
      [ARTICLE, 'contactEmail', 'writer@example.com', 'writer@example.com'],
      [ARTICLE, 'accessCode', 's3cret', 's3cret'],
      [ARTICLE, 'slug', 'every-scalar_1.0~x', 'every-scalar_1.0~x'],
      [ARTICLE, 'slug', '', ''],
      [RESTAURANT, 'email', 'chez@example.com', 'chez@example.com'],
      [ARTICLE, 'views', 123, 123],
      [ARTICLE, 'views', '12', 12],
      [ARTICLE, 'views', -2147483648, -2147483648],
      [ARTICLE, 'views', '2147483647', 2147483647],
      [ARTICLE, 'viewsTotal', 1234567890123, '1234567890123'],
      [ARTICLE, 'viewsTotal', '9007199254740993', '9007199254740993'],
      [ARTICLE, 'viewsTotal', '-9223372036854775808', '-9223372036854775808'],
      [ARTICLE, 'rating', 3.5, 3.5],
      [ARTICLE, 'rating', '3.25', 3.25],
      [ARTICLE, 'price', 19.99, 19.99],
      [RESTAURANT, 'rating', '4', 4],
      [ARTICLE, 'featured', true, true],
      [ARTICLE, 'featured', false, false],
      [ARTICLE, 'featured', 'true', true],
      [ARTICLE, 'featured', 'false', false],
      [ARTICLE, 'featured', 1, true],
      [ARTICLE, 'featured', 0, false],
      [ARTICLE, 'featured', '1', true],
      [ARTICLE, 'featured', '0', false],
      [ARTICLE, 'publishDate', '2024-03-15', '2024-03-15'],
      [ARTICLE, 'publishDate', '2024-02-29', '2024-02-29'],
      [ARTICLE, 'publishDate', '2024-03-15T10:00:00.000Z', '2024-03-15'],
      [ARTICLE, 'publishTime', '14:30:00', '14:30:00.000'],
      [ARTICLE, 'publishTime', '14:30:00.5', '14:30:00.500'],
      [ARTICLE, 'publishTime', '23:59:59.999', '23:59:59.999'],
      [ARTICLE, 'scheduledAt', '2024-04-01T09:15:00.000Z', new Date('2024-04-01T09:15:00.000Z')],
      [ARTICLE, 'scheduledAt', '2024-06-01T14:00:00+02:00', new Date('2024-06-01T12:00:00.000Z')],
      [ARTICLE, 'scheduledAt', '2024-06-01', new Date('2024-06-01T00:00:00.000Z')],
      [ARTICLE, 'scheduledAt', 1717243200000, new Date(1717243200000)],
      [ARTICLE, 'publishedAt', '2030-01-01T00:00:00.000Z', new Date('2030-01-01T00:00:00.000Z')],
      [ARTICLE, 'metadata', { tags: ['a'], nested: { n: 1 } }, { tags: ['a'], nested: { n: 1 } }],
      [ARTICLE, 'metadata', [1, 'two', { three: 3 }], [1, 'two', { three: 3 }]],
      [ARTICLE, 'metadata', 'just text', 'just text'],
      [ARTICLE, 'metadata', 42, 42],
      [ARTICLE, 'metadata', false, false],
      [CATEGORY, 'sortOrder', 7, 7],
      [SEO, 'preventIndexing', 'true', true],
    ];
    for (const [uid, name, sent, converted] of ACCEPTED) {
      it(`${uid} ${name}: ${JSON.stringify(sent)} → ${JSON.stringify(converted)}`, () => {
        expect(valueOf(uid, name, sent)).to.deep.equal(converted);
      });
    }

    it('keeps a biginteger string exact past 2^53', () => {
      expect(valueOf(ARTICLE, 'viewsTotal', '9223372036854775807')).to.equal('9223372036854775807');
    });

    it('returns only the attributes the data names, and ignores keys that are not writable scalars', () => {
      const checked = create(CATEGORY, { name: 'Food', parent: 1, articles: [2], colour: 'red', createdAt: 'x', id: 'y' });
      expect(checked).to.deep.equal({ values: { name: 'Food' }, problems: [] });
    });

    it('accepts publishedAt only on draft-and-publish types', () => {
      expect(create(ARTICLE, { title: 'T', publishedAt: null })).to.deep.equal({ values: { title: 'T', publishedAt: null }, problems: [] });
      expect(create(CATEGORY, { name: 'C', publishedAt: 'soon' })).to.deep.equal({ values: { name: 'C' }, problems: [] });
    });

    it('checks the file type and components by uid', () => {
      expect(update('plugin::upload.file', { name: 'a.png', width: '640' }).values).to.deep.equal({ name: 'a.png', width: 640 });
      expect(create(SEO, { metaTitle: 'Hello', structuredData: { a: 1 } }).values).to.deep.equal({ metaTitle: 'Hello', structuredData: { a: 1 } });
    });

    it('refuses an unknown model uid loudly (a caller bug, not a body problem)', () => {
      expect(() => create('api::nothing.nothing', {})).to.throw('unknown model api::nothing.nothing');
    });
  });

  describe('problems, worded as Strapi words them', () => {
    /** uid, attribute, value sent, message. */
    const REFUSED: readonly [string, string, unknown, string][] = [
      [ARTICLE, 'title', 12345, 'title must be a `string` type, but the final value was: `12345`.'],
      [CATEGORY, 'name', { en: 'Food' }, 'name must be a `string` type, but the final value was: `{\n  "en": "\\"Food\\""\n}`.'],
      [ARTICLE, 'description', ['a'], 'description must be a `string` type, but the final value was: `[\n  "\\"a\\""\n]`.'],
      [ARTICLE, 'accessCode', 1234, 'accessCode must be a `string` type, but the final value was: `1234`.'],
      [ARTICLE, 'kind', 'opinion', 'kind must be one of the following values: news, review, tutorial, interview, '],
      [ARTICLE, 'kind', 3, 'kind must be a `string` type, but the final value was: `3`.'],
      [RESTAURANT, 'priceRange', 'free', 'priceRange must be one of the following values: cheap, average, expensive, '],
      [ARTICLE, 'contactEmail', 'not-an-email', 'contactEmail must be a valid email'],
      [ARTICLE, 'contactEmail', '', 'contactEmail cannot be empty'],
      [RESTAURANT, 'email', 'a@b', 'email must be a valid email'],
      [CATEGORY, 'slug', 'Not A Slug!', 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
      [ARTICLE, 'views', 3000000000, 'views must be less than or equal to 2147483647'],
      [ARTICLE, 'views', '-2147483649', 'views must be greater than or equal to -2147483648'],
      [ARTICLE, 'views', 1.5, 'views must be an integer'],
      [ARTICLE, 'views', '1.5', 'views must be an integer'],
      [ARTICLE, 'views', 'many', 'views must be a `number` type, but the final value was: `NaN` (cast from the value `"many"`).'],
      [ARTICLE, 'views', true, 'views must be a `number` type, but the final value was: `NaN` (cast from the value `true`).'],
      [ARTICLE, 'viewsTotal', 'lots', 'viewsTotal must be a `number` type, but the final value was: `NaN` (cast from the value `"lots"`).'],
      [ARTICLE, 'viewsTotal', 2 ** 60, 'viewsTotal must be a safe integer; send larger values as a string'],
      [ARTICLE, 'viewsTotal', '9223372036854775808', 'viewsTotal must be less than or equal to 9223372036854775807'],
      [ARTICLE, 'rating', 'high', 'rating must be a `number` type, but the final value was: `NaN` (cast from the value `"high"`).'],
      [ARTICLE, 'rating', '1e999', 'rating must be less than or equal to 1.7976931348623157e+308'],
      [RESTAURANT, 'rating', 'good', 'rating must be a `number` type, but the final value was: `NaN` (cast from the value `"good"`).'],
      [ARTICLE, 'featured', 'yes', 'featured must be a `boolean` type, but the final value was: `"yes"`.'],
      [ARTICLE, 'featured', 2, 'featured must be a `boolean` type, but the final value was: `2`.'],
      [ARTICLE, 'publishDate', 'next tuesday', 'publishDate must be a valid date in the format yyyy-MM-dd'],
      [ARTICLE, 'publishDate', '2024-02-30', 'publishDate must be a valid date in the format yyyy-MM-dd'],
      [ARTICLE, 'publishDate', 20240315, 'publishDate must be a valid date in the format yyyy-MM-dd'],
      [ARTICLE, 'publishTime', '14:30', 'publishTime must be a valid time in the format HH:mm:ss.SSS'],
      [ARTICLE, 'publishTime', '25:99', 'publishTime must be a valid time in the format HH:mm:ss.SSS'],
      [ARTICLE, 'publishTime', '12:00:00.1234', 'publishTime must be a valid time in the format HH:mm:ss.SSS'],
      [ARTICLE, 'scheduledAt', 'yesterday', 'scheduledAt must be a timestamp or an ISO date (a date-time needs Z or an offset)'],
      [ARTICLE, 'scheduledAt', '2024-06-01T14:00:00', 'scheduledAt must be a timestamp or an ISO date (a date-time needs Z or an offset)'],
      [ARTICLE, 'scheduledAt', '2024-06-01T24:00:00Z', 'scheduledAt must be a timestamp or an ISO date (a date-time needs Z or an offset)'],
      [ARTICLE, 'scheduledAt', 1e17, 'scheduledAt must be a timestamp or an ISO date (a date-time needs Z or an offset)'],
      [ARTICLE, 'title', 'a\u0000b', 'title cannot contain NUL characters'],
      [ARTICLE, 'metadata', { list: ['ok', 'a\u0000b'] }, 'metadata cannot contain NUL characters'],
      [ARTICLE, 'metadata', { 'k\u0000': 1 }, 'metadata cannot contain NUL characters'],
      [ARTICLE, 'publishedAt', 'soon', 'publishedAt must be a timestamp or an ISO date (a date-time needs Z or an offset)'],
    ];
    for (const [uid, name, sent, message] of REFUSED) {
      it(`${uid} ${name}: ${JSON.stringify(sent)}`, () => {
        expect(problemOf(uid, name, sent)).to.deep.equal([[name], message]);
      });
    }

    it('accepts "" for a required string, as Strapi does', () => {
      expect(create(ARTICLE, { title: '' })).to.deep.equal({ values: { title: '' }, problems: [] });
    });

    it('reports every problem of the object at once, in attribute order', () => {
      const { problems, values } = create(ARTICLE, { kind: 'opinion', contactEmail: 'nope', views: 'many', rating: 2 });
      expect(problems.map((problem) => problem.path)).to.deep.equal([['title'], ['kind'], ['contactEmail'], ['views']]);
      expect(problems[0].message).to.equal('title must be defined.');
      expect(values).to.deep.equal({ rating: 2 });
    });
  });

  describe('required attributes and null', () => {
    it('on create, an absent required attribute must be defined', () => {
      expect(create(CATEGORY, {}).problems).to.deep.equal([{ path: ['name'], message: 'name must be defined.' }]);
      expect(create(CATEGORY, { name: undefined }).problems).to.deep.equal([{ path: ['name'], message: 'name must be defined.' }]);
    });

    it('on update, an absent required attribute is left as it is', () => {
      expect(update(CATEGORY, { description: 'only this' })).to.deep.equal({ values: { description: 'only this' }, problems: [] });
    });

    it('refuses null on a required attribute on create and on update, with the type Strapi names', () => {
      const message = 'title must be a `string` type, but the final value was: `null`.';
      expect(create(ARTICLE, { title: null }).problems).to.deep.equal([{ path: ['title'], message }]);
      expect(update(ARTICLE, { title: null }).problems).to.deep.equal([{ path: ['title'], message }]);
    });

    it('keeps null on attributes that are not required, whatever their type', () => {
      const nulls = {
        slug: null, description: null, kind: null, contactEmail: null, publishDate: null, publishTime: null, scheduledAt: null,
        views: null, viewsTotal: null, rating: null, price: null, featured: null, metadata: null, accessCode: null, publishedAt: null,
      };
      expect(update(ARTICLE, nulls)).to.deep.equal({ values: nulls, problems: [] });
    });
  });

  describe('paths', () => {
    it('prefixes the path and names it in the message, list indexes in brackets', () => {
      expect(create(SEO, { metaTitle: 'y'.repeat(61) }, ['seo']).problems).to.deep.equal([
        { path: ['seo', 'metaTitle'], message: 'seo.metaTitle must be at most 60 characters' },
      ]);
      expect(create('shared.meta-social', { title: 'ok', socialNetwork: 'Myspace' }, ['seo', 'metaSocial', 0]).problems).to.deep.equal([
        {
          path: ['seo', 'metaSocial', 0, 'socialNetwork'],
          message: 'seo.metaSocial[0].socialNetwork must be one of the following values: Facebook, Twitter, ',
        },
      ]);
      expect(create('shared.link', { url: '/x' }, ['links', 1]).problems).to.deep.equal([
        { path: ['links', 1, 'label'], message: 'links[1].label must be defined.' },
      ]);
    });

    it('accepts a component string at its maxLength exactly', () => {
      expect(create(SEO, { metaTitle: 'y'.repeat(60) }, ['seo']).problems).to.deep.equal([]);
    });
  });

  describe('constraints of the schema file', () => {
    let root: string;
    let gadgets: ScalarChecker;
    let gadgetRegistry: Registry;
    const GADGET = 'api::gadget.gadget';
    before(async () => {
      root = await schemaFolder({ 'content-types/gadget.yaml': GADGET_YAML, 'components/shared/part.yaml': PART_YAML });
      gadgetRegistry = await loadSchema(root);
      gadgets = compileScalarChecker(gadgetRegistry);
    });
    after(async () => {
      await rm(root, { recursive: true, force: true });
    });
    const messagesOf = (data: Record<string, unknown>) => gadgets.check(GADGET, data, { partial: true, path: [] }).problems.map((problem) => problem.message);

    it('reads them into the registry, and required and item counts on the other kinds', () => {
      const model = modelOf(gadgetRegistry, GADGET);
      expect(model.attributes.get('code')).to.deep.include({ constraints: { minLength: 5, maxLength: 10, min: null, max: null, regex: '^[A-Z]{3}-\\d+$' } });
      expect(model.attributes.get('serial')).to.deep.include({ constraints: { minLength: null, maxLength: null, min: '-5', max: '9007199254740993', regex: null } });
      expect(model.attributes.get('cover')).to.deep.include({ required: true });
      expect(model.attributes.get('parts')).to.deep.include({ required: true, min: 1, max: 3 });
      expect(modelOf(registry, ARTICLE).attributes.get('localizations')).to.deep.include({ required: false });
      expect(modelOf(registry, ARTICLE).attributes.get('category')).to.deep.include({ required: false });
      expect(model.attributes.get('createdAt')).to.deep.include({ constraints: { minLength: null, maxLength: null, min: null, max: null, regex: null } });
    });

    it('applies regex, minLength and maxLength to non-empty strings', () => {
      expect(messagesOf({ code: 'ABC-12' })).to.deep.equal([]);
      expect(messagesOf({ code: '' })).to.deep.equal([]);
      expect(messagesOf({ code: 'abc-12' })).to.deep.equal(['code must match the following: "/^[A-Z]{3}-\\d+$/"']);
      expect(messagesOf({ code: 'AB-1' })).to.deep.equal(['code must be at least 5 characters']);
      expect(messagesOf({ code: 'ABC-12345678' })).to.deep.equal(['code must be at most 10 characters']);
      expect(messagesOf({ nickname: 'ab' })).to.deep.equal(['nickname must be at least 3 characters']);
      expect(messagesOf({ nickname: '' })).to.deep.equal([]);
    });

    it('refuses null on required untyped attributes as Strapi does: not defined on create, not null on update', () => {
      const create = gadgets.check(GADGET, { nickname: 'abc', released: null, settings: null }, { partial: false, path: [] });
      expect(create.problems).to.deep.equal([
        { path: ['released'], message: 'released must be defined.' },
        { path: ['settings'], message: 'settings must be defined.' },
      ]);
      expect(messagesOf({ released: null, settings: null })).to.deep.equal(['released cannot be null', 'settings cannot be null']);
      expect(messagesOf({ released: '2024-01-02', settings: [] })).to.deep.equal([]);
    });

    it('uses a uid\'s own regex instead of the default pattern', () => {
      expect(messagesOf({ handle: '@gadget' })).to.deep.equal([]);
      expect(messagesOf({ handle: 'gadget' })).to.deep.equal(['handle must match the following: "/^@[a-z]+$/"']);
    });

    it('applies min and max to numbers and numeric strings, exactly for bigintegers', () => {
      expect(messagesOf({ stock: 0, weight: 0.5, serial: '9007199254740993' })).to.deep.equal([]);
      expect(messagesOf({ stock: -1 })).to.deep.equal(['stock must be greater than or equal to 0']);
      expect(messagesOf({ stock: '101' })).to.deep.equal(['stock must be less than or equal to 100']);
      expect(messagesOf({ serial: '9007199254740994' })).to.deep.equal(['serial must be less than or equal to 9007199254740993']);
      expect(messagesOf({ serial: -6 })).to.deep.equal(['serial must be greater than or equal to -5']);
      expect(messagesOf({ weight: '2.6' })).to.deep.equal(['weight must be less than or equal to 2.5']);
      expect(messagesOf({ weight: 0.4 })).to.deep.equal(['weight must be greater than or equal to 0.5']);
    });

    it('reports a regex that does not compile and a bound that is not a number as schema problems', async () => {
      const broken = GADGET_YAML.replace("'^[A-Z]{3}-\\d+$'", "'^([A-Z'").replace("max: '2.5'", "max: 'heavy'");
      const brokenRoot = await schemaFolder({ 'content-types/gadget.yaml': broken, 'components/shared/part.yaml': PART_YAML });
      try {
        const error = await loadSchema(brokenRoot).then(() => null, (caught: unknown) => caught);
        expect(error).to.be.instanceOf(SchemaError);
        expect((error as SchemaError).problems.map((problem) => [problem.path, problem.message])).to.deep.equal([
          ['attributes.code.regex', '"^([A-Z" is not a valid JavaScript regular expression'],
          ['attributes.weight.max', '"heavy" is not a number'],
        ]);
      } finally {
        await rm(brokenRoot, { recursive: true, force: true });
      }
    });
  });
});
