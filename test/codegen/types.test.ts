/**
 * `content-api types`: the declarations compile, a typed client of the example schema compiles
 * against them, a client that reads what the API never returns does not, and real responses of
 * the fixture (pasted as literals, so excess properties count) satisfy the declared types.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { generateTypes } from '../../plugin/codegen/types.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot, serveFixture } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

/** The compiler's errors for `client` compiled beside the generated `api.ts`, strict. */
function compileErrors(declarations: string, client: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'content-api-types-'));
  try {
    writeFileSync(join(dir, 'api.ts'), declarations);
    writeFileSync(join(dir, 'client.ts'), client);
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TYPED_CLIENT = `
import type { ListResponse, EntryResponse, Article, Category, CollectionRoutes, ContentTypes } from './api.js';

export function titles(response: ListResponse<Article>): string[] {
  return response.data.map((entry) => entry.attributes.title ?? '(untitled)');
}
export function categoryName(response: EntryResponse<Article>): string | undefined {
  return response.data.attributes.category?.data?.attributes.name;
}
export function quotes(response: EntryResponse<Article>): string[] {
  const bodies: string[] = [];
  for (const block of response.data.attributes.blocks ?? []) {
    if (block.__component === 'shared.quote') bodies.push(block.body ?? '');
  }
  return bodies;
}
export const sameType: CollectionRoutes['articles'] = {} as ContentTypes['api::article.article'];
export function articleCount(category: Category): number {
  return category.articles?.data.length ?? 0;
}
`;

describe('content-api types', () => {
  let declarations: string;
  before(async () => {
    declarations = generateTypes(await loadSchema(repoRoot));
  });

  it('compiles, with a typed client of the example schema', () => {
    expect(compileErrors(declarations, TYPED_CLIENT)).to.deep.equal([]);
  });

  it('has no property for private or password attributes, nor for unknown names', () => {
    const reads = ['internalNotes', 'accessCode', 'nope'].map((name) => `export const x_${name} = (a: Article) => a.${name};`);
    const errors = compileErrors(declarations, `import type { Article } from './api.js';\n${reads.join('\n')}\n`);
    expect(errors).to.have.length(3);
    for (const error of errors) expect(error).to.match(/does not exist on type 'Article'/);
  });

  it('tells zone items apart by __component', () => {
    const client = `import type { Article } from './api.js';\nexport const f = (a: Article) => a.blocks?.map((b) => b.__component === 'shared.rich-text' ? b.author : null);\n`;
    expect(compileErrors(declarations, client).join('\n')).to.match(/Property 'author' does not exist/);
  });

  it('types write bodies: the forms a write accepts compile', () => {
    const client = `import type { WriteBody, ArticleInput, CategoryInput } from './api.js';
export const created = {
  data: {
    title: 'Written over HTTP', locale: 'fr', publishedAt: null, views: '12', featured: 'true', viewsTotal: '9007199254740993',
    category: 1, categories: { connect: [{ id: 2, position: { before: 3 } }, 4], disconnect: [{ id: 5 }] }, relatedRestaurants: [1, { id: 2 }],
    headerImage: { id: 1 }, gallery: [1, 2],
    seo: { metaTitle: 'Written', metaSocial: [{ id: 3, title: 'kept' }] },
    blocks: [{ __component: 'shared.rich-text', body: 'Hello' }, { __component: 'shared.quote', title: 'Quoted', category: 2 }],
    metadata: { any: ['json'] },
  },
} satisfies WriteBody<ArticleInput>;
export const updated = { data: { name: 'Food', parent: null, children: { set: [1, 2] } } } satisfies WriteBody<CategoryInput>;
`;
    expect(compileErrors(declarations, client)).to.deep.equal([]);
  });

  it('types the upload routes\' answers: a flat MediaFile, and fileInfo', () => {
    const client = `import type { MediaFile, MediaFileInfo } from './api.js';
export const file = {
  id: 3, name: 'photo.jpg', alternativeText: null, caption: null, width: 1200, height: 800, formats: { thumbnail: { url: '/uploads/thumbnail_photo_0123456789.jpg' } },
  hash: 'photo_0123456789', ext: '.jpg', mime: 'image/jpeg', size: 104.57, url: '/uploads/photo_0123456789.jpg', previewUrl: null, provider: 'local',
  provider_metadata: null, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z',
} satisfies MediaFile;
export const list: MediaFile[] = [file];
export const info = { alternativeText: 'The harbour' } satisfies MediaFileInfo;
`;
    expect(compileErrors(declarations, client)).to.deep.equal([]);
    const wrong = `import type { MediaFile } from './api.js';\nexport const f: MediaFile = { id: 1, attributes: {} };\n`;
    expect(compileErrors(declarations, wrong)).to.have.length(1);
  });

  it('types write bodies: what a write refuses does not compile', () => {
    const wrong = [
      `{ title: 5 }`,
      `{ nope: 1 }`,
      `{ createdAt: '2024-01-01' }`,
      `{ blocks: [{ __component: 'shared.nope' }] }`,
      `{ blocks: [{ __component: 'shared.rich-text', author: 'x' }] }`,
      `{ category: 'one' }`,
    ];
    const client = `import type { ArticleInput } from './api.js';\n${wrong.map((data, index) => `export const w${index}: ArticleInput = ${data};`).join('\n')}\n`;
    expect(compileErrors(declarations, client)).to.have.length(wrong.length);
  });

  for (const kind of testDatabaseKinds()) {
    it(`describes real responses of the fixture exactly (${kind.name})`, async () => {
      const served = await serveFixture(kind.client);
      try {
        const requests: Array<[string, string]> = [
          ['ListResponse<Article>', '/api/articles?locale=all&publicationState=live&pagination[pageSize]=100&populate[blocks][populate]=*&populate[seo][populate]=*&populate[category][populate]=*&populate[links]=true&populate[related][populate]=*&populate[gallery]=true&populate[headerImage]=true&populate[localizations]=true&populate[author]=true'],
          ['ListResponse<Category>', '/api/categories?populate=*'],
          ['EntryResponse<Restaurant>', '/api/restaurants/1?populate=*'],
          ['ListResponse<User>', '/api/users?populate=*'],
        ];
        const literals: string[] = [];
        for (const [index, [type, path]] of requests.entries()) {
          const response = await served.request.get(path);
          expect(response.status, path).to.equal(200);
          literals.push(`export const r${index} = ${response.text} satisfies ${type};`);
        }
        const client = `import type { ListResponse, EntryResponse, Article, Category, Restaurant, User } from './api.js';\n${literals.join('\n')}\n`;
        expect(compileErrors(declarations, client)).to.deep.equal([]);
      } finally {
        await served.close();
      }
    });
  }
});
