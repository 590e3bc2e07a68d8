import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { importStrapiApp, type ImportChange, type ImportReport } from '../../plugin/schema/import-strapi.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { stockUsersPermissionsSchema } from '../../plugin/schema/users-permissions.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { repoRoot } from './schema-fixtures.js';

type Json = Record<string, unknown>;

function deleteAt(document: Json, path: readonly (string | number)[]): void {
  let node: unknown = document;
  for (const step of path.slice(0, -1)) node = (node as Json)[step];
  delete (node as Json)[path[path.length - 1]];
}

/** The Strapi document with the report's drops and additions applied: what the YAML must say. */
function expectedDocument(strapi: Json, file: string, report: ImportReport): Json {
  const expected = structuredClone(strapi);
  const mine = (change: ImportChange) => change.file === file;
  for (const change of report.dropped.filter(mine)) deleteAt(expected, change.path);
  for (const change of report.added.filter(mine)) expected[change.path[0]] = change.value;
  return expected;
}

describe('import-strapi on the conformance app', () => {
  const appDir = join(conformanceKitDir(), 'strapi-app');
  let outDir: string;
  let report: ImportReport;
  before(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'import-strapi-'));
    report = await importStrapiApp(appDir, outDir);
  });
  after(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('writes one file per content type and component, users and roles included', () => {
    expect(report.written.map((entry) => entry.file).sort()).to.deep.equal([
      'components/restaurant/opening-hour.yaml',
      'components/shared/address.yaml',
      'components/shared/link.yaml',
      'components/shared/media.yaml',
      'components/shared/meta-social.yaml',
      'components/shared/quote.yaml',
      'components/shared/related-content.yaml',
      'components/shared/rich-text.yaml',
      'components/shared/seo.yaml',
      'components/shared/slider.yaml',
      'content-types/article.yaml',
      'content-types/category.yaml',
      'content-types/restaurant.yaml',
      'content-types/role.yaml',
      'content-types/user.yaml',
    ]);
    expect(report.problems).to.deep.equal([]);
  });

  it('reports every drop and addition', () => {
    const label = (change: ImportChange) => `${change.file} ${change.path.join('.')}`;
    expect(report.dropped.map(label).sort()).to.deep.equal([
      'content-types/role.yaml attributes.permissions',
      'content-types/role.yaml info.name',
      'content-types/user.yaml config',
      'content-types/user.yaml info.name',
    ]);
    expect(report.added.map((change) => `${label(change)} ${change.value}`).sort()).to.deep.equal([
      'content-types/role.yaml kind collectionType',
      'content-types/role.yaml uid plugin::users-permissions.role',
      'content-types/user.yaml kind collectionType',
      'content-types/user.yaml uid plugin::users-permissions.user',
    ]);
  });

  it('writes documents deep-equal to the Strapi JSON minus the reported drops', async () => {
    for (const { file, source } of report.written) {
      const written = parse(await readFile(join(outDir, file), 'utf8')) as Json;
      const stock = source.match(/^stock users-permissions (user|role)/);
      const strapi = stock
        ? (JSON.parse(await readFile(join(conformanceKitDir(), 'plugin-schemas', `users-permissions.${stock[1]}.json`), 'utf8')) as Json)
        : (JSON.parse(await readFile(join(appDir, source), 'utf8')) as Json);
      expect(written, file).to.deep.equal(expectedDocument(strapi, file, report));
    }
  });

  it('starts each file with a modeline pointing at the shipped JSON Schema', async () => {
    const article = await readFile(join(outDir, 'content-types', 'article.yaml'), 'utf8');
    const seo = await readFile(join(outDir, 'components', 'shared', 'seo.yaml'), 'utf8');
    expect(article.split('\n')[0]).to.match(/^# yaml-language-server: \$schema=(\.\.\/)+.*plugin\/schema\/content-type\.schema\.json$/);
    expect(seo.split('\n')[0]).to.match(/^# yaml-language-server: \$schema=(\.\.\/)+.*plugin\/schema\/component\.schema\.json$/);
  });

  it('is what the example schema of this repository holds', async () => {
    for (const { file } of report.written) {
      const body = (text: string) => text.slice(text.indexOf('\n') + 1);
      const committed = await readFile(join(repoRoot, file), 'utf8');
      expect(body(committed), file).to.equal(body(await readFile(join(outDir, file), 'utf8')));
    }
    const modeline = (await readFile(join(repoRoot, 'components', 'shared', 'seo.yaml'), 'utf8')).split('\n')[0];
    expect(modeline).to.equal('# yaml-language-server: $schema=../../plugin/schema/component.schema.json');
  });

  it('loads', async () => {
    const registry = await loadSchema(outDir);
    expect(registry.contentTypes).to.have.length(5);
    expect(registry.components).to.have.length(10);
  });

  it('declares no index: Strapi has no such option, so sync adds none to an imported app', async () => {
    const registry = await loadSchema(outDir);
    expect([...registry.models.values()].filter((model) => model.indexes.length).map((model) => model.uid)).to.deep.equal([]);
    for (const { file } of report.written) {
      const document = parse(await readFile(join(outDir, file), 'utf8')) as { indexes?: unknown; attributes: Record<string, { index?: unknown }> };
      expect(document.indexes, file).to.equal(undefined);
      expect(Object.values(document.attributes).filter((attribute) => 'index' in attribute), file).to.deep.equal([]);
    }
  });

  it('ships the stock users-permissions schemas of Strapi 4.26.2', async () => {
    for (const name of ['user', 'role'] as const) {
      const stock = JSON.parse(await readFile(join(conformanceKitDir(), 'plugin-schemas', `users-permissions.${name}.json`), 'utf8'));
      expect(stockUsersPermissionsSchema(name)).to.deep.equal(stock);
    }
  });
});

describe('import-strapi on a small app', () => {
  let appDir: string;
  let outDir: string;
  beforeEach(async () => {
    appDir = await mkdtemp(join(tmpdir(), 'strapi-app-'));
    outDir = await mkdtemp(join(tmpdir(), 'import-out-'));
  });
  afterEach(async () => {
    await rm(appDir, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  });

  async function writeJson(file: string, json: Json): Promise<void> {
    await mkdir(join(appDir, file, '..'), { recursive: true });
    await writeFile(join(appDir, file), JSON.stringify(json));
  }

  const post = (attributes: Json): Json => ({
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: false },
    attributes,
  });

  it('uses the app override of the users-permissions user', async () => {
    await writeJson('src/api/post/content-types/post/schema.json', post({ author: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' } }));
    const user = stockUsersPermissionsSchema('user');
    (user.attributes as Json).nickname = { type: 'string' };
    await writeJson('src/extensions/users-permissions/content-types/user/schema.json', user);
    const report = await importStrapiApp(appDir, outDir);
    expect(report.written.find((entry) => entry.file === 'content-types/user.yaml')?.source).to.equal('src/extensions/users-permissions/content-types/user/schema.json');
    const written = parse(await readFile(join(outDir, 'content-types', 'user.yaml'), 'utf8')) as { attributes: Json };
    expect(written.attributes.nickname).to.deep.equal({ type: 'string' });
    expect((await loadSchema(outDir)).routes.has('users')).to.equal(true);
  });

  it('writes no users-permissions types when nothing refers to them', async () => {
    await writeJson('src/api/post/content-types/post/schema.json', post({ title: { type: 'string' } }));
    const report = await importStrapiApp(appDir, outDir);
    expect(report.written.map((entry) => entry.file)).to.deep.equal(['content-types/post.yaml']);
  });

  it('writes the stock user and role with `users`, though nothing refers to them', async () => {
    await writeJson('src/api/post/content-types/post/schema.json', post({ title: { type: 'string' } }));
    const report = await importStrapiApp(appDir, outDir, { users: true });
    expect(report.written.map((entry) => entry.file).sort()).to.deep.equal(['content-types/post.yaml', 'content-types/role.yaml', 'content-types/user.yaml']);
    expect((await loadSchema(outDir)).routes.has('users')).to.equal(true);
  });

  it('drops unknown keys and attributes aimed at missing types, and says the uid when folders differ', async () => {
    await writeJson(
      'src/api/blog/content-types/post/schema.json',
      post({
        title: { type: 'string', regex: '^[A-Z]', writable: false },
        editor: { type: 'relation', relation: 'oneToOne', target: 'admin::user' },
      }),
    );
    const report = await importStrapiApp(appDir, outDir);
    const label = (change: ImportChange) => `${change.path.join('.')}: ${change.reason}`;
    expect(report.dropped.map(label)).to.deep.equal([
      'attributes.editor: target admin::user is not part of the imported schema',
      'attributes.title.writable: unknown key "writable" in this schema format',
    ]);
    expect(report.added.map((change) => `${change.path.join('.')} ${change.value}`)).to.deep.equal(['uid api::blog.post']);
    const registry = await loadSchema(outDir);
    expect(registry.models.has('api::blog.post')).to.equal(true);
    expect(registry.models.get('api::blog.post')?.attributes.get('title')).to.deep.include({ constraints: { minLength: null, maxLength: null, min: null, max: null, regex: '^[A-Z]' } });
  });

  it('fails when the folder holds no Strapi schema', async () => {
    let failure: unknown;
    await importStrapiApp(appDir, outDir).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.match(/no Strapi schema found/);
  });
});
