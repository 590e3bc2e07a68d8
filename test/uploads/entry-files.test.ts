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

    it('writes nothing for files of an attribute that is not media', async function () {
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x' })).attach('files.title', testFile('icon.png'), 'x.png'), 400, /no media attribute/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x', seo: { metaTitle: 'm' } })).attach('files.seo.metaTitle', testFile('icon.png'), 'x.png'), 400, /no media attribute metaTitle in shared.seo/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x' })).attach('files.title.image', testFile('icon.png'), 'x.png'), 400, /title is not a component/);
    });

    const mediaOf = (body: unknown, ...path: (string | number)[]) => {
      let value = (body as { data: { attributes: unknown } }).data.attributes as unknown;
      for (const key of path) value = (value as Record<string | number, unknown>)[key];
      return value as { data: { attributes: { name: string } } | { attributes: { name: string } }[] | null };
    };

    it('attaches files to the media of a component (files.seo.metaImage), linked to the component row', async function () {
      const response = await create()
        .field('data', JSON.stringify({ title: 'Meta image', seo: { metaTitle: 'Meta' } }))
        .attach('files.seo.metaImage', testFile('icon.png'), 'meta.png')
        .query({ 'populate[seo][populate][metaImage][fields][0]': 'name' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(mediaOf(response.body, 'seo', 'metaImage').data).to.deep.include({ attributes: { name: 'meta.png' } });
      const seoId = (response.body.data.attributes.seo as { id: number }).id;
      const links = await api.api.knex('files_related_morphs').where({ related_type: 'shared.seo', related_id: seoId, field: 'metaImage' }).select('order');
      expect(links.map((row: { order: unknown }) => Number(row.order))).to.deep.equal([1]);
    });

    it('attaches files to an item of a repeatable component inside a component (files.seo.metaSocial.1.image)', async function () {
      const social = [{ socialNetwork: 'Facebook', title: 'First' }, { socialNetwork: 'Twitter', title: 'Second' }];
      const response = await create()
        .field('data', JSON.stringify({ title: 'Social', seo: { metaTitle: 'Meta', metaSocial: social } }))
        .attach('files.seo.metaSocial.1.image', testFile('icon.png'), 'social.png')
        .query({ 'populate[seo][populate][metaSocial][populate][image][fields][0]': 'name' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const items = mediaOf(response.body, 'seo', 'metaSocial') as unknown as { title: string; image: { data: unknown } }[];
      expect(items.map((item) => [item.title, item.image.data === null ? null : 'file'])).to.deep.equal([['First', null], ['Second', 'file']]);
    });

    it('attaches files to an item of a dynamic zone (files.blocks.1.files), the item\'s type read from the write', async function () {
      const blocks = [{ __component: 'shared.rich-text', body: 'Text' }, { __component: 'shared.slider', title: 'Slides' }];
      const response = await create()
        .field('data', JSON.stringify({ title: 'Zone', blocks }))
        .attach('files.blocks.1.files', testFile('icon.png'), 'slide-1.png')
        .attach('files.blocks.1.files', testFile('diagram.png'), 'slide-2.png')
        .query({ 'populate[blocks][populate]': '*' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const slider = (response.body.data.attributes.blocks as { __component: string; files?: { data: { attributes: { name: string } }[] } }[])[1];
      expect(slider.__component).to.equal('shared.slider');
      expect(slider.files!.data.map((file) => file.attributes.name).sort()).to.deep.equal(['slide-1.png', 'slide-2.png']);
    });

    it('writes nothing for a path to no item, or into an item whose type has no such media, or without an index', async function () {
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x', seo: { metaTitle: 'm', metaSocial: [] } })).attach('files.seo.metaSocial.0.image', testFile('icon.png'), 'x.png'), 400, /no metaSocial item 0/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x' })).attach('files.seo.metaImage', testFile('icon.png'), 'x.png'), 400, /no seo item 0/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x', blocks: [{ __component: 'shared.rich-text', body: 'b' }] })).attach('files.blocks.0.files', testFile('icon.png'), 'x.png'), 400, /shared.rich-text has no media attribute files/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x', seo: { metaTitle: 'm', metaSocial: [{ socialNetwork: 'Facebook', title: 't' }] } })).attach('files.seo.metaSocial.image', testFile('icon.png'), 'x.png'), 400, /repeatable component: name the item/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x' })).attach('files.blocks.files', testFile('icon.png'), 'x.png'), 400, /dynamic zone: name the item/);
    });

    it('writes nothing for a file the media of a component does not allow, known before or after the write', async function () {
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x', seo: { metaTitle: 'm' } })).attach('files.seo.metaImage', testFile('report.pdf'), 'x.pdf'), 400, /metaImage takes images/);
      await writesNothing(() => create().field('data', JSON.stringify({ title: 'x', blocks: [{ __component: 'shared.slider', title: 's' }] })).attach('files.blocks.0.files', testFile('report.pdf'), 'x.pdf'), 400, /files takes images/);
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

    it('creates a localization with files: the data part is the localization\'s body', async function () {
      const response = await api.as('editor', api.request.post('/api/articles/2/localizations')).field('data', JSON.stringify({ locale: 'fr', title: 'Avec une image' })).attach('files.gallery', testFile('icon.png'), 'localized.png');
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.include({ locale: 'fr', title: 'Avec une image' });
      const read = await api.as('editor', api.request.get(`/api/articles/${response.body.id}`)).query({ locale: 'fr', publicationState: 'preview', 'populate[gallery][fields][0]': 'name' });
      expect(read.body.data.attributes.gallery.data.map((file: { attributes: { name: string } }) => file.attributes.name)).to.deep.equal(['localized.png']);
    });

    it('writes nothing when a localization with files is refused (its locale already used)', async function () {
      await writesNothing(() => api.as('editor', api.request.post('/api/articles/1/localizations')).field('data', JSON.stringify({ locale: 'fr', title: 'x' })).attach('files.gallery', testFile('icon.png'), 'x.png'), 400, /locale is already used/);
    });

    it('still needs the write permission, before the body is read', async function () {
      await writesNothing(() => api.as('uploader', api.request.post('/api/articles')).field('data', JSON.stringify({ title: 'x' })).attach('files.gallery', testFile('icon.png'), 'x.png'), 403, /Forbidden/);
    });
  });
}
