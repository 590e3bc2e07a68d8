/**
 * The OpenAPI document per role: valid OpenAPI 3.1 (checked by a maintained validator), listing
 * exactly the routes the role may call, never naming hidden attributes or types the role may not
 * read, and describing real responses of the fixture exactly (validated with ajv against the
 * document's own schemas, unknown properties refused). Served at /api/openapi.json when enabled.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { join } from 'node:path';
import { grantsFor, loadPermissions, parsePermissions, type Permissions } from '../../plugin/access/permissions.js';
import { generateOpenApi } from '../../plugin/openapi/document.js';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { repoRoot, serveFixture } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

type Document = { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };

const EVERYTHING = `roles:
  reader:
${['article', 'category', 'restaurant', 'user', 'role', 'file'].map((type) => `    ${type}: [find, findOne, preview]`).join('\n')}
`;

async function validOpenApi(document: unknown): Promise<void> {
  const result = await new Validator().validate(document as Parameters<Validator['validate']>[0]);
  expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
  expect(result.valid).to.equal(true);
  const schemas = (document as Document).components.schemas;
  const dangling = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]).filter((name) => !(name in schemas));
  expect(dangling, 'references without a schema').to.deep.equal([]);
}

describe('OpenAPI document', () => {
  let registry: Registry;
  let permissions: Permissions;
  before(async () => {
    registry = await loadSchema(repoRoot);
    permissions = (await loadPermissions(join(repoRoot, 'permissions.yaml'), 'permissions.yaml', registry))!;
  });

  it('is valid OpenAPI 3.1 for the public role, a role that may read everything, and a role that may read nothing', async () => {
    const reader = parsePermissions(EVERYTHING, 'permissions.yaml', registry);
    await validOpenApi(generateOpenApi(registry, grantsFor(permissions, 'public')));
    await validOpenApi(generateOpenApi(registry, grantsFor(reader, 'reader')));
    await validOpenApi(generateOpenApi(registry, grantsFor(permissions, 'nobody')));
  });

  it('lists exactly the routes the role may call', () => {
    const document = generateOpenApi(registry, grantsFor(permissions, 'public')) as Document;
    // The fixture's public role: find/findOne on articles, categories, users; findOne only on restaurants; find on files.
    expect(Object.keys(document.paths).sort()).to.deep.equal(['/api/articles', '/api/articles/{id}', '/api/categories', '/api/categories/{id}', '/api/restaurants/{id}', '/api/upload/files', '/api/users', '/api/users/{id}']);
    expect(Object.keys((generateOpenApi(registry, grantsFor(permissions, 'nobody')) as Document).paths)).to.deep.equal([]);
  });

  it('never names hidden attributes, nor relations to types the role may not find', () => {
    const text = JSON.stringify(generateOpenApi(registry, grantsFor(permissions, 'public')));
    for (const hidden of ['internalNotes', 'accessCode', 'secretRecipe', 'resetPasswordToken', 'relatedRestaurants', 'createdBy']) expect(text).not.to.include(`"${hidden}"`);
    const document = generateOpenApi(registry, grantsFor(permissions, 'public')) as Document;
    expect(document.components.schemas).not.to.have.property('Role');
    const reader = generateOpenApi(registry, grantsFor(parsePermissions(EVERYTHING, 'permissions.yaml', registry), 'reader')) as Document;
    expect(JSON.stringify(reader)).to.include('"relatedRestaurants"');
  });

  it('lists no write operation and no input schema for a role that may not write', () => {
    for (const grants of [grantsFor(permissions, 'public'), grantsFor(parsePermissions(EVERYTHING, 'permissions.yaml', registry), 'reader'), grantsFor(permissions, 'nobody')]) {
      const document = generateOpenApi(registry, grants) as Document;
      const methods = Object.values(document.paths).flatMap((item) => Object.keys(item as object));
      expect(methods.filter((method) => method !== 'get'), grants.role).to.deep.equal([]);
      expect(Object.keys(document.components.schemas).filter((name) => name.endsWith('Input') || name === 'ValidationError'), grants.role).to.deep.equal([]);
    }
  });

  it('offers preview only to a role that may preview', () => {
    const publicState = JSON.stringify((generateOpenApi(registry, grantsFor(permissions, 'public')) as Document).paths['/api/articles']);
    expect(publicState).to.include('"enum":["live"]');
    const reader = generateOpenApi(registry, grantsFor(parsePermissions(EVERYTHING, 'permissions.yaml', registry), 'reader')) as Document;
    expect(JSON.stringify(reader.paths['/api/articles'])).to.include('"enum":["live","preview"]');
  });

  for (const kind of testDatabaseKinds()) {
    describe(`served and matched against real responses (${kind.name})`, () => {
      let served: Awaited<ReturnType<typeof serveFixture>>;
      before(async () => {
        served = await serveFixture(kind.client, 'small', { openapi: true });
      });
      after(() => served.close());

      it('serves the document of the caller\'s role at /api/openapi.json', async () => {
        const response = await served.request.get('/api/openapi.json');
        expect(response.status).to.equal(200);
        expect(response.body).to.deep.equal(generateOpenApi(registry, grantsFor(permissions, 'public'), { maxLimit: 100 }));
      });

      it('describes every response exactly: the schemas accept real bodies and refuse altered ones', async () => {
        const document = (await served.request.get('/api/openapi.json')).body as Document;
        const ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats.default(ajv);
        ajv.addSchema({ $id: 'openapi', components: document.components });
        const cases: Array<[string, string]> = [
          ['ArticleListResponse', '/api/articles?locale=all&pagination[pageSize]=100&populate[blocks][populate]=*&populate[seo][populate]=*&populate[category][populate]=*&populate[links]=true&populate[related][populate]=*&populate[gallery]=true&populate[headerImage]=true&populate[localizations]=true&populate[author]=true'],
          ['ArticleListResponse', '/api/articles?populate[categories][count]=true&populate[links][count]=true&pagination[start]=0&pagination[limit]=5'],
          ['CategoryListResponse', '/api/categories?populate=*'],
          ['RestaurantResponse', '/api/restaurants/1?populate=*'],
          ['UserListResponse', '/api/users?populate=*'],
        ];
        for (const [schema, path] of cases) {
          const validate = ajv.getSchema(`openapi#/components/schemas/${schema}`)!;
          const response = await served.request.get(path);
          expect(response.status, path).to.equal(200);
          expect(validate(response.body), `${path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).to.equal(true);
          const altered = structuredClone(response.body) as { data: unknown };
          const first = (Array.isArray(altered.data) ? altered.data[0] : altered.data) as { attributes: Record<string, unknown> };
          first.attributes.notAnAttribute = 1;
          expect(validate(altered), `${path} with an unknown attribute`).to.equal(false);
        }
      });
    });
  }
});

/** A role that may write articles and nothing else: no relation target, no file. */
const ARTICLES_ONLY = `roles:
  writer:
    article: [create, update, delete]
`;

