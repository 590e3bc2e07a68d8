/**
 * `api.media.upload(stream, info)` for host code: the route's path (limits, sniffing, formats,
 * attachment, one transaction), answered as the route answers a file; `api.media.remove(id)` as the
 * route deletes one. On SQLite and PostgreSQL.
 */
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { receivingFolders, testFile, uploadApi, type UploadApi } from './support/upload-api.js';

for (const kind of testDatabaseKinds()) {
  describe(`api.media.upload (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    before(async () => (api = await uploadApi(kind.client, { maxFileBytes: 400_000 })));
    after(async () => api?.close());

    it('stores a stream as the route does and answers the file as GET /api/upload/files/:id does', async function () {
      const file = await api.api.media.upload(Readable.from([testFile('photo.jpg')]), { filename: 'Harbour at dawn.jpg', mimeType: 'image/jpeg', alternativeText: 'The harbour' });
      const read = await api.as('editor', api.request.get(`/api/upload/files/${file.id as number}`));
      expect(read.status).to.equal(200);
      expect(file).to.deep.equal(read.body);
      expect(file).to.include({ name: 'Harbour at dawn.jpg', alternativeText: 'The harbour', ext: '.jpg', mime: 'image/jpeg', provider: 'local' });
      expect(Object.keys(file.formats as object).sort()).to.deep.equal(['large', 'medium', 'small', 'thumbnail']);
      expect(api.objects()).to.include(`${file.hash as string}.jpg`);
    });

    it('takes a Buffer, sniffs the type from the content, and attaches to an entry', async function () {
      const file = await api.api.media.upload(testFile('icon.png'), { filename: 'logo.png', mimeType: 'text/plain', ref: 'api::article.article', refId: 2, field: 'headerImage' });
      expect(file.mime).to.equal('image/png');
      const entry = await api.as('editor', api.request.get('/api/articles/2')).query({ 'populate[headerImage][fields][0]': 'name' });
      expect(entry.body.data.attributes.headerImage.data).to.deep.equal({ id: file.id, attributes: { name: 'logo.png' } });
    });

    it('refuses, storing nothing: a file over maxFileBytes, a bad name, an unknown ref, an empty file', async function () {
      const [files, objects, folders] = [await api.fileCount(), api.objects(), receivingFolders()];
      const refusals: [Promise<unknown>, RegExp][] = [
        [api.api.media.upload(Readable.from([Buffer.alloc(450_000, 1)]), { filename: 'big.bin' }), /FileTooBig/],
        [api.api.media.upload(testFile('notes.txt'), { filename: 'bad<name>.txt' }), /name/i],
        [api.api.media.upload(testFile('notes.txt'), { filename: 'a.txt', ref: 'api::nope.nope', refId: 1, field: 'cover' }), /Invalid ref/],
        [api.api.media.upload(Buffer.alloc(0), { filename: 'empty.txt' }), /empty/],
        [api.api.media.upload(testFile('notes.txt'), { filename: '' }), /filename/],
      ];
      for (const [upload, message] of refusals) {
        const error = await upload.then(() => null, (failure: unknown) => failure as Error);
        expect(error, String(message)).to.be.instanceOf(Error);
        expect(error!.message).to.match(message);
      }
      expect(await api.fileCount()).to.equal(files);
      expect(api.objects()).to.deep.equal(objects);
      expect(receivingFolders()).to.deep.equal(folders);
    });

    it('removes a file as DELETE /api/upload/files/:id does: its row, its links, its objects', async function () {
      const file = await api.api.media.upload(testFile('photo.jpg'), { filename: 'gone.jpg', ref: 'api::article.article', refId: 3, field: 'headerImage' });
      const objects = api.objects().filter((name) => name.includes(file.hash as string));
      expect(objects.length).to.be.greaterThan(1);
      await api.api.media.remove(file.id as number);
      expect((await api.as('editor', api.request.get(`/api/upload/files/${file.id as number}`))).status).to.equal(404);
      expect(api.objects().filter((name) => name.includes(file.hash as string))).to.deep.equal([]);
      const links = await api.api.knex('files_related_morphs').where({ file_id: file.id }).count({ n: '*' });
      expect(Number((links as { n: number | string }[])[0].n)).to.equal(0);
      const missing = await api.api.media.remove(file.id as number).then(() => null, (failure: unknown) => failure as Error);
      expect(missing?.name).to.equal('NotFoundError');
    });

    it('passes on the failure of the host\'s own stream, storing nothing', async function () {
      const files = await api.fileCount();
      const failing = new Readable({ read() { this.destroy(new Error('the source broke')); } });
      const error = await api.api.media.upload(failing, { filename: 'broken.txt' }).then(() => null, (failure: unknown) => failure as Error);
      expect(error?.message).to.equal('the source broke');
      expect(await api.fileCount()).to.equal(files);
    });
  });
}
