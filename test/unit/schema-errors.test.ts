import { expect } from 'chai';
import { problemsOf } from './schema-fixtures.js';

interface Where {
  file: string;
  path: string;
  line: number;
  column: number;
}

/** The problem's where and what, without the full wording of the message. */
function where(problem: Where): Where {
  return { file: problem.file, path: problem.path, line: problem.line, column: problem.column };
}

/** A problem a fixture must report: where, and its message exactly (a string) or in part (a pattern); unchecked when absent. */
interface Expected extends Where {
  message?: string | RegExp;
}

/** Test title, fixture folder, and every problem it reports, in order. */
const KINDS: readonly (readonly [title: string, fixture: string, problems: readonly Expected[]])[] = [
  ['reports a YAML syntax error where the parser stopped', 'yaml-syntax', [
    { file: 'content-types/post.yaml', path: 'attributes', line: 10, column: 1, message: /^YAML syntax error: / },
  ]],
  ['reports a duplicate YAML key at the second occurrence', 'duplicate-yaml-key', [
    { file: 'content-types/post.yaml', path: 'attributes.title', line: 12, column: 3, message: 'duplicate key "title"; a key may appear only once in a mapping' },
  ]],
  ['reports an unknown top-level key at the key, listing the known ones', 'unknown-key', [
    { file: 'content-types/post.yaml', path: 'colour', line: 3, column: 1, message: 'unknown key "colour"; expected one of uid, kind, collectionName, info, options, pluginOptions, attributes, indexes' },
  ]],
  ['reports a missing required key at its parent', 'missing-key', [
    { file: 'content-types/post.yaml', path: 'collectionName', line: 1, column: 1, message: 'missing required key "collectionName"' },
  ]],
  ['reports a value of the wrong type at the value', 'wrong-type', [
    { file: 'content-types/post.yaml', path: 'attributes.title.required', line: 10, column: 15, message: 'expected a boolean' },
  ]],
  ['reports an unknown attribute type with the list of types', 'unknown-attribute-type', [
    { file: 'content-types/post.yaml', path: 'attributes.title.type', line: 9, column: 11, message: /^unknown attribute type "strin"; expected one of string, text, richtext, enumeration, / },
  ]],
  ['reports an enumeration without enum', 'enumeration-without-enum', [
    { file: 'content-types/post.yaml', path: 'attributes.status.enum', line: 8, column: 3, message: 'missing required key "enum"' },
  ]],
  ['reports bad names: an attribute name and a component folder', 'bad-name', [
    { file: 'components/Shared/hero.yaml', path: '', line: 1, column: 1, message: 'invalid component category "Shared"; expected lowercase letters, digits and dashes, starting with a letter' },
    { file: 'content-types/post.yaml', path: 'attributes.2ndTitle', line: 10, column: 3, message: 'invalid attribute name "2ndTitle"; expected letters, digits and underscores, starting with a letter' },
  ]],
  ['reports an unknown relation kind', 'unknown-relation-kind', [
    { file: 'content-types/post.yaml', path: 'attributes.related.relation', line: 12, column: 15, message: 'unknown relation kind "oneToFew"; expected one of oneToOne, oneToMany, manyToOne, manyToMany' },
  ]],
  ['reports an unknown relation target', 'unknown-target', [
    { file: 'content-types/post.yaml', path: 'attributes.writer.target', line: 13, column: 13, message: 'unknown target "api::author.author"; no content type of this schema has that uid or singular name' },
  ]],
  ['reports inversedBy/mappedBy sides that do not name each other', 'inversed-by-mismatch', [
    { file: 'content-types/category.yaml', path: 'attributes.posts.mappedBy', line: 12, column: 15, message: '"topic" is not a relation attribute of api::post.post' },
    { file: 'content-types/post.yaml', path: 'attributes.category.inversedBy', line: 12, column: 17, message: 'api::category.category.posts must target api::post.post with "mappedBy: category"' },
  ]],
  ['reports relation kinds that do not pair, on both sides', 'relation-kind-mismatch', [
    { file: 'content-types/category.yaml', path: 'attributes.posts.relation', line: 10, column: 15 },
    { file: 'content-types/post.yaml', path: 'attributes.category.relation', line: 10, column: 15, message: /^manyToOne does not pair with api::category.category.posts \(manyToMany\); expected oneToMany/ },
  ]],
  ['reports an unknown component uid', 'unknown-component', [
    { file: 'content-types/post.yaml', path: 'attributes.seo.component', line: 10, column: 16, message: /^unknown component "shared.sep"/ },
  ]],
  ['reports a dynamic zone declared inside a component', 'dynamic-zone-in-component', [
    { file: 'components/page/section.yaml', path: 'attributes.blocks.type', line: 8, column: 11, message: 'a dynamic zone cannot be declared inside a component' },
  ]],
  ['reports a reserved attribute name', 'reserved-name', [
    { file: 'content-types/post.yaml', path: 'attributes.populate', line: 10, column: 3, message: /^"populate" is reserved/ },
  ]],
  ['reports `locale` on a localized type only: elsewhere it is a plain attribute', 'reserved-locale', [
    { file: 'content-types/post.yaml', path: 'attributes.locale', line: 13, column: 3, message: '"locale" is reserved on a localized type (the locale of its entries); choose another name' },
  ]],
  ['reports a table name used twice, at the second file', 'duplicate-table', [
    { file: 'content-types/story.yaml', path: 'collectionName', line: 2, column: 17, message: 'table name "posts" is already used by content-types/post.yaml' },
  ]],
  ['reports a route name used twice, at the second file', 'duplicate-route', [
    { file: 'content-types/story.yaml', path: 'info.pluralName', line: 5, column: 15, message: 'route name "posts" is already used by content-types/post.yaml' },
  ]],
  ['reports indexes over what has no column, unknown or repeated attributes, at the declaration', 'index-declarations', [
    { file: 'components/shared/seo.yaml', path: 'indexes.0.attributes.0', line: 11, column: 18, message: /^a json attribute cannot be indexed/ },
    { file: 'content-types/post.yaml', path: 'attributes.body.index', line: 13, column: 12, message: /^a richtext attribute cannot be indexed/ },
    { file: 'content-types/post.yaml', path: 'attributes.author.index', line: 18, column: 12, message: "a relation has no column in posts: its links are in a link table that Strapi's layout already indexes" },
    { file: 'content-types/post.yaml', path: 'indexes.1.attributes.0', line: 24, column: 18, message: 'unknown attribute "titel"; did you mean "title"?' },
    { file: 'content-types/post.yaml', path: 'indexes.2.attributes.0', line: 25, column: 18, message: "a component has no column in posts: declare the index in the component's own file" },
    { file: 'content-types/post.yaml', path: 'indexes.3.attributes.1', line: 26, column: 25, message: '"title" is listed twice in this index' },
    // publishedAt is a column only of draft-and-publish types.
    { file: 'content-types/post.yaml', path: 'indexes.4.attributes.0', line: 27, column: 18, message: 'unknown attribute "publishedAt" of posts' },
  ]],
  ["reports a declared index that repeats another declared one or takes an index's name", 'index-clashes', [
    { file: 'content-types/post.yaml', path: 'indexes.0', line: 19, column: 5, message: 'duplicate index: posts_title_index is declared over title already' },
    // indexes.1 is allowed beside Strapi's posts_slug_unique: on PostgreSQL it is in the API's sort order.
    { file: 'content-types/post.yaml', path: 'indexes.2', line: 21, column: 5, message: 'index name "posts_published_at_index" is already used by an index of posts; give this one a "name"' },
    { file: 'content-types/post.yaml', path: 'indexes.4', line: 24, column: 5, message: 'index name "posts_slug_unique" is already used by an index of posts; give this one a "name"' },
    { file: 'content-types/post.yaml', path: 'indexes.5', line: 26, column: 5, message: 'index name "authors_name_index" is already used by an index of authors; give this one a "name"' },
    // indexes.7 (title:desc) is another index than indexes.0's ascending title.
    { file: 'content-types/post.yaml', path: 'indexes.8', line: 30, column: 5, message: 'duplicate index: posts_title_desc_index is declared over title desc already' },
  ]],
];

