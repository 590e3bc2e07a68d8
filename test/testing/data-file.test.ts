/**
 * The testing kit's data file: every problem at once, each with file, line and column, and
 * nothing written when there is one.
 */
import { expect } from 'chai';
import { createTestApi, parseTestData } from '../../plugin/testing/index.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot } from '../support/api.js';

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
