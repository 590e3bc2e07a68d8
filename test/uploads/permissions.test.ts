/**
 * The upload routes' permissions: `upload`, `find`, `findOne` and `destroy` on `file` in
 * permissions.yaml, valid on `file` only; attaching to an entry also needs `update` on its type.
 */
import { expect } from 'chai';
import { parsePermissions } from '../../plugin/access/permissions.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { testDatabaseKinds } from '../support/databases.js';
import { loadTestRegistry as testRegistry } from '../support/test-registry.js';
import { testFile, uploadApi, type UploadApi } from './support/upload-api.js';

describe('upload permissions in permissions.yaml', function () {
  it('takes upload and destroy on file', async function () {
    const registry = await testRegistry();
    const permissions = parsePermissions('roles:\n  editor:\n    file: [find, findOne, upload, destroy]\n', 'permissions.yaml', registry);
    expect([...permissions.roles.get('editor')!.get('plugin::upload.file')!.keys()]).to.deep.equal(['find', 'findOne', 'upload', 'destroy']);
  });

  it('refuses upload and destroy on another type, with file, line and column', async function () {
    const registry = await testRegistry();
    try {
      parsePermissions('roles:\n  editor:\n    article: [find, upload]\n    category: [destroy]\n', 'permissions.yaml', registry);
      expect.fail('parsed');
    } catch (error) {
      expect(error).to.be.instanceOf(SchemaError);
      expect((error as SchemaError).message).to.include('3:21 roles.editor.article.1: "upload" is an action on file (the media library) only').and.include('4:16 roles.editor.category.0: "destroy" is an action on file (the media library) only');
    }
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`upload routes by role (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    before(async () => (api = await uploadApi(kind.client)));
    after(async () => api?.close());

    const upload = (token: 'editor' | 'uploader' | 'reader' | null) => api.as(token, api.request.post('/api/upload')).attach('files', testFile('notes.txt'), 'notes.txt');

    it('needs upload on file to upload, replace or update a file, before the body is read', async function () {
      const rows = await api.fileCount();
      for (const token of [null, 'reader'] as const) {
        expect((await upload(token)).status, String(token)).to.equal(403);
        expect((await api.as(token, api.request.post('/api/upload?id=1')).field('fileInfo', '{"caption":"x"}')).status, String(token)).to.equal(403);
      }
      expect(await api.fileCount()).to.equal(rows);
      expect((await upload('uploader')).status).to.equal(200);
    });

    it('needs find to list files and findOne to read one', async function () {
      expect((await api.request.get('/api/upload/files')).status).to.equal(200);
      expect((await api.request.get('/api/upload/files/1')).status).to.equal(403);
      expect((await api.as('reader', api.request.get('/api/upload/files/1'))).status).to.equal(200);
    });

    it('needs destroy to delete a file', async function () {
      const [file] = (await upload('editor')).body as { id: number }[];
      expect((await api.as('uploader', api.request.delete(`/api/upload/files/${file.id}`))).status).to.equal(403);
      expect((await api.as('editor', api.request.delete(`/api/upload/files/${file.id}`))).status).to.equal(200);
    });

    it('needs update on the entry type to attach a new file to an entry', async function () {
      const rows = await api.fileCount();
      const objects = api.objects();
      const response = await upload('uploader').field('ref', 'api::article.article').field('refId', '1').field('field', 'gallery');
      expect(response.status).to.equal(403);
      expect(await api.fileCount()).to.equal(rows);
      expect(api.objects()).to.deep.equal(objects);
      expect((await upload('editor').field('ref', 'api::article.article').field('refId', '1').field('field', 'gallery')).status).to.equal(200);
    });
  });
}