describe('schema loading: one problem per kind, with file, YAML path and line:column', () => {
  for (const [title, fixture, expected] of KINDS) {
    it(title, async () => {
      const problems = await problemsOf(fixture);
      expect(problems.map(where)).to.deep.equal(expected.map(where));
      expected.forEach(({ message }, index) => {
        if (typeof message === 'string') expect(problems[index].message).to.equal(message);
        else if (message) expect(problems[index].message).to.match(message);
      });
    });
  }
});

describe('schema loading: several problems in several files', () => {
  it('reports all of them at once, sorted by file, line and column, without cascades', async () => {
    const problems = await problemsOf('several-errors');
    // category.yaml and seo.yaml are left out of the cross-file checks, so the references to them
    // from article.yaml are not reported again; the unknown author is.
    expect(problems.map(where)).to.deep.equal([
      { file: 'components/shared/seo.yaml', path: '', line: 6, column: 1 },
      { file: 'content-types/article.yaml', path: 'attributes.writer.target', line: 17, column: 13 },
      { file: 'content-types/category.yaml', path: 'kind', line: 1, column: 1 },
      { file: 'content-types/category.yaml', path: 'attributes.name.unique', line: 9, column: 13 },
      { file: 'content-types/page.yaml', path: 'attributes.sort', line: 8, column: 3 },
    ]);
  });

  it('says which folder is missing when there is no content-types folder', async () => {
    const problems = await problemsOf('no-such-folder');
    expect(problems).to.have.length(1);
    expect(problems[0].file).to.equal('content-types');
    expect(problems[0].message).to.match(/^folder not found in /);
  });
});

