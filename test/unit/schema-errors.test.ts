import { expect } from 'chai';
import { problemsOf } from './schema-fixtures.js';

/** The problem's where and what, without the full wording of the message. */
function where(problem: { file: string; path: string; line: number; column: number }) {
  return { file: problem.file, path: problem.path, line: problem.line, column: problem.column };
}

describe('schema loading: one problem per kind, with file, YAML path and line:column', () => {
  it('reports a YAML syntax error where the parser stopped', async () => {
    const [problem, ...rest] = await problemsOf('yaml-syntax');
    expect(rest).to.deep.equal([]);
    expect(where(problem)).to.deep.equal({ file: 'content-types/post.yaml', path: 'attributes', line: 10, column: 1 });
    expect(problem.message).to.match(/^YAML syntax error: /);
  });

  it('reports a duplicate YAML key at the second occurrence', async () => {
    const problems = await problemsOf('duplicate-yaml-key');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.title', line: 12, column: 3 }]);
    expect(problems[0].message).to.equal('duplicate key "title"; a key may appear only once in a mapping');
  });

  it('reports an unknown top-level key at the key, listing the known ones', async () => {
    const problems = await problemsOf('unknown-key');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'colour', line: 3, column: 1 }]);
    expect(problems[0].message).to.equal('unknown key "colour"; expected one of uid, kind, collectionName, info, options, pluginOptions, attributes');
  });

  it('reports a missing required key at its parent', async () => {
    const problems = await problemsOf('missing-key');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'collectionName', line: 1, column: 1 }]);
    expect(problems[0].message).to.equal('missing required key "collectionName"');
  });

  it('reports a value of the wrong type at the value', async () => {
    const problems = await problemsOf('wrong-type');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.title.required', line: 10, column: 15 }]);
    expect(problems[0].message).to.equal('expected a boolean');
  });

  it('reports an unknown attribute type with the list of types', async () => {
    const problems = await problemsOf('unknown-attribute-type');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.title.type', line: 9, column: 11 }]);
    expect(problems[0].message).to.match(/^unknown attribute type "strin"; expected one of string, text, richtext, enumeration, /);
  });

  it('reports an enumeration without enum', async () => {
    const problems = await problemsOf('enumeration-without-enum');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.status.enum', line: 8, column: 3 }]);
    expect(problems[0].message).to.equal('missing required key "enum"');
  });

  it('reports bad names: an attribute name and a component folder', async () => {
    const problems = await problemsOf('bad-name');
    expect(problems.map(where)).to.deep.equal([
      { file: 'components/Shared/hero.yaml', path: '', line: 1, column: 1 },
      { file: 'content-types/post.yaml', path: 'attributes.2ndTitle', line: 10, column: 3 },
    ]);
    expect(problems[0].message).to.equal('invalid component category "Shared"; expected lowercase letters, digits and dashes, starting with a letter');
    expect(problems[1].message).to.equal('invalid attribute name "2ndTitle"; expected letters, digits and underscores, starting with a letter');
  });

  it('reports an unknown relation kind', async () => {
    const problems = await problemsOf('unknown-relation-kind');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.related.relation', line: 12, column: 15 }]);
    expect(problems[0].message).to.equal('unknown relation kind "oneToFew"; expected one of oneToOne, oneToMany, manyToOne, manyToMany');
  });

  it('reports an unknown relation target', async () => {
    const problems = await problemsOf('unknown-target');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.writer.target', line: 13, column: 13 }]);
    expect(problems[0].message).to.match(/^unknown target "api::author.author"; expected /);
  });

  it('reports inversedBy/mappedBy sides that do not name each other', async () => {
    const problems = await problemsOf('inversed-by-mismatch');
    expect(problems.map(where)).to.deep.equal([
      { file: 'content-types/category.yaml', path: 'attributes.posts.mappedBy', line: 12, column: 15 },
      { file: 'content-types/post.yaml', path: 'attributes.category.inversedBy', line: 12, column: 17 },
    ]);
    expect(problems[0].message).to.equal('"topic" is not a relation attribute of api::post.post');
    expect(problems[1].message).to.equal('api::category.category.posts must target api::post.post with "mappedBy: category"');
  });

  it('reports relation kinds that do not pair, on both sides', async () => {
    const problems = await problemsOf('relation-kind-mismatch');
    expect(problems.map(where)).to.deep.equal([
      { file: 'content-types/category.yaml', path: 'attributes.posts.relation', line: 10, column: 15 },
      { file: 'content-types/post.yaml', path: 'attributes.category.relation', line: 10, column: 15 },
    ]);
    expect(problems[1].message).to.match(/^manyToOne does not pair with api::category.category.posts \(manyToMany\); expected oneToMany/);
  });

  it('reports an unknown component uid', async () => {
    const problems = await problemsOf('unknown-component');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.seo.component', line: 10, column: 16 }]);
    expect(problems[0].message).to.match(/^unknown component "shared.sep"/);
  });

  it('reports a dynamic zone declared inside a component', async () => {
    const problems = await problemsOf('dynamic-zone-in-component');
    expect(problems.map(where)).to.deep.equal([{ file: 'components/page/section.yaml', path: 'attributes.blocks.type', line: 8, column: 11 }]);
    expect(problems[0].message).to.equal('a dynamic zone cannot be declared inside a component');
  });

  it('reports a reserved attribute name', async () => {
    const problems = await problemsOf('reserved-name');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/post.yaml', path: 'attributes.populate', line: 10, column: 3 }]);
    expect(problems[0].message).to.match(/^"populate" is reserved/);
  });

  it('reports a table name used twice, at the second file', async () => {
    const problems = await problemsOf('duplicate-table');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/story.yaml', path: 'collectionName', line: 2, column: 17 }]);
    expect(problems[0].message).to.equal('table name "posts" is already used by content-types/post.yaml');
  });

  it('reports a route name used twice, at the second file', async () => {
    const problems = await problemsOf('duplicate-route');
    expect(problems.map(where)).to.deep.equal([{ file: 'content-types/story.yaml', path: 'info.pluralName', line: 5, column: 15 }]);
    expect(problems[0].message).to.equal('route name "posts" is already used by content-types/post.yaml');
  });
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
