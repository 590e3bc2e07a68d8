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
    permissions = await loadPermissions(join(repoRoot, 'permissions.yaml'), 'permissions.yaml', registry);
  });

  it('is valid OpenAPI 3.1 for the public role, a role that may read everything, and a role that may read nothing', async () => {
    const reader = parsePermissions(EVERYTHING, 'permissions.yaml', registry);
    await validOpenApi(generateOpenApi(registry, grantsFor(permissions, 'public')));
    await validOpenApi(generateOpenApi(registry, grantsFor(reader, 'reader')));
    await validOpenApi(generateOpenApi(registry, grantsFor(permissions, 'nobody')));
  });

  it('lists exactly the routes the role may call', () => {
    const document = generateOpenApi(registry, grantsFor(permissions, 'public')) as Document;
    // The fixture's public role: find/findOne on articles, categories, users; findOne only on restaurants.
    expect(Object.keys(document.paths).sort()).to.deep.equal(['/api/articles', '/api/articles/{id}', '/api/categories', '/api/categories/{id}', '/api/restaurants/{id}', '/api/users', '/api/users/{id}']);
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
