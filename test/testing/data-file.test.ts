/**
 * The testing kit's data file: every problem at once, each with file, line and column, and
 * nothing written when there is one.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { createTestApi, parseTestData } from '../../plugin/testing/index.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

const BROKEN = `category:
  food: { name: Food, nope: 1 }
article:
  a:
    title: A
    category: drinks
    categories: [food, food2]
    seo: [1]
    blocks:
      - { __component: shared.nope }
widget:
  w: {}
`;

describe('testing kit data file', () => {
  it('reports every problem with file, line and column', async () => {
    const registry = await loadSchema(repoRoot);
    let error: unknown;
    try {
      parseTestData(BROKEN, 'data.yaml', registry);
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(SchemaError);
    const lines = (error as SchemaError).problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message}`);
    expect(lines).to.deep.equal([
      'data.yaml:2:23 api::category.category has no attribute "nope" that test data can set',
      'data.yaml:6:15 no api::category.category entry is named "drinks"',
      'data.yaml:7:24 no api::category.category entry is named "food2"',
      'data.yaml:8:10 expected a map of component values',
      'data.yaml:10:9 expected __component, one of shared.rich-text, shared.quote, shared.media, shared.slider',
      'data.yaml:11:1 unknown content type "widget"',
    ]);
  });

  it('refuses a to-one relation given two entries, and YAML syntax errors', async () => {
    const registry = await loadSchema(repoRoot);
    expect(() => parseTestData('category:\n  a: { name: A }\n  b: { name: B }\narticle:\n  x: { title: X, category: [a, b] }\n', 'd.yaml', registry)).to.throw(SchemaError, /d\.yaml:5:28 .*category holds one/);
    expect(() => parseTestData('article: [\n', 'd.yaml', registry)).to.throw(SchemaError, /d\.yaml:\d+:\d+ YAML syntax error/);
  });

  it('creates no database rows when the data has a problem', async () => {
    let error: unknown;
    try {
      await createTestApi({ root: repoRoot, data: { text: 'article:\n  x: { nope: 1 }\n' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(SchemaError);
  });
});

/** The recipes app's schema: `minutes` is an integer, `title` a required string, chef `name` required. */
const recipesRoot = join(repoRoot, 'examples', 'recipes');

describe('testing kit data file: values checked as the write API checks them', () => {
  it('reports every bad value with file, line and column, in the write API\'s words', async () => {
    const registry = await loadSchema(recipesRoot);
    const text = [
      'chef:',
      '  ana: { name: Ana }',
      '  nameless: { name: null }',
      'recipe:',
      '  soup:',
      '    title: Soup',
      '    minutes: four',
      '    ingredients:',
      '      - { name: tomato, grams: lots }',
      '  untitled: { minutes: 5 }',
      '  draft: { minutes: 5, publishedAt: null }',
      '',
    ].join('\n');
    let error: unknown;
    try {
      parseTestData(text, 'data.yaml', registry);
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(SchemaError);
    const lines = (error as SchemaError).problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message}`);
    expect(lines).to.deep.equal([
      'data.yaml:3:21 name must be a `string` type, but the final value was: `null`.',
      'data.yaml:7:14 minutes must be a `number` type, but the final value was: `NaN` (cast from the value `"four"`).',
      'data.yaml:9:32 ingredients[0].grams must be a `number` type, but the final value was: `NaN` (cast from the value `"lots"`).',
      'data.yaml:10:13 title must be defined.',
    ]);
  });
});

describe('testing kit data file: what the write API checks against other entries', () => {
  it('refuses a value a unique attribute already has, and a file a media attribute does not take', async () => {
    const recipes = await loadSchema(recipesRoot);
    const media = 'file:\n  notes: { name: n.txt, url: /uploads/n.txt, mime: text/plain, hash: n, size: 1 }\nrecipe:\n  soup: { title: Soup, photo: notes }\n';
    expect(() => parseTestData(media, 'd.yaml', recipes)).to.throw(SchemaError, /^1 schema problem:\nd\.yaml:4:31 recipe\.soup\.photo: photo takes images; file notes is not one$/);
    const example = await loadSchema(repoRoot);
    const unique = 'category:\n  food: { name: Food, slug: food }\n  meals: { name: Meals, slug: food }\n';
    expect(() => parseTestData(unique, 'd.yaml', example)).to.throw(SchemaError, /^1 schema problem:\nd\.yaml:3:31 category\.meals\.slug: slug must be unique; entry "food" has the same value$/);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`testing kit data file: a bad value (${kind.name})`, function () {
    this.timeout(30_000);

    it('is one error with file:line:col, and the database is dropped before anything is written', async () => {
      let error: unknown;
      try {
        await createTestApi({ root: recipesRoot, database: kind.client, data: { file: 'test/data.yaml', text: 'recipe:\n  soup: { title: Soup, minutes: four }\n' } });
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(SchemaError);
      expect((error as SchemaError).message).to.equal('1 schema problem:\ntest/data.yaml:2:33 recipe.soup.minutes: minutes must be a `number` type, but the final value was: `NaN` (cast from the value `"four"`).');
    });

    it('refuses a timestamp or a locale the file sets that the database could not store', async () => {
      const text = 'recipe:\n  soup: { title: Soup, createdAt: yesterday, locale: 12 }\n';
      const error = await createTestApi({ root: recipesRoot, database: kind.client, data: { file: 'd.yaml', text } }).then(
        (api) => api.close(),
        (caught: unknown) => caught,
      );
      expect(error).to.be.instanceOf(SchemaError);
      expect((error as SchemaError).problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`)).to.deep.equal([
        '2:35 createdAt must be an ISO date, or a date-time with Z or an offset',
        '2:54 locale must be a locale code, such as en',
      ]);
    });

    it('stores good values in their typed form', async () => {
      const api = await createTestApi({ root: recipesRoot, database: kind.client, data: { text: 'recipe:\n  soup: { title: Soup, minutes: "30" }\n' } });
      try {
        const response = await api.request.get('/api/recipes?fields[0]=minutes');
        expect(response.body.data[0].attributes.minutes).to.equal(30);
      } finally {
        await api.close();
      }
    });
  });
}