/** The README tour's first write. */
const TOUR_BODY = {
  title: 'Written over HTTP',
  category: 1,
  seo: { metaTitle: 'Written' },
  blocks: [
    { __component: 'shared.rich-text', body: 'Hello' },
    { __component: 'shared.quote', title: 'Quoted', category: 2 },
  ],
};

/** The write suite's whole graph: relations by id and list, components, a zone, media by id and `{ id }`. */
const GRAPH_BODY = {
  title: 'A whole graph',
  category: 3,
  categories: [2, 5],
  seo: { metaTitle: 'Graph', metaDescription: 'all of it' },
  links: [{ label: 'one', url: '/1' }, { label: 'two' }],
  blocks: [{ __component: 'shared.rich-text', body: 'text' }, { __component: 'shared.quote', title: 'q', category: 4 }, { __component: 'shared.media', file: 2 }],
  headerImage: 1,
  gallery: [{ id: 3 }, 2],
};

type Operation = { requestBody?: { required: boolean; content: Record<string, { schema: Record<string, any> }> }; responses: Record<string, any>; parameters?: { name: string }[] };
type Paths = Record<string, Record<string, Operation>>;

/** ajv over the document's components, as a client would compile them. */
function compiler(document: Document): (schema: string) => ((data: unknown) => boolean) & { errors?: unknown } {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  return (schema) => ajv.getSchema(`openapi#/components/schemas/${schema}`)!;
}

