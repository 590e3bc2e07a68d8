/**
 * Entries written with files (a `data` part and `files.<attribute>` parts): the files' rows are
 * written in the entry's transaction, so a refused file or a refused entry writes nothing at all —
 * no entry, no file row, no stored object. On SQLite and PostgreSQL.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { receivingFolders, testFile, uploadApi, type UploadApi } from './support/upload-api.js';

for (const kind of testDatabaseKinds()) {
  describe(`entries written with files (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    before(async () => (api = await uploadApi(kind.client)));
    after(async () => api?.close());

    const articleCount = async () => Number(((await api.api.knex('articles').count({ count: '*' }).first()) as { count: number | string }).count);
    const create = () => api.as('editor', api.request.post('/api/articles'));

    async function writesNothing(send: () => PromiseLike<{ status: number; body: unknown }>, status: number, message: RegExp): Promise<void> {
      const [articles, files, objects, folders] = [await articleCount(), await api.fileCount(), api.objects(), receivingFolders()];
      const response = await send();
      expect(response.status, JSON.stringify(response.body)).to.equal(status);
      expect((response.body as { error: { message: string } }).error.message).to.match(message);
      expect(await articleCount(), 'entries').to.equal(articles);
      expect(await api.fileCount(), 'file rows').to.equal(files);
      expect(api.objects(), 'stored objects').to.deep.equal(objects);
      expect(receivingFolders(), 'temporary folders').to.deep.equal(folders);
    }

    it('creates the entry and attaches its files, and answers it read again', async function () {
      const response = await create()
        .field('data', JSON.stringify({ title: 'Entry with a photo' }))
        .attach('files.gallery', testFile('photo.jpg'), 'entry-photo.jpg')
        .query({ 'populate[gallery][fields][0]': 'name' });
      expect(response.status).to.equal(200);
      expect(response.body.data.attributes.gallery.data.map((file: { attributes: { name: string } }) => file.attributes.name)).to.deep.equal(['entry-photo.jpg']);
    });

    it('writes nothing for an image that does not decode', async function () {
      const broken = Buffer.concat([testFile('photo.jpg').subarray(0, 1500), Buffer.alloc(1500)]);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x' })).attach('files.gallery', broken, { filename: 'broken.jpg', contentType: 'image/jpeg' }), 400, /not a valid image/);
    });

    it('writes nothing for files of an attribute that is not media, or of a component', async function () {
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x' })).attach('files.title', testFile('icon.png'), 'x.png'), 400, /no media attribute/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x' })).attach('files.seo.metaImage', testFile('icon.png'), 'x.png'), 400, /no media attribute/);
    });

    it('writes nothing when the entry is refused', async function () {
      await writesNothing(() => create().field('data', JSON.stringify({ description: 'no title' })).attach('files.gallery', testFile('icon.png'), 'x.png'), 400, /title/);
    });

    it('writes nothing when the entry fails inside its transaction (a related entry missing): files and entry are one write', async function () {
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x', category: 99999 })).attach('files.gallery', testFile('photo.jpg'), 'x.jpg'), 400, /99999|category/);
    });

    it('writes nothing for a file the attribute does not allow', async function () {
      await writesNothing(
        () => api.as('editor', api.request.put('/api/categories/1')).field('data', JSON.stringify({ name: 'Renamed' })).attach('files.icon', testFile('report.pdf'), 'report.pdf'),
        400,
        /icon takes images/,
      );
    });

    it('refuses files on a localization route', async function () {
      await writesNothing(() => api.as('editor', api.request.post('/api/articles/1/localizations')).field('data', JSON.stringify({ locale: 'de' })).attach('files.gallery', testFile('icon.png'), 'x.png'), 400, /collection type/);
    });

    it('still needs the write permission, before the body is read', async function () {
      await writesNothing(() => api.as('uploader', api.request.post('/api/articles')).field('data', JSON.stringify({ title: 'x' })).attach('files.gallery', testFile('icon.png'), 'x.png'), 403, /Forbidden/);
    });
  });
}