describe('schema loading: a YAML syntax error is one problem, where it starts', () => {
  it('reports a tab used as indentation once, at the tab, not the errors of every line after it', async () => {
    const problems = await problemsOf('yaml-tab-cascade');
    expect(problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message}`)).to.deep.equal([
      'content-types/article.yaml:17:1 YAML syntax error: Tabs are not allowed as indentation',
    ]);
  });

  it('reports a quote never closed at the quote that opens it, not at the end of the file', async () => {
    const problems = await problemsOf('yaml-unclosed-quote');
    expect(problems.map((problem) => `${problem.file}:${problem.line}:${problem.column}`)).to.deep.equal(['content-types/article.yaml:28:11']);
    expect(problems[0].message).to.match(/^YAML syntax error: Missing closing 'quote/);
  });
});

describe('schema loading: every problem of every file in one pass', () => {
  it('checks the valid attributes of a file whose other attributes are invalid, across files', async () => {
    const problems = await problemsOf('all-stages');
    expect(problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.path}: ${problem.message.replace(/; expected one of .*/, '')}`)).to.deep.equal([
      'components/shared/seo.yaml:7:16 attributes.metaTitle.maxLength: expected an integer',
      'components/shared/seo.yaml:11:13 attributes.image.target: unknown target "plugin::upload.fil"; did you mean "plugin::upload.file"?',
      'content-types/author.yaml:10:13 attributes.name.unique: expected a boolean',
      'content-types/author.yaml:15:15 attributes.posts.mappedBy: "author" is not a relation attribute of api::post.post',
      'content-types/post.yaml:9:11 attributes.title.type: unknown attribute type "strin"',
      // slug's targetField names the invalid title: not reported a second time.
      'content-types/post.yaml:16:13 attributes.writer.target: unknown target "api::autor.autor"; did you mean "api::author.author"?',
    ]);
  });
});

describe('schema loading: an unknown relation target', () => {
  it('suggests the closest content type of the schema, in the form written, and nothing when none is close', async () => {
    const problems = await problemsOf('suggest-target');
    expect(problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`)).to.deep.equal([
      '11:13 unknown target "catgory"; did you mean "category"?',
      '15:13 unknown target "api::tags.tags"; did you mean "api::tag.tag"?',
      '19:13 unknown target "api::author.author"; no content type of this schema has that uid or singular name',
    ]);
  });
});