describe('OpenAPI write operations', () => {
  let registry: Registry;
  let editor: Document;
  before(async () => {
    registry = await loadSchema(repoRoot);
    const permissions = (await loadPermissions(join(repoRoot, 'permissions.yaml'), 'permissions.yaml', registry))!;
    editor = generateOpenApi(registry, grantsFor(permissions, 'editor')) as Document;
  });

  it('is valid OpenAPI 3.1 for roles that write', async () => {
    await validOpenApi(editor);
    await validOpenApi(generateOpenApi(registry, grantsFor(parsePermissions(ARTICLES_ONLY, 'permissions.yaml', registry), 'writer')));
    const singles = join(repoRoot, 'test', 'fixtures', 'apps', 'single-types');
    const singleRegistry = await loadSchema(singles);
    const singlePermissions = (await loadPermissions(join(singles, 'permissions.yaml'), 'permissions.yaml', singleRegistry))!;
    const writer = generateOpenApi(singleRegistry, grantsFor(singlePermissions, 'writer')) as Document;
    await validOpenApi(writer);
    expect(Object.keys((writer.paths as Paths)['/api/homepage']).sort()).to.deep.equal(['delete', 'get', 'put']);
    expect((writer.paths as Paths)['/api/homepage'].put.requestBody!.content['application/json'].schema.properties.data).to.deep.equal({ $ref: '#/components/schemas/HomepageUpdateInput' });
    expect(writer.components.schemas).not.to.have.property('HomepageInput');
    // A role that creates: the other locales come from POST /localizations; the GET may answer every locale.
    const creator = generateOpenApi(singleRegistry, grantsFor(singlePermissions, 'reference')) as Document;
    await validOpenApi(creator);
    const paths = creator.paths as Paths;
    expect(Object.keys(paths['/api/homepage/localizations'])).to.deep.equal(['post']);
    expect(paths['/api/homepage/localizations'].post.parameters).to.deep.equal([]);
    expect(paths['/api/homepage'].get.responses['200'].content['application/json'].schema).to.deep.equal({
      oneOf: [{ $ref: '#/components/schemas/HomepageResponse' }, { $ref: '#/components/schemas/HomepageLocalesResponse' }],
    });
    expect(paths['/api/homepage'].get.parameters!.map((parameter) => parameter.name)).to.deep.equal(['fields', 'populate', 'filters', 'sort', '_q', 'locale', 'publicationState']);
    expect(paths['/api/homepage'].delete.parameters!.map((parameter) => parameter.name)).to.deep.equal(['locale', 'publicationState']);
  });

  it('lists the write routes the role is granted, with their bodies and answers', () => {
    const paths = editor.paths as Paths;
    // The example's editor writes articles and categories; it only reads restaurants, users and roles.
    const writes = Object.entries(paths).flatMap(([path, item]) => Object.keys(item).filter((method) => method !== 'get').map((method) => `${method.toUpperCase()} ${path}`));
    expect(writes.sort()).to.deep.equal([
      'DELETE /api/articles/{id}', 'DELETE /api/categories/{id}', 'POST /api/articles', 'POST /api/articles/{id}/localizations', 'POST /api/categories',
      'PUT /api/articles/{id}', 'PUT /api/categories/{id}',
    ]);
    const create = paths['/api/articles'].post;
    expect(create.requestBody!.required).to.equal(true);
    expect(create.requestBody!.content['application/json'].schema.properties.data).to.deep.equal({ $ref: '#/components/schemas/ArticleInput' });
    expect(create.responses['200'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ArticleResponse' });
    expect(create.responses['400'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ValidationError' });
    expect(Object.keys(create.responses).sort()).to.deep.equal(['200', '400', '401', '403', '413']);
    expect(create.parameters!.map((parameter) => parameter.name)).to.deep.equal(['fields', 'populate', 'locale']);
    // The write's shaping parameters are the read's.
    const read = paths['/api/articles/{id}'].get.parameters!;
    expect(paths['/api/articles/{id}'].put.parameters!.slice(1)).to.deep.equal(read.filter((parameter) => parameter.name === 'fields' || parameter.name === 'populate'));
    expect(paths['/api/articles/{id}'].put.requestBody!.content['application/json'].schema.properties.data).to.deep.equal({ $ref: '#/components/schemas/ArticleUpdateInput' });
    expect(Object.keys(paths['/api/articles/{id}'].delete.responses).sort()).to.deep.equal(['200', '400', '401', '403', '404']);
    const localization = paths['/api/articles/{id}/localizations'].post;
    expect(localization.requestBody!.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ArticleLocalizationInput' });
    expect(localization.responses['200'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ArticleLocalization' });
    expect(paths).not.to.have.property('/api/categories/{id}/localizations', 'categories are not localized');
  });

  it('describes what may be written: required on create only, the zone\'s components, the forms of relations and media', () => {
    const schemas = editor.components.schemas as Record<string, any>;
    expect(schemas.ArticleInput.required).to.include('title');
    expect(schemas.ArticleInput.additionalProperties).to.equal(false);
    expect(schemas.ArticleInput.properties).to.include.keys('locale', 'publishedAt', 'accessCode', 'internalNotes', 'category', 'gallery', 'seo', 'blocks');
    expect(schemas.ArticleInput.properties).not.to.include.keys('id', 'createdAt', 'updatedAt', 'createdBy', 'relatedRestaurants');
    expect(schemas.ArticleUpdateInput).not.to.have.property('required');
    expect(schemas.ArticleUpdateInput.properties).not.to.have.property('locale');
    expect(schemas.ArticleInput.properties.blocks.items.oneOf).to.deep.equal(['rich-text', 'quote', 'media', 'slider'].map((name) => ({ $ref: `#/components/schemas/Shared${name === 'rich-text' ? 'RichText' : name[0].toUpperCase() + name.slice(1)}ZoneItemInput` })));
    expect(schemas.SharedQuoteZoneItemInput.properties.__component).to.deep.equal({ const: 'shared.quote' });
    expect(schemas.ArticleInput.properties.kind.enum).to.deep.equal(['news', 'review', 'tutorial', 'interview', null]);
    expect(schemas.SharedMetaSocialInput.properties.title.maxLength).to.equal(60);
    expect(schemas.UserInput).to.equal(undefined, 'the editor may not write users');
  });

  it('accepts the bodies the API takes and refuses unknown attributes (compiled with ajv)', () => {
    const validate = compiler(editor);
    const create = validate('ArticleInput');
    const update = validate('ArticleUpdateInput');
    const ok = (check: ReturnType<typeof validate>, body: unknown) => expect(check(body), `${JSON.stringify(body)}: ${JSON.stringify(check.errors)}`).to.equal(true);
    const refused = (check: ReturnType<typeof validate>, body: unknown) => expect(check(body), JSON.stringify(body)).to.equal(false);
    ok(create, TOUR_BODY);
    ok(create, GRAPH_BODY);
    ok(create, { ...TOUR_BODY, locale: 'fr', publishedAt: null, views: '12', viewsTotal: '9007199254740993', featured: 'true', publishTime: '10:30:00', scheduledAt: 1700000000000, metadata: { any: ['json'] } });
    ok(create, { title: 't', categories: { connect: [{ id: 2, position: { before: 5 } }, 7], disconnect: [{ id: 3 }] }, author: null, gallery: null, seo: null, links: [] });
    refused(create, { ...TOUR_BODY, notAnAttribute: 1 });
    refused(create, { ...TOUR_BODY, seo: { metaTitle: 'x', notAnAttribute: 1 } });
    refused(create, { category: 1 });
    refused(create, { title: null });
    refused(create, { title: 't', kind: 'rumour' });
    refused(create, { title: 't', blocks: [{ __component: 'shared.seo', metaTitle: 'x' }] });
    refused(create, { title: 't', categories: { connect: [{ id: 2, position: { middle: true } }] } });
    refused(create, { title: 't', headerImage: [1, 2] });
    refused(create, { title: 't', links: [{ url: '/no-label' }] });
    ok(create, { title: 't', links: [{ id: 4, url: '/an-existing-link-keeps-its-label' }] });
    refused(create, { title: 't', id: 3 });
    ok(update, { views: 3 });
    refused(update, { locale: 'fr' });
    refused(update, { views: 1.5 });
    const localization = validate('ArticleLocalizationInput');
    ok(localization, { locale: 'fr', title: 'Écrit' });
    refused(localization, { title: 'Écrit' });
    refused(localization, { locale: 'fr', title: 'Écrit', notAnAttribute: 1 });
  });

  it('leaves out relations to types the role may not find, and media when it may not find files', () => {
    const document = generateOpenApi(registry, grantsFor(parsePermissions(ARTICLES_ONLY, 'permissions.yaml', registry), 'writer')) as Document;
    const schemas = document.components.schemas as Record<string, any>;
    expect(schemas.ArticleInput.properties).not.to.include.keys('category', 'categories', 'author', 'headerImage', 'gallery', 'localizations');
    expect(schemas.SharedQuoteZoneItemInput.properties).not.to.have.property('category');
    expect(schemas.ArticleInput.properties).to.include.keys('title', 'seo', 'blocks');
    const validate = compiler(document)('ArticleInput');
    expect(validate({ title: 'x', seo: { metaTitle: 'y' } })).to.equal(true);
    expect(validate({ title: 'x', category: 1 })).to.equal(false);
    // A write's answer needs no read permission: the entry schemas are there, the read routes are not.
    expect(Object.keys(document.paths).sort()).to.deep.equal(['/api/articles', '/api/articles/{id}', '/api/articles/{id}/localizations']);
    expect(Object.keys((document.paths as Paths)['/api/articles'])).to.deep.equal(['post']);
    expect(schemas).to.include.keys('ArticleResponse', 'ArticleEntry', 'Article');
  });
});
