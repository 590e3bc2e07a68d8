/**
 * import-strapi takes what Strapi 4.26.2 boots: custom fields become the type they store (from
 * the registering plugin's code, the database's column, or --custom-field), a `mappedBy` no owner
 * answers is dropped as Strapi serves nothing through it, and the app's plugins' and extensions'
 * content types are imported. Each app is written to a temporary folder, node_modules included.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import { parse } from 'yaml';
import { registrationsIn } from '../../plugin/schema/custom-fields.js';
import { UnresolvedCustomFieldsError } from '../../plugin/schema/import-custom-fields.js';
import { importStrapiApp, type ImportChange } from '../../plugin/schema/import-strapi.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot } from './schema-fixtures.js';

type Json = Record<string, unknown>;

const label = (change: ImportChange) => `${change.file} ${change.path.join('.')}: ${change.reason}`;

describe('import-strapi on apps Strapi boots', () => {
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

  async function write(file: string, content: Json | string): Promise<void> {
    await mkdir(join(appDir, file, '..'), { recursive: true });
    await writeFile(join(appDir, file), typeof content === 'string' ? content : JSON.stringify(content));
  }

  const type = (singular: string, plural: string, attributes: Json, extra: Json = {}): Json => ({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes,
    ...extra,
  });

  const editorField = { type: 'customField', customField: 'plugin::ckeditor.CKEditor', options: { preset: 'rich' }, required: true };

  /** A plugin installed the way npm installs one: a package whose manifest says it is a Strapi plugin. */
  async function installEditorPlugin(): Promise<void> {
    await write('node_modules/@acme/strapi-plugin-ckeditor/package.json', { name: '@acme/strapi-plugin-ckeditor', strapi: { name: 'ckeditor', kind: 'plugin' } });
    await write(
      'node_modules/@acme/strapi-plugin-ckeditor/server/register.js',
      `'use strict';\nmodule.exports = ({ strapi }) => {\n  strapi.customFields.register({\n    name: 'CKEditor',\n    plugin: 'ckeditor',\n    type: 'richtext',\n    inputSize: { default: 12, isResizable: true },\n  });\n};\n`,
    );
    // The admin bundle registers the same name for the browser; it is not what the server stores.
    await write('node_modules/@acme/strapi-plugin-ckeditor/admin/src/index.js', `app.customFields.register({ name: 'CKEditor', plugin: 'ckeditor', type: 'json' });`);
  }

  it('gives a custom field the type its installed plugin registers, and says so', async () => {
    await installEditorPlugin();
    await write('src/api/post/content-types/post/schema.json', type('post', 'posts', { body: editorField }));
    const report = await importStrapiApp(appDir, outDir);
    expect(report.changed.map(label)).to.deep.equal([
      'content-types/post.yaml attributes.body.type: custom field plugin::ckeditor.CKEditor stores richtext (registered in node_modules/@acme/strapi-plugin-ckeditor/server/register.js)',
    ]);
    expect(report.dropped.map(label)).to.deep.equal(['content-types/post.yaml attributes.body.options: unknown key "options" in this schema format']);
    const written = parse(await readFile(join(outDir, 'content-types', 'post.yaml'), 'utf8')) as { attributes: Json };
    expect(written.attributes.body).to.deep.equal({ type: 'richtext', required: true });
    expect((await loadSchema(outDir)).models.get('api::post.post')?.attributes.get('body')).to.deep.include({ type: 'richtext' });
  });

  it("reads the app's own global fields and local plugins", async () => {
    await write('src/index.js', `module.exports = { register({ strapi }) { strapi.customFields.register([{ name: 'rating', type: 'integer' }, { name: "palette", type: "json" }]); } };`);
    await write('src/plugins/colors/package.json', { name: 'colors', strapi: { name: 'color-picker', kind: 'plugin' } });
    await write('src/plugins/colors/server/register.js', `export default ({ strapi }) => strapi.customFields.register({ name: "color", plugin: "color-picker", type: "string" });`);
    await write(
      'src/api/post/content-types/post/schema.json',
      type('post', 'posts', {
        stars: { type: 'customField', customField: 'global::rating' },
        scheme: { type: 'customField', customField: 'global::palette' },
        tint: { type: 'customField', customField: 'plugin::color-picker.color' },
      }),
    );
    const report = await importStrapiApp(appDir, outDir);
    expect(report.changed.map((change) => `${change.path[1]} ${change.value}`)).to.deep.equal(['stars integer', 'scheme json', 'tint string']);
    await loadSchema(outDir);
  });

  it('stops with one error per unresolved field, naming --custom-field and --database', async () => {
    await write('src/api/post/content-types/post/schema.json', type('post', 'posts', { body: editorField, lead: editorField }));
    await write('src/components/parts/note.json', { collectionName: 'components_parts_notes', info: { displayName: 'Note' }, attributes: { tint: { type: 'customField', customField: 'plugin::color-picker.color' } } });
    const failure = await importStrapiApp(appDir, outDir).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(UnresolvedCustomFieldsError);
    const message = (failure as Error).message.split('\n');
    expect(message).to.have.length(2);
    expect(message[0]).to.equal(
      'custom field plugin::ckeditor.CKEditor (src/api/post/content-types/post/schema.json body, src/api/post/content-types/post/schema.json lead): no plugin installed in the app registers it; give its stored type with --custom-field plugin::ckeditor.CKEditor=<type> (biginteger, boolean, date, datetime, decimal, email, enumeration, float, integer, json, password, richtext, string, text, time, uid), or --database <url> of the app\'s database',
    );
    expect(message[1]).to.match(/^custom field plugin::color-picker\.color \(src\/components\/parts\/note\.json tint\)/);
  });

  it('takes the type given by --custom-field over the plugin, and refuses one that is no type', async () => {
    await installEditorPlugin();
    await write('src/api/post/content-types/post/schema.json', type('post', 'posts', { body: editorField }));
    const report = await importStrapiApp(appDir, outDir, { customFields: { 'plugin::ckeditor.CKEditor': 'text' } });
    expect(report.changed.map((change) => change.value)).to.deep.equal(['text']);
    const refused = await importStrapiApp(appDir, outDir, { customFields: { 'plugin::ckeditor.CKEditor': 'html' } }).catch((error: unknown) => error);
    expect(String(refused)).to.match(/--custom-field plugin::ckeditor\.CKEditor=html: a custom field stores one of biginteger, boolean/);
  });

  it("takes the type of the field's column in the app's database", async () => {
    await write('src/api/post/content-types/post/schema.json', type('post', 'posts', { body: editorField, extraData: { type: 'customField', customField: 'plugin::meta.data' } }));
    const file = join(appDir, 'data.db');
    const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    try {
      await knex.schema.createTable('posts', (table) => {
        table.increments('id');
        table.text('body');
        table.json('extra_data');
      });
      const report = await importStrapiApp(appDir, outDir, { database: knex });
      expect(report.changed.map(label)).to.deep.equal([
        'content-types/post.yaml attributes.body.type: custom field plugin::ckeditor.CKEditor stores text (the type of its column posts.body in the database)',
        'content-types/post.yaml attributes.extraData.type: custom field plugin::meta.data stores json (the type of its column posts.extra_data in the database)',
      ]);
    } finally {
      await knex.destroy();
    }
  });

  it('drops a mappedBy no owner answers, as Strapi serves nothing through it, and polymorphic relations', async () => {
    await write(
      'src/api/post/content-types/post/schema.json',
      type('post', 'posts', {
        tags: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag', mappedBy: 'post' },
        notes: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', mappedBy: 'label' },
        topics: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', mappedBy: 'posts' },
        related: { type: 'relation', relation: 'morphToMany' },
      }),
    );
    await write(
      'src/api/tag/content-types/tag/schema.json',
      type('tag', 'tags', { label: { type: 'string' }, posts: { type: 'relation', relation: 'manyToMany', target: 'api::post.post', inversedBy: 'topics' } }),
    );
    const report = await importStrapiApp(appDir, outDir);
    expect(report.dropped.map(label)).to.deep.equal([
      'content-types/post.yaml attributes.tags: mappedBy post: api::tag.tag has no attribute post; Strapi gives this attribute no link table and serves nothing through it',
      'content-types/post.yaml attributes.notes: mappedBy label: api::tag.tag.label does not name it back with inversedBy; Strapi gives this attribute no link table and serves nothing through it',
      'content-types/post.yaml attributes.related: morphToMany relations are not served by this package',
    ]);
    const registry = await loadSchema(outDir);
    expect([...registry.models.get('api::post.post')!.attributes.keys()]).to.include('topics').and.not.include('tags');
  });

  it("imports the content types of the app's plugins and extensions", async () => {
    await write('src/api/post/content-types/post/schema.json', type('post', 'posts', { menu: { type: 'relation', relation: 'manyToOne', target: 'plugin::navigation.menu' } }));
    await write('src/extensions/navigation/content-types/menu/schema.json', type('menu', 'menus', { title: { type: 'string' } }, { collectionName: 'navigation_menus' }));
    await write('src/plugins/forms/package.json', { name: 'forms', strapi: { name: 'forms', kind: 'plugin' } });
    await write('src/plugins/forms/server/content-types/submission/schema.json', type('submission', 'submissions', { email: { type: 'email' } }));
    await write('src/extensions/upload/content-types/file/schema.json', type('file', 'files', { name: { type: 'string' } }));
    const report = await importStrapiApp(appDir, outDir);
    expect(report.written.map((entry) => `${entry.file} < ${entry.source}`)).to.deep.equal([
      'content-types/post.yaml < src/api/post/content-types/post/schema.json',
      'content-types/forms-submission.yaml < src/plugins/forms/server/content-types/submission/schema.json',
      'content-types/navigation-menu.yaml < src/extensions/navigation/content-types/menu/schema.json',
    ]);
    const registry = await loadSchema(outDir);
    expect(registry.models.get('plugin::navigation.menu')?.tableName).to.equal('navigation_menus');
    expect(registry.models.has('plugin::forms.submission')).to.equal(true);
  });

  it("reads a local plugin's content types written as modules exporting a plain object literal", async () => {
    await write('src/plugins/shop/package.json', { name: 'shop', strapi: { name: 'shop', kind: 'plugin' } });
    // schema.js, as hand-written plugins have it: single quotes, comments, trailing commas.
    await write(
      'src/plugins/shop/server/content-types/product/schema.js',
      `'use strict';\n// The product.\nmodule.exports = {\n  kind: 'collectionType',\n  collectionName: 'shop_products',\n  info: { singularName: 'product', pluralName: 'products', displayName: "Product's" },\n  options: { draftAndPublish: false, },\n  /* every field */\n  attributes: {\n    name: { type: 'string', required: true, maxLength: 80 },\n    price: { type: 'decimal', min: -1.5 },\n    tags: { type: 'relation', relation: 'manyToMany', target: 'plugin::shop.tag', inversedBy: 'products', },\n  },\n};\n`,
    );
    // A binding whose name holds `$`.
    await write('src/plugins/shop/server/content-types/product/index.js', `'use strict';\nconst $product = require('./schema');\nmodule.exports = { schema: $product };\n`);
    // index.ts importing a TypeScript schema.ts that exports it `as const`.
    await write('src/plugins/shop/server/content-types/tag/index.ts', `import schema from "./schema";\n\nexport default {\n  schema,\n};\n`);
    await write(
      'src/plugins/shop/server/content-types/tag/schema.ts',
      `export default {\n  "kind": "collectionType",\n  "collectionName": "shop_tags",\n  "info": { "singularName": "tag", "pluralName": "tags", "displayName": "Tag" },\n  "pluginOptions": { "i18n": { "localized": true } },\n  attributes: {\n    label: { type: "string", pluginOptions: { i18n: { localized: true } } },\n    products: { type: "relation", relation: "manyToMany", target: "plugin::shop.product", mappedBy: "tags" },\n  },\n} as const;\n`,
    );
    // index.js holding the schema inline, under `schema`.
    await write(
      'src/plugins/shop/server/content-types/note/index.js',
      `module.exports = {\n  schema: { collectionName: 'shop_notes', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, attributes: { body: { type: 'text', default: \`a\\nb\` } } },\n};\n`,
    );
    const report = await importStrapiApp(appDir, outDir);
    expect(report.problems).to.deep.equal([]);
    expect(report.written.map((entry) => `${entry.file} < ${entry.source}`)).to.deep.equal([
      'content-types/shop-note.yaml < src/plugins/shop/server/content-types/note/index.js',
      'content-types/shop-product.yaml < src/plugins/shop/server/content-types/product/index.js',
      'content-types/shop-tag.yaml < src/plugins/shop/server/content-types/tag/index.ts',
    ]);
    const registry = await loadSchema(outDir);
    expect(registry.models.get('plugin::shop.product')?.tableName).to.equal('shop_products');
    expect(registry.models.get('plugin::shop.product')?.displayName).to.equal("Product's");
    expect(registry.models.get('plugin::shop.tag')?.attributes.get('products')).to.deep.include({ relation: 'manyToMany', target: 'plugin::shop.product' });
    expect(registry.models.get('plugin::shop.note')?.attributes.get('body')).to.deep.include({ default: 'a\nb' });
  });

  it('refuses, naming the file, a content type module whose export is not a plain object literal', async () => {
    await write('src/plugins/shop/server/content-types/product/schema.js', `const base = require('../base');\nmodule.exports = { ...base, attributes: buildAttributes() };\n`);
    let failure: unknown;
    await importStrapiApp(appDir, outDir).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.match(/src\/plugins\/shop\/server\/content-types\/product\/schema\.js: line 2: not a plain object literal; .* write its schema\.json/);
  });

  it('reads registrations written as one object or a list, with any quotes', () => {
    const text = `strapi.customFields.register([{ name: "a", plugin: 'p', type: \`string\` }, { 'name': 'b', "type": "json" }]); strapi.customFields.register({ name: 'c', type: 'html' });`;
    expect(registrationsIn(text)).to.deep.equal([
      { name: 'a', plugin: 'p', type: 'string' },
      { name: 'b', plugin: null, type: 'json' },
    ]);
  });

  it('the command exits 1 with the error for an unresolved field, 0 once the option says its type', async () => {
    await write('src/api/post/content-types/post/schema.json', type('post', 'posts', { body: editorField }));
    const cli = (...args: string[]) => spawnSync(process.execPath, [join(repoRoot, 'dist', 'plugin', 'cli.js'), 'import-strapi', appDir, '--out', outDir, ...args], { encoding: 'utf8' });
    const refused = cli();
    expect(refused.status).to.equal(1);
    expect(refused.stdout).to.match(/--custom-field plugin::ckeditor\.CKEditor=<type>/);
    const imported = cli('--custom-field', 'plugin::ckeditor.CKEditor=richtext');
    expect(imported.status, imported.stdout + imported.stderr).to.equal(0);
    expect(imported.stdout).to.match(/^changed .*post\.yaml attributes\.body\.type = "richtext": custom field plugin::ckeditor\.CKEditor stores richtext \(as --custom-field says\)$/m);
  });
});
