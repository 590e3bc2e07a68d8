/**
 * Conditional GETs and Cache-Control, on both engines: a weak ETag on every GET 200 of the API,
 * 304 with no body when If-None-Match names it, a new tag when the content changes; Cache-Control
 * per content type, made private for a caller with a token or a host-resolved user.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { contentApi, type ContentApi } from '../../plugin/index.js';
import { createToken } from '../../plugin/access/tokens.js';
import { asPrivate } from '../../plugin/http/cache-control.js';
import { fixtureDatabase, repoRoot, serveApi, serveFixture, type ServedApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';

const LIST = '/api/articles?fields[0]=title&sort=id&pagination[pageSize]=3';

for (const kind of testDatabaseKinds()) {
  describe(`ETag and 304 (${kind.name})`, () => {
    let served: ServedApi;
    before(async () => {
      served = await serveFixture(kind.client);
    });
    after(() => served.close());

    it('tags a list and an entry with a weak ETag of their bytes', async () => {
      for (const path of [LIST, '/api/articles/1', '/api/categories?populate=*']) {
        const response = await served.request.get(path);
        expect(response.status).to.equal(200);
        expect(response.headers.etag, path).to.match(/^W\/"[A-Za-z0-9_-]{27}"$/);
        const again = await served.request.get(path);
        expect(again.headers.etag, 'the same bytes, the same tag').to.equal(response.headers.etag);
      }
      const one = await served.request.get('/api/articles/1');
      const two = await served.request.get('/api/articles/2');
      expect(one.headers.etag).to.not.equal(two.headers.etag);
    });

    it('answers 304 with an empty body when If-None-Match matches, and 200 when it does not', async () => {
      const first = await served.request.get(LIST);
      const tag = first.headers.etag!;
      const notModified = await served.request.get(LIST).set('If-None-Match', tag);
      expect(notModified.status).to.equal(304);
      expect(notModified.text).to.equal('');
      expect(notModified.headers.etag).to.equal(tag);
      expect(notModified.headers['cache-control']).to.equal('no-cache');
      // A strong form of the same tag and a list containing it also match (weak comparison).
      expect((await served.request.get(LIST).set('If-None-Match', `"x", ${tag.slice(2)}`)).status).to.equal(304);
      const changed = await served.request.get(LIST).set('If-None-Match', 'W/"something-else"');
      expect(changed.status).to.equal(200);
      expect(changed.body.data).to.have.length(3);
    });

    it('tags no error answer', async () => {
      const missing = await served.request.get('/api/articles/999999');
      expect(missing.status).to.equal(404);
      expect(missing.headers.etag).to.equal(undefined);
      const invalid = await served.request.get('/api/articles?fields[0]=nope');
      expect(invalid.status).to.equal(400);
      expect(invalid.headers.etag).to.equal(undefined);
      expect(invalid.headers['cache-control']).to.equal(undefined);
    });
  });

  describe(`ETag after a change (${kind.name})`, () => {
    let database: TestDatabase;
    let served: ServedApi;
    before(async () => {
      database = await createTestDatabase(kind.client);
      served = await serveApi({ root: repoRoot, database: database.url });
      await served.api.knex('categories').insert({ name: 'Food', slug: 'food' });
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    it('gives a new tag once the content changed, so the old one no longer gets a 304', async () => {
      const before = await served.request.get('/api/categories');
      await served.api.knex('categories').update({ name: 'Drinks' });
      const after = await served.request.get('/api/categories').set('If-None-Match', before.headers.etag!);
      expect(after.status).to.equal(200);
      expect(after.body.data[0].attributes.name).to.equal('Drinks');
      expect(after.headers.etag).to.not.equal(before.headers.etag);
    });
  });

  describe(`Cache-Control (${kind.name})`, () => {
    let dir: string;
    let api: ContentApi;
    let request: supertest.Agent;
    const token = createToken();
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'content-api-cache-'));
      const permissionsFile = join(dir, 'permissions.yaml');
      writeFileSync(
        permissionsFile,
        `roles:\n  public:\n    article: [find, findOne]\n    category: [find]\n  editor:\n    article: [find, findOne]\n    category: [find]\ntokens:\n  - { name: ci, role: editor, hash: "${token.hash}" }\n`,
      );
      api = await contentApi({
        root: repoRoot,
        database: await fixtureDatabase(kind.client),
        sync: false,
        permissionsFile,
        cacheControl: { default: 'no-cache', 'api::article.article': 'public, max-age=60, s-maxage=600' },
      });
      const app = new Koa();
      app.use(async (ctx, next) => {
        if (ctx.get('x-user-role')) ctx.state.user = { role: ctx.get('x-user-role') };
        await next();
      });
      app.use(api.routes());
      request = supertest.agent(app.callback());
    });
    after(async () => {
      await api?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sends the value configured for the type, and the default for the others', async () => {
      const articles = await request.get('/api/articles');
      expect(articles.headers['cache-control']).to.equal('public, max-age=60, s-maxage=600');
      expect(articles.headers.vary).to.match(/Authorization/);
      expect((await request.get('/api/articles/1')).headers['cache-control']).to.equal('public, max-age=60, s-maxage=600');
      expect((await request.get('/api/categories')).headers['cache-control']).to.equal('no-cache');
    });

    it('makes the answer private for a token and for a host-resolved user', async () => {
      const withToken = await request.get('/api/articles').set('Authorization', `Bearer ${token.token}`);
      expect(withToken.status).to.equal(200);
      expect(withToken.headers['cache-control']).to.equal('private, max-age=60');
      const withUser = await request.get('/api/categories').set('x-user-role', 'editor');
      expect(withUser.headers['cache-control']).to.equal('private, no-cache');
    });
  });

  describe(`Cache-Control options (${kind.name})`, () => {
    it('sets no header with cacheControl: false, and refuses a uid the schema lacks', async () => {
      const off = await serveFixture(kind.client, 'small', { cacheControl: false });
      try {
        const response = await off.request.get('/api/articles');
        expect(response.headers['cache-control']).to.equal(undefined);
        expect(response.headers.etag).to.match(/^W\//);
      } finally {
        await off.close();
      }
      let thrown: unknown = null;
      try {
        await (await serveFixture(kind.client, 'small', { cacheControl: { 'api::artcle.artcle': 'public' } })).close();
      } catch (error) {
        thrown = error;
      }
      expect(String(thrown)).to.match(/cacheControl: "api::artcle\.artcle" is not a content type uid/);
    });
  });
}

describe('private Cache-Control values', () => {
  it('drop what only shared caches read', () => {
    expect(asPrivate('public, max-age=60')).to.equal('private, max-age=60');
    expect(asPrivate('public, s-maxage=600, proxy-revalidate, must-revalidate')).to.equal('private, must-revalidate');
    expect(asPrivate('no-store')).to.equal('private, no-store');
    expect(asPrivate('private, max-age=5')).to.equal('private, max-age=5');
  });
});
