/**
 * The media library's routes in the OpenAPI document: exactly those the role's actions on `file`
 * allow, none with `upload: false`; the document stays valid OpenAPI 3.1, and real answers of the
 * routes (an upload, a replacement, the list, one file, a deletion) validate against `MediaFile`
 * with ajv, unknown properties refused. The generated TypeScript types describe the same answers.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { grantsFor, parsePermissions } from '../../plugin/access/permissions.js';
import { generateOpenApi } from '../../plugin/openapi/document.js';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { testFile, uploadApi, type UploadApi } from '../uploads/support/upload-api.js';

type Document = { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

const ROLES = `roles:
  lister: { file: [find] }
  uploader: { file: [upload, findOne] }
  curator: { file: [find, findOne, upload, destroy] }
  nobody: {}
`;

describe('OpenAPI document: the upload routes', () => {
  let registry: Registry;
  before(async () => (registry = await loadSchema(repoRoot)));
  const documentFor = (role: string, upload?: boolean) => generateOpenApi(registry, grantsFor(parsePermissions(ROLES, 'permissions.yaml', registry), role), upload === undefined ? {} : { upload }) as Document;
  const operations = (document: Document) => Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)).sort();

  it('lists exactly the routes the role\'s actions on file allow', () => {
    expect(operations(documentFor('lister'))).to.deep.equal(['get /api/upload/files']);
    expect(operations(documentFor('uploader'))).to.deep.equal(['get /api/upload/files/{id}', 'post /api/upload']);
    expect(operations(documentFor('curator'))).to.deep.equal(['delete /api/upload/files/{id}', 'get /api/upload/files', 'get /api/upload/files/{id}', 'post /api/upload']);
    expect(operations(documentFor('nobody'))).to.deep.equal([]);
    expect(documentFor('nobody').components.schemas).not.to.have.property('MediaFile');
    expect(operations(documentFor('curator', false))).to.deep.equal([]);
  });

  it('is valid OpenAPI 3.1, with no reference left dangling', async () => {
    for (const role of ['lister', 'uploader', 'curator']) {
      const document = documentFor(role);
      const result = await new Validator().validate(document as unknown as Parameters<Validator['validate']>[0]);
      expect(result.errors ?? [], `${role}: ${JSON.stringify(result.errors)}`).to.deep.equal([]);
      const dangling = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]).filter((name) => !(name in document.components.schemas));
      expect(dangling, role).to.deep.equal([]);
    }
  });

  it('takes the upload as multipart/form-data', () => {
    const post = documentFor('curator').paths['/api/upload']!.post as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(post.requestBody.content)).to.deep.equal(['multipart/form-data']);
  });

  for (const kind of testDatabaseKinds()) {
    describe(`real answers (${kind.name})`, function () {
      this.timeout(60_000);
      let api: UploadApi;
      before(async () => (api = await uploadApi(kind.client)));
      after(async () => api?.close());

      it('validate against MediaFile, unknown properties refused', async () => {
        const ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats.default(ajv);
        ajv.addSchema({ $id: 'openapi', components: documentFor('curator').components });
        const file = ajv.getSchema('openapi#/components/schemas/MediaFile')!;
        const check = (label: string, value: unknown) => expect(file(value), `${label}: ${JSON.stringify(file.errors)}`).to.equal(true);
        const uploaded = await api.as('editor', api.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'photo.jpg').attach('files', testFile('notes.txt'), 'notes.txt');
        expect(uploaded.status).to.equal(200);
        for (const item of uploaded.body) check('upload', item);
        const id = uploaded.body[0].id as number;
        check('replace', (await api.as('editor', api.request.post(`/api/upload?id=${id}`)).attach('files', testFile('second.jpg'), 'second.jpg')).body);
        for (const item of (await api.as('editor', api.request.get('/api/upload/files?fields[0]=name&fields[1]=url'))).body) check('list with fields', item);
        check('findOne', (await api.as('editor', api.request.get(`/api/upload/files/${id}`))).body);
        check('delete', (await api.as('editor', api.request.delete(`/api/upload/files/${id}`))).body);
        expect(file({ id: 1, name: 'x', colour: 'red' }), 'an unknown property').to.equal(false);
      });
    });
  }
});
