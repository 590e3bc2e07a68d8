/**
 * Strapi's GraphQL names: words split as lodash's camelCase splits them (the expectations are
 * lodash 4.17's answers), enumeration values as Strapi's toRegressedEnumValue writes them, and
 * an enumeration GraphQL cannot name refused with the attribute named.
 */
import { expect } from 'chai';
import { enumValueName, strapiCamelCase } from '../../plugin/graphql/schema/names.js';
import { generateGraphQL } from '../../plugin/graphql/schema/schema.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSchema } from '../../plugin/schema/load.js';

const LODASH_CAMEL_CASE: Record<string, string> = {
  'component_shared.seo': 'componentSharedSeo',
  'component_shared.meta-social': 'componentSharedMetaSocial',
  'component_sections.hero-2col': 'componentSectionsHero2Col',
  i18n: 'i18N',
  'users-permissions': 'usersPermissions',
  canonicalURL: 'canonicalUrl',
  SEO: 'seo',
  headline_left: 'headlineLeft',
  xml2json: 'xml2Json',
  'component_a.b3rd': 'componentAB3rd',
  'component_a.2nd-item': 'componentA2ndItem',
  URLPath: 'urlPath',
  'component_layout.faq-v2': 'componentLayoutFaqV2',
  a1b2c3: 'a1B2C3',
  'component_x.item10th': 'componentXItem10th',
  foo__bar: 'fooBar',
  'component_shared.seo123abc': 'componentSharedSeo123Abc',
  ABCdef: 'abCdef',
  aBCDef: 'aBcDef',
  'component_seo.META_TAGS': 'componentSeoMetaTags',
};

describe('GraphQL schema: names', () => {
  it('splits words as lodash camelCase does, humps, digits and ordinals included', () => {
    for (const [text, camel] of Object.entries(LODASH_CAMEL_CASE)) expect(strapiCamelCase(text), text).to.equal(camel);
  });

  it('writes enumeration values as GraphQL names, case kept', () => {
    expect(['Facebook', 'camelCase value', 'New York', 'déjà vu', 'a-b'].map(enumValueName)).to.deep.equal(['Facebook', 'camelCase_value', 'New_York', 'deja_vu', 'a_b']);
  });

  it('refuses an enumeration value GraphQL cannot name, naming the attribute', async () => {
    const root = mkdtempSync(join(tmpdir(), 'content-api-graphql-names-'));
    try {
      mkdirSync(join(root, 'content-types'));
      writeFileSync(join(root, 'content-types', 'box.yaml'), 'kind: collectionType\ncollectionName: boxes\ninfo: { singularName: box, pluralName: boxes, displayName: Box }\nattributes:\n  size: { type: enumeration, enum: [small, 10 items] }\n');
      const registry = await loadSchema(root);
      expect(() => generateGraphQL(registry)).to.throw(/api::box\.box\.size: the enumeration value "10 items" is "10_items"/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
