/**
 * The write operations' answers as the document describes them, checked against real answers of
 * the write API (a private copy of the fixture): created, changed, localized and deleted entries
 * match the read's envelope schemas, a new localization Strapi's flat entity, and a refused body
 * the ValidationError schema; the request bodies sent are the ones the document accepts.
 */
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { grantsFor, parsePermissions } from '../../plugin/access/permissions.js';
import { generateOpenApi } from '../../plugin/openapi/document.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { WRITE_PERMISSIONS, writeApi, type WriteApi } from '../writes/support/write-api.js';

type Document = { components: Record<string, unknown> };

for (const kind of testDatabaseKinds()) {
  describe(`OpenAPI write answers matched against real responses (${kind.name})`, () => {
    let api: WriteApi;
    let schema: (name: string) => ((data: unknown) => boolean) & { errors?: unknown };
    before(async () => {
      api = await writeApi(kind.client);
      const registry = await loadSchema(repoRoot);
      const document = generateOpenApi(registry, grantsFor(parsePermissions(WRITE_PERMISSIONS, 'permissions.yaml', registry), 'editor')) as Document;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addSchema({ $id: 'openapi', components: document.components });
      schema = (name) => ajv.getSchema(`openapi#/components/schemas/${name}`)!;
    });
    after(async () => api?.close());

    /** Checks `body` against the named schema, with ajv's first errors in the message. */
    const matches = (name: string, body: unknown, label: string) => {
      const validate = schema(name);
      expect(validate(body), `${label}: ${JSON.stringify((validate.errors as unknown[] | undefined)?.slice(0, 3))}`).to.equal(true);
    };

    it('create, update, localization and delete answer as described; a refused body is a ValidationError', async () => {
      const editor = api.as('editor');
      const data = { title: 'Described', category: 1, seo: { metaTitle: 'Described' }, links: [{ label: 'one' }], blocks: [{ __component: 'shared.quote', title: 'Q', category: 2 }], gallery: [1] };
      matches('ArticleInput', data, 'the request body');
      const created = await editor.post('/api/articles?populate[category][fields][0]=name&populate[seo]=true&populate[blocks][populate]=*&populate[gallery]=true', { data });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      matches('ArticleResponse', created.body, 'POST /api/articles');
      const id = created.body.data.id as number;

      const changed = await editor.put(`/api/articles/${id}?fields[0]=title&populate[links]=true`, { data: { title: 'Changed', links: [] } });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      matches('ArticleResponse', changed.body, 'PUT /api/articles/:id');

      const localized = await editor.post(`/api/articles/${id}/localizations`, { locale: 'fr', title: 'Décrit' });
      expect(localized.status, JSON.stringify(localized.body)).to.equal(200);
      matches('ArticleLocalizationInput', { locale: 'fr', title: 'Décrit' }, 'the localization body');
      matches('ArticleLocalization', localized.body, 'POST /api/articles/:id/localizations');
      expect(localized.body.localizations).to.have.length(1);

      const refused = await editor.post('/api/articles', { data: { links: [{ url: '/no-label' }] } });
      expect(refused.status).to.equal(400);
      matches('ValidationError', refused.body, 'a refused body');
      expect(refused.body.error.details.errors).to.have.length.greaterThan(1);
      const badQuery = await editor.post('/api/articles?populate[nope]=true', { data: { title: 'x' } });
      expect(badQuery.status).to.equal(400);
      matches('ValidationError', badQuery.body, 'a malformed query');

      const deleted = await editor.delete(`/api/articles/${id}?populate=*`);
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
      matches('ArticleResponse', deleted.body, 'DELETE /api/articles/:id');
      const altered = structuredClone(deleted.body) as { data: { attributes: Record<string, unknown> } };
      altered.data.attributes.notAnAttribute = 1;
      expect(schema('ArticleResponse')(altered)).to.equal(false);
    });
  });
}
