/**
 * The write API over HTTP, on both engines: every body form (relations by id, list and
 * connect/disconnect/set with positions; components and repeatable components by id or new; zones;
 * media), the body and schema checks with their paths, the permissions, and deletes that leave no
 * orphan rows behind.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { writeApi, type WriteApi } from './support/write-api.js';

const FULL = 'populate[category][fields][0]=name&populate[categories][fields][0]=name&populate[seo]=*&populate[links]=*&populate[blocks][populate]=*&populate[headerImage][fields][0]=name&populate[gallery][fields][0]=name&publicationState=preview';

type Entry = { id: number; attributes: Record<string, any> };

const names = (relation: { data: Entry[] }) => relation.data.map((entry) => entry.id);

for (const kind of testDatabaseKinds()) {
  describe(`writes over HTTP (${kind.name})`, () => {
    let api: WriteApi;
    before(async () => {
      api = await writeApi(kind.client);
    });
    after(async () => api?.close());

    const editor = () => api.as('editor');
    const create = async (data: Record<string, unknown>, query = '') => {
      const response = await editor().post(`/api/articles${query ? `?${query}` : ''}`, { data });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return response.body.data as Entry;
    };
    const readBack = async (id: number) => (await editor().get(`/api/articles/${id}?${FULL}`)).body.data as Entry;

    describe('create', () => {
      it('creates an article with a component, a zone and relations, published, and answers it shaped by populate', async () => {
        const entry = await create(
          {
            title: 'A whole graph',
            category: 3,
            categories: [2, 5],
            seo: { metaTitle: 'Graph', metaDescription: 'all of it' },
            links: [{ label: 'one', url: '/1' }, { label: 'two' }],
            blocks: [
              { __component: 'shared.rich-text', body: 'text' },
              { __component: 'shared.quote', title: 'q', category: 4 },
              { __component: 'shared.media', file: 2 },
            ],
            headerImage: 1,
            gallery: [{ id: 3 }, 2],
          },
          'populate[category][fields][0]=name',
        );
        expect(entry.attributes.title).to.equal('A whole graph');
        expect(entry.attributes.publishedAt).to.be.a('string');
        expect(entry.attributes.locale).to.equal('en');
        expect(entry.attributes.kind).to.equal('news', 'defaults apply on create');
        expect(entry.attributes.category.data.id).to.equal(3);
        expect(entry.attributes).to.not.have.property('seo');
        const back = await readBack(entry.id);
        expect(back.attributes.category.data.attributes.name).to.be.a('string');
        expect(names(back.attributes.categories)).to.deep.equal([2, 5]);
        expect(back.attributes.seo).to.include({ metaTitle: 'Graph', metaDescription: 'all of it' });
        expect(back.attributes.links.map((link: { label: string }) => link.label)).to.deep.equal(['one', 'two']);
        expect(back.attributes.links[1].isExternal).to.equal(false);
        expect(back.attributes.blocks.map((block: { __component: string }) => block.__component)).to.deep.equal(['shared.rich-text', 'shared.quote', 'shared.media']);
        expect(back.attributes.blocks[1].category.data.id).to.equal(4);
        expect(back.attributes.blocks[2].file.data.id).to.equal(2);
        expect(back.attributes.headerImage.data.id).to.equal(1);
        expect(names(back.attributes.gallery)).to.deep.equal([3, 2]);
      });

      it('creates a draft with publishedAt: null, visible only with preview', async () => {
        const entry = await create({ title: 'A draft', publishedAt: null });
        expect(entry.attributes.publishedAt).to.equal(null);
        expect((await editor().get(`/api/articles/${entry.id}`)).status).to.equal(404);
        expect((await editor().get(`/api/articles/${entry.id}?publicationState=preview`)).status).to.equal(200);
      });

      it('takes the locale from data.locale, else from ?locale=, and refuses an unknown one', async () => {
        expect((await create({ title: 'Fr by data', locale: 'fr' })).attributes.locale).to.equal('fr');
        expect((await create({ title: 'Fr by query' }, 'locale=fr')).attributes.locale).to.equal('fr');
        const unknown = await editor().post('/api/articles', { data: { title: 'x', locale: 'xx' } });
        expect([unknown.status, unknown.body.error.name]).to.deep.equal([400, 'ApplicationError']);
      });

      it('stores a password as a bcrypt hash and never answers it', async () => {
        const entry = await create({ title: 'Secret', accessCode: 'open-sesame' });
        expect(entry.attributes).to.not.have.property('accessCode');
        const row = await api.api.knex('articles').where({ id: entry.id }).first('access_code');
        expect(row.access_code).to.match(/^\$2[aby]\$10\$/);
      });
    });

    describe('relations', () => {
      it('connects with positions, disconnects and sets, keeping the order', async () => {
        const { id } = await create({ title: 'Ordered', categories: { connect: [2, 3, { id: 9, position: { start: true } }, { id: 10, position: { before: 3 } }, { id: 11, position: { after: 2 } }] } });
        expect(names((await readBack(id)).attributes.categories)).to.deep.equal([9, 2, 11, 10, 3]);
        await editor().put(`/api/articles/${id}`, { data: { categories: { disconnect: [11], connect: [{ id: 3, position: { start: true } }, { id: 2, position: { end: true } }] } } }).expect(200);
        expect(names((await readBack(id)).attributes.categories)).to.deep.equal([3, 9, 10, 2]);
        await editor().put(`/api/articles/${id}`, { data: { categories: { set: [5, 4], connect: [1] } } }).expect(200);
        expect(names((await readBack(id)).attributes.categories)).to.deep.equal([5, 4]);
        await editor().put(`/api/articles/${id}`, { data: { categories: [] } }).expect(200);
        expect(names((await readBack(id)).attributes.categories)).to.deep.equal([]);
      });

      it('refuses a position naming an entry that is not in the list', async () => {
        const response = await editor().post('/api/articles', { data: { title: 'x', categories: { connect: [{ id: 2, position: { before: 12 } }] } } });
        expect([response.status, response.body.error.name]).to.deep.equal([400, 'ValidationError']);
      });

      it('moves a target whose other side is to-one, and appends to the target list', async () => {
        const { id } = await create({ title: 'Takes the feature' });
        await api.as('editor').put('/api/categories/6', { data: { featuredArticle: id } }).expect(200);
        const other = await api.as('editor').post('/api/categories', { data: { name: 'Thief', featuredArticle: id } });
        expect(other.status).to.equal(200);
        const six = await editor().get('/api/categories/6?populate[featuredArticle][fields][0]=title&publicationState=preview');
        expect(six.body.data.attributes.featuredArticle.data).to.equal(null);
        const articles = await editor().get(`/api/categories/7?populate[articles][fields][0]=title&publicationState=preview`);
        const before = names(articles.body.data.attributes.articles);
        const moved = await create({ title: 'Joins 7', category: 7 });
        const after = await editor().get(`/api/categories/7?populate[articles][fields][0]=title&publicationState=preview`);
        expect(names(after.body.data.attributes.articles)).to.deep.equal([...before, moved.id]);
      });

      it('answers 400 naming the attribute for a missing entry, and for a type the role may not read', async () => {
        const missing = await editor().post('/api/articles', { data: { title: 'x', category: 999 } });
        expect(missing.status).to.equal(400);
        expect(missing.body.error.details.errors.map((error: { path: unknown }) => error.path)).to.deep.equal([['category']]);
        const hidden = await api.as('nofiles').post('/api/articles', { data: { title: 'x', category: 1, headerImage: 1 } });
        expect(hidden.status).to.equal(400);
        expect(hidden.body.error.details.errors.map((error: { path: unknown }) => error.path)).to.deep.equal([['headerImage'], ['category']]);
      });
    });

    describe('components and zones', () => {
      it('updates listed components in place, creates new ones and deletes the others', async () => {
        const { id } = await create({ title: 'Links', links: [{ label: 'a' }, { label: 'b' }, { label: 'c' }], seo: { metaTitle: 'S' } });
        const links = (await readBack(id)).attributes.links as { id: number; label: string }[];
        await editor().put(`/api/articles/${id}`, { data: { links: [{ id: links[2].id, label: 'c2' }, { label: 'new' }, { id: links[0].id }], seo: { id: (await readBack(id)).attributes.seo.id, metaDescription: 'kept title' } } }).expect(200);
        const back = await readBack(id);
        expect(back.attributes.links.map((link: { label: string }) => link.label)).to.deep.equal(['c2', 'new', 'a']);
        expect(back.attributes.links[0].id).to.equal(links[2].id);
        expect(back.attributes.seo).to.include({ metaTitle: 'S', metaDescription: 'kept title' });
        expect(await api.api.knex('components_shared_links').where({ id: links[1].id }).first()).to.equal(undefined);
      });

      it('refuses a component id of another entry with an ApplicationError', async () => {
        const first = await create({ title: 'Owner', links: [{ label: 'mine' }] });
        const linkId = (await readBack(first.id)).attributes.links[0].id;
        const { id } = await create({ title: 'Other' });
        const response = await editor().put(`/api/articles/${id}`, { data: { links: [{ id: linkId, label: 'taken' }] } });
        expect([response.status, response.body.error.name]).to.deep.equal([400, 'ApplicationError']);
      });

      it('checks zone items: __component required and one of the zone', async () => {
        const response = await editor().post('/api/articles', { data: { title: 'x', blocks: [{ body: 'no type' }, { __component: 'shared.link', label: 'x' }] } });
        expect(response.status).to.equal(400);
        expect(response.body.error.details.errors.map((error: { path: unknown }) => error.path)).to.deep.equal([
          ['blocks', 0, '__component'],
          ['blocks', 1, '__component'],
        ]);
      });
    });

    describe('validation', () => {
      const problemPaths = async (data: unknown, path = '/api/articles') => {
        const response = await editor().post(path, { data });
        expect(response.status, JSON.stringify(response.body)).to.equal(400);
        expect(response.body.error.name).to.equal('ValidationError');
        return response.body.error.details.errors.map((error: { path: unknown }) => error.path);
      };

      it('lists every problem with its path and writes nothing', async () => {
        const before = await api.api.knex('articles').count({ n: '*' }).first();
        expect(await problemPaths({ kind: 'opinion', contactEmail: 'nope', views: 'many', seo: { metaTitle: 'y'.repeat(61) }, links: [{ url: '/no-label' }] })).to.deep.equal([
          ['title'],
          ['kind'],
          ['contactEmail'],
          ['views'],
          ['seo', 'metaTitle'],
          ['links', 0, 'label'],
        ]);
        expect(await api.api.knex('articles').count({ n: '*' }).first()).to.deep.equal(before);
      });

      it('refuses unknown attributes, maintained ones and a locale on a type without locales', async () => {
        expect(await problemPaths({ title: 'x', colour: 'red' })).to.deep.equal([['colour']]);
        expect(await problemPaths({ title: 'x', id: 5, createdAt: '2020-01-01T00:00:00Z' })).to.deep.equal([['id'], ['createdAt']]);
        expect(await problemPaths({ name: 'x', locale: 'fr' }, '/api/categories')).to.deep.equal([['locale']]);
        expect(await problemPaths({ title: 'x', blocks: [{ __component: 'shared.rich-text', body: 'b', colour: 1 }] })).to.deep.equal([['blocks', 0, 'colour']]);
      });

      it('checks unique values in the database, excluding the entry itself', async () => {
        await editor().post('/api/categories', { data: { name: 'U', slug: 'unique-slug' } }).expect(200);
        expect(await problemPaths({ name: 'V', slug: 'unique-slug' }, '/api/categories')).to.deep.equal([['slug']]);
        const { body } = await editor().get('/api/categories?filters[slug][$eq]=unique-slug');
        await editor().put(`/api/categories/${body.data[0].id}`, { data: { slug: 'unique-slug', name: 'U2' } }).expect(200);
      });

      it('checks media: existing files of the allowed types only', async () => {
        expect(await problemPaths({ title: 'x', headerImage: 999 })).to.deep.equal([['headerImage']]);
        expect(await problemPaths({ name: 'Pdf icon', icon: 15 }, '/api/categories')).to.deep.equal([['icon']]);
      });
    });

    describe('bodies', () => {
      const rawPost = (body: string, type = 'application/json') => api.request.post('/api/categories').set('Authorization', 'Bearer editor-token').set('Content-Type', type).send(body);

      it('answers 400 for a body that is not JSON, is not { data: object }, or is a form', async () => {
        for (const [body, type] of [
          ['{"data": {"name": ', 'application/json'],
          ['', 'application/json'],
          ['{"name": "no envelope"}', 'application/json'],
          ['{"data": "Food"}', 'application/json'],
          ['{"data": [{"name": "x"}]}', 'application/json'],
          ['[1]', 'application/json'],
          ['data[name]=Form', 'application/x-www-form-urlencoded'],
          ['{"data":{"name":"As text"}}', 'text/plain'],
        ]) {
          const response = await rawPost(body, type);
          expect([response.status, response.body.error?.name], `${type} ${body}`).to.deep.equal([400, 'ValidationError']);
        }
      });

      it('answers 413 for a body over the limit, and takes one just under it', async () => {
        const big = (size: number) => JSON.stringify({ data: { name: 'big', description: 'x'.repeat(size) } });
        expect((await rawPost(big(1024 * 1024 + 10))).status).to.equal(413);
        expect((await rawPost(big(900 * 1024))).status).to.equal(200);
      });
    });

    describe('permissions', () => {
      it("leaves out of a write's answer what the role may not read: relations and media it may not find, private attributes", async () => {
        const response = await api.as('nofiles').post('/api/articles?populate=*', { data: { title: 'Shaped by the role', internalNotes: 'kept private', seo: { metaTitle: 'S' } } });
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        const { attributes } = response.body.data;
        for (const hidden of ['category', 'categories', 'featuredIn', 'headerImage', 'gallery', 'internalNotes', 'accessCode']) expect(attributes, hidden).to.not.have.property(hidden);
        expect(attributes.seo).to.include({ metaTitle: 'S' });
        expect((await api.api.knex('articles').where({ id: response.body.data.id }).first('internal_notes')).internal_notes).to.equal('kept private');
      });

      it('answers 403 before looking at the body, and 401 for an unknown token', async () => {
        const reader = api.as('reader');
        expect((await reader.post('/api/articles', { data: 'bad' })).status).to.equal(403);
        expect((await reader.put('/api/articles/2', { data: { title: 'x' } })).status).to.equal(403);
        expect((await reader.delete('/api/articles/2')).status).to.equal(403);
        expect((await api.as(null).post('/api/categories', { data: { name: 'x' } })).status).to.equal(403);
        const unknown = await api.request.post('/api/categories').set('Authorization', 'Bearer nope').send({ data: { name: 'x' } });
        expect(unknown.status).to.equal(401);
      });
    });

    describe('update and delete', () => {
      it('updates the given attributes only, unpublishes with publishedAt: null, and answers 404 for no entry', async () => {
        const { id } = await create({ title: 'To update', description: 'kept' });
        const updated = await editor().put(`/api/articles/${id}`, { data: { title: 'Updated', publishedAt: null } });
        expect(updated.body.data.attributes).to.include({ title: 'Updated', description: 'kept', publishedAt: null });
        expect((await editor().put('/api/articles/99999', { data: { title: 'x' } })).status).to.equal(404);
        expect((await editor().put('/api/articles/abc', { data: { title: 'x' } })).status).to.equal(404);
      });

      it('deletes an entry with its components, zone, links and media links, and answers it', async () => {
        const entry = await create({ title: 'Doomed', category: 2, categories: [3], seo: { metaTitle: 'x', metaSocial: [{ socialNetwork: 'Facebook', title: 't', description: 'd' }] }, links: [{ label: 'l' }], blocks: [{ __component: 'shared.quote', title: 'q', category: 1 }], headerImage: 1 });
        const knex = api.api.knex;
        const count = async (table: string, where: Record<string, unknown> = {}) => Number(((await knex(table).where(where).count({ n: '*' }).first()) as { n: number | string }).n);
        const componentTables = ['components_shared_seos', 'components_shared_meta_socials', 'components_shared_links', 'components_shared_quotes', 'components_shared_quotes_category_links', 'articles_components', 'components_shared_seos_components'];
        const before = await Promise.all(componentTables.map((table) => count(table)));
        const deleted = await editor().delete(`/api/articles/${entry.id}?fields[0]=title`);
        expect(deleted.status).to.equal(200);
        expect(deleted.body.data).to.deep.equal({ id: entry.id, attributes: { title: 'Doomed' } });
        const after = await Promise.all(componentTables.map((table) => count(table)));
        expect(before.map((value, index) => value - after[index])).to.deep.equal([1, 1, 1, 1, 1, 3, 1]);
        expect(await count('articles_category_links', { article_id: entry.id })).to.equal(0);
        expect(await count('articles_categories_links', { article_id: entry.id })).to.equal(0);
        expect(await count('files_related_morphs', { related_id: entry.id, related_type: 'api::article.article' })).to.equal(0);
        expect((await editor().delete(`/api/articles/${entry.id}`)).status).to.equal(404);
      });
    });
  });
}
