/**
 * A single type written with files (`PUT /api/<singular>` with a `data` part and `files.<path>`
 * parts), as Strapi v4 takes them: the first PUT creates the entry with its files, a later one
 * updates it; a localization of it (`POST /api/<singular>/localizations`) takes files too. The
 * example has no single type: the suite adds one with media, in a component too.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { testFile, uploadApi, UPLOAD_PERMISSIONS, type UploadApi } from './support/upload-api.js';

const HOMEPAGE = `
kind: singleType
collectionName: homepages
info: { singularName: homepage, pluralName: homepages, displayName: Homepage }
options: { draftAndPublish: false }
pluginOptions: { i18n: { localized: true } }
attributes:
  headline: { type: string, pluginOptions: { i18n: { localized: true } } }
  hero: { type: media, multiple: false, allowedTypes: [images], pluginOptions: { i18n: { localized: true } } }
  seo: { type: component, repeatable: false, component: shared.seo, pluginOptions: { i18n: { localized: true } } }
`;

const PERMISSIONS = UPLOAD_PERMISSIONS.replace('    category: [', '    homepage: [find, update, create, delete]\n    category: [');

for (const kind of testDatabaseKinds()) {
  describe(`a single type written with files (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    before(async () => (api = await uploadApi(kind.client, {}, { 'content-types/homepage.yaml': HOMEPAGE }, PERMISSIONS)));
    after(async () => api?.close());

    const heroName = (body: { data: { attributes: { hero: { data: { attributes: { name: string } } | null } } } }) => body.data.attributes.hero.data?.attributes.name ?? null;

    it('creates the entry with its files at the first PUT, and replaces the single media at the next', async function () {
      const created = await api
        .as('editor', api.request.put('/api/homepage'))
        .field('data', JSON.stringify({ headline: 'Welcome', seo: { metaTitle: 'Home' } }))
        .attach('files.hero', testFile('icon.png'), 'hero.png')
        .attach('files.seo.metaImage', testFile('diagram.png'), 'home-meta.png')
        .query({ populate: '*' });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(heroName(created.body)).to.equal('hero.png');
      const read = await api.as('editor', api.request.get('/api/homepage')).query({ 'populate[seo][populate][metaImage][fields][0]': 'name' });
      expect(read.body.data.attributes.seo.metaImage.data.attributes.name).to.equal('home-meta.png');

      const updated = await api.as('editor', api.request.put('/api/homepage')).field('data', JSON.stringify({ headline: 'Hello' })).attach('files.hero', testFile('second.jpg'), 'new-hero.jpg').query({ populate: 'hero' });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body.data.attributes.headline).to.equal('Hello');
      expect(heroName(updated.body)).to.equal('new-hero.jpg');
    });

    it('creates a localization of it with files', async function () {
      const response = await api.as('editor', api.request.post('/api/homepage/localizations')).field('data', JSON.stringify({ locale: 'fr', headline: 'Bienvenue' })).attach('files.hero', testFile('icon.png'), 'hero-fr.png');
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.include({ locale: 'fr', headline: 'Bienvenue' });
      const read = await api.as('editor', api.request.get('/api/homepage')).query({ locale: 'fr', populate: 'hero' });
      expect(heroName(read.body)).to.equal('hero-fr.png');
    });

    it('writes nothing for a file its media does not allow', async function () {
      const [files, objects] = [await api.fileCount(), api.objects()];
      const response = await api.as('editor', api.request.put('/api/homepage')).field('data', JSON.stringify({ headline: 'Refused' })).attach('files.hero', testFile('report.pdf'), 'hero.pdf');
      expect(response.status).to.equal(400);
      expect(response.body.error.message).to.match(/hero takes images/);
      expect(await api.fileCount()).to.equal(files);
      expect(api.objects()).to.deep.equal(objects);
      const read = await api.as('editor', api.request.get('/api/homepage'));
      expect(read.body.data.attributes.headline).to.equal('Hello');
    });
  });
}
