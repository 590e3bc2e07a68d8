/**
 * Strapi v4's response shapes for populated attributes: wrapping, empty values per kind, key
 * order, media files and component entries.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { serveFixture, type ServedApi } from '../support/api.js';

const FILE_KEYS = [
  'name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size',
  'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt',
];
const ARTICLE_SCALARS = [
  'title', 'slug', 'description', 'content', 'kind', 'contactEmail', 'publishDate', 'publishTime', 'scheduledAt',
  'views', 'viewsTotal', 'rating', 'price', 'featured', 'metadata', 'readingMinutes',
  'createdAt', 'updatedAt', 'publishedAt', 'locale',
];

for (const kind of testDatabaseKinds()) {
  describe(`populate shapes (${kind.name})`, function () {
    let served: ServedApi;
    const article = async (id: number, query: string) => {
      const response = await served.request.get(`/api/articles/${id}?${query}`);
      expect(response.status, response.text).to.equal(200);
      return response.body.data.attributes;
    };
    before(async function () {
      this.timeout(120_000);
      served = await serveFixture(kind.client);
    });
    after(() => served?.close());

    it('populate=* lists every populatable attribute one level deep, in schema order, after the scalars', async () => {
      const attributes = await article(1, 'populate=*');
      expect(Object.keys(attributes)).to.deep.equal([
        ...ARTICLE_SCALARS,
        'headerImage', 'gallery', 'category', 'categories', 'featuredIn', 'author', 'seo', 'links', 'related', 'blocks', 'localizations',
      ]);
      expect(attributes.seo).to.not.have.property('metaSocial');
      expect(attributes.seo).to.not.have.property('metaImage');
      for (const entry of attributes.blocks) expect(entry).to.not.have.any.keys('file', 'files', 'category');
      expect(Object.keys(attributes.category.data.attributes)).to.not.include('articles');
    });

    it('populated keys follow the request order', async () => {
      const attributes = await article(1, 'fields[0]=title&populate[0]=links&populate[1]=category&populate[2]=seo');
      expect(Object.keys(attributes)).to.deep.equal(['title', 'links', 'category', 'seo']);
      const objectForm = await article(1, 'fields[0]=title&populate[seo]=true&populate[gallery]=true&populate[author]=true');
      expect(Object.keys(objectForm)).to.deep.equal(['title', 'seo', 'gallery', 'author']);
    });

    it('a to-one relation is { data: { id, attributes } }, or { data: null }', async () => {
      expect((await article(1, 'populate=category')).category.data).to.have.keys('id', 'attributes');
      expect((await article(3, 'populate=category')).category).to.deep.equal({ data: null });
    });

    it('a to-many relation is { data: [...] }, or { data: [] }', async () => {
      expect((await article(1, 'populate=categories')).categories.data).to.have.length.greaterThan(0);
      expect((await article(5, 'populate=categories')).categories).to.deep.equal({ data: [] });
    });

    it('single media is { data: file } or { data: null }; multiple media is { data: [...] } or { data: null }', async () => {
      const withMedia = await article(1, 'populate[0]=headerImage&populate[1]=gallery');
      expect(Object.keys(withMedia.headerImage.data.attributes)).to.deep.equal(FILE_KEYS);
      expect(withMedia.gallery.data).to.be.an('array').with.length.greaterThan(0);
      expect(Object.keys(withMedia.gallery.data[0].attributes)).to.deep.equal(FILE_KEYS);
      expect((await article(2, 'populate=headerImage')).headerImage).to.deep.equal({ data: null });
      expect((await article(6, 'populate=gallery')).gallery).to.deep.equal({ data: null });
    });

    it('a single component is { id, ...fields } or null; a repeatable one [...] or []', async () => {
      const seo = (await article(1, 'populate=seo')).seo;
      expect(seo).to.include.keys('id', 'metaTitle');
      expect(seo).to.not.have.property('attributes');
      expect((await article(2, 'populate=seo')).seo).to.equal(null);
      expect((await article(1, 'populate=links')).links).to.be.an('array').with.length.greaterThan(0);
      expect((await article(2, 'populate=links')).links).to.deep.equal([]);
    });

    it('a dynamic zone is [{ id, __component, ...fields }] or []', async () => {
      const blocks = (await article(1, 'populate=blocks')).blocks;
      expect(blocks.map((entry: { __component: string }) => entry.__component)).to.deep.equal([
        'shared.slider', 'shared.rich-text', 'shared.media', 'shared.rich-text', 'shared.rich-text',
      ]);
      for (const entry of blocks) expect(entry).to.include.keys('id', '__component');
      expect((await article(12, 'populate=blocks')).blocks).to.deep.equal([]);
    });

    it('relations and media inside components are wrapped in { data }', async () => {
      const seo = (await article(1, 'populate[seo][populate]=*')).seo;
      expect(seo.metaImage).to.have.property('data');
      const related = (await article(2, 'populate[related][populate][category]=true')).related;
      expect(related.category).to.have.property('data');
    });

    it('createdBy and updatedBy are never populated, in any form', async () => {
      for (const query of ['populate[0]=createdBy', 'populate=updatedBy', 'populate[createdBy]=true&populate[updatedBy][fields][0]=x', 'populate[category][populate][0]=createdBy']) {
        const attributes = await article(1, `fields[0]=title&${query}`);
        expect(attributes).to.not.have.any.keys('createdBy', 'updatedBy');
        if (attributes.category) expect(attributes.category.data.attributes).to.not.have.any.keys('createdBy');
      }
    });

    it('private and password attributes are never selected, at any depth', async () => {
      const attributes = await article(1, 'populate[localizations][populate]=*&populate[category][populate][articles]=true');
      for (const entry of [attributes, ...attributes.localizations.data.map((item: { attributes: object }) => item.attributes)]) {
        expect(entry).to.not.have.any.keys('internalNotes', 'accessCode');
      }
      const author = (await article(1, 'populate=author')).author.data.attributes;
      expect(author).to.not.have.any.keys('password', 'resetPasswordToken', 'confirmationToken');
    });

    it('fields=id inside populate returns ids with empty attributes', async () => {
      const attributes = await article(1, 'fields[0]=id&populate[category][fields][0]=id&populate[gallery][fields][0]=id');
      expect(attributes.category.data.attributes).to.deep.equal({});
      for (const file of attributes.gallery.data) expect(file.attributes).to.deep.equal({});
    });
  });
}
