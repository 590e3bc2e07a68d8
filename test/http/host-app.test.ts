/**
 * The plugin inside a host Koa app: it answers its own routes only, never patches the host,
 * takes the host's user role, answers methods a route lacks with 405 in the error envelope, and turns
 * unexpected failures into a bare 500 whose details go to the app's 'error' event, not the caller.
 */
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { contentApi, type ContentApi } from '../../plugin/index.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { fixtureDatabase, repoRoot } from '../support/api.js';

describe('the plugin in a host app', function () {
  let api: ContentApi;
  let app: Koa;
  let seenQuery: unknown;
  before(async function () {
    this.timeout(60_000);
    api = await contentApi({ root: repoRoot, database: await fixtureDatabase('sqlite'), sync: false });
    app = new Koa();
    app.silent = true;
    app.use(async (ctx, next) => {
      const role = ctx.get('x-host-role');
      if (role) ctx.state.user = { id: 1, role: { type: role } };
      await next();
      seenQuery = ctx.query;
    });
    app.use(api.routes());
    app.use(api.allowedMethods());
    app.use((ctx) => {
      if (ctx.path === '/api/custom' || ctx.path === '/health') ctx.body = { host: true };
    });
  });
  after(() => api?.close());

  it('leaves the host its own routes, under the prefix too', async () => {
    expect((await supertest(app.callback()).get('/health')).body).to.deep.equal({ host: true });
    expect((await supertest(app.callback()).get('/api/custom')).body).to.deep.equal({ host: true });
  });

  it("parses the query string itself and leaves ctx.query as Koa's", async () => {
    const response = await supertest(app.callback()).get('/api/articles?fields[0]=title&pagination[pageSize]=1');
    expect(response.status).to.equal(200);
    expect(seenQuery).to.deep.equal({ 'fields[0]': 'title', 'pagination[pageSize]': '1' });
  });

  it("reads drafts with the role the host put in ctx.state.user", async () => {
    expect((await supertest(app.callback()).get('/api/articles?publicationState=preview')).status).to.equal(403);
    expect((await supertest(app.callback()).get('/api/articles?publicationState=preview').set('x-host-role', 'editor')).status).to.equal(200);
  });

  it('answers a method the route lacks with 405, Allow and the error envelope', async () => {
    const response = await supertest(app.callback()).patch('/api/articles').send({ data: {} });
    expect(response.status).to.equal(405);
    expect(response.headers.allow).to.equal('HEAD, GET, POST');
    expect(response.body).to.deep.equal({ data: null, error: { status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} } });
  });

  it('answers an unknown path under the prefix with the 404 envelope, by default', async () => {
    for (const path of ['/api/nowhere', '/api/articles/1/more', '/api']) {
      const response = await supertest(app.callback()).get(path);
      expect(response.status, path).to.equal(404);
      expect(response.headers['content-type'], path).to.match(/application\/json/);
      expect(response.body, path).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    }
    expect((await supertest(app.callback()).get('/apiary')).text, 'outside the prefix').to.equal('Not Found');
  });

  it('leaves the 404 to an upstream host middleware with notFound: false', async () => {
    const plain = await contentApi({ root: repoRoot, database: await fixtureDatabase('sqlite'), sync: false, notFound: false, watchPermissions: false });
    try {
      const host = new Koa();
      host.use(async (ctx, next) => {
        await next();
        if (ctx.status === 404 && ctx.body === undefined && ctx.path === '/api/page') ctx.body = 'a host page';
      });
      host.use(plain.routes());
      expect((await supertest(host.callback()).get('/api/page')).text).to.equal('a host page');
      expect((await supertest(host.callback()).get('/api/nowhere')).text).to.equal('Not Found');
    } finally {
      await plain.close();
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await supertest(app.callback()).head('/api/articles');
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.match(/application\/json/);
  });
});

describe('unexpected failures', function () {
  let database: TestDatabase;
  let api: ContentApi;
  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase('sqlite');
    api = await contentApi({ root: repoRoot, database: database.url, resolveRole: async () => 'public' });
  });
  after(async () => {
    await api?.close();
    await database?.drop();
  });

  it('are a bare 500 for the caller and the whole error for the app', async () => {
    await api.knex.schema.dropTable('categories');
    const app = new Koa();
    const logged: unknown[] = [];
    app.on('error', (error) => logged.push(error));
    app.use(api.routes());
    const response = await supertest(app.callback()).get('/api/categories');
    expect(response.status).to.equal(500);
    expect(response.body).to.deep.equal({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
    expect(response.text).to.not.match(/categories|sqlite|at /i);
    expect(logged).to.have.length(1);
    expect(String(logged[0])).to.match(/no such table/);
  });
});

describe('options a host sets', function () {
  it('serves under its own prefix, reuses compiled plans per id, and leaves a knex it was given open', async function () {
    this.timeout(60_000);
    const { openDatabase } = await import('../../plugin/storage/database.js');
    const knex = openDatabase(await fixtureDatabase('sqlite'));
    const api = await contentApi({ root: repoRoot, database: knex, sync: false, prefix: '/content' });
    try {
      const app = new Koa();
      app.use(api.routes());
      const request = supertest(app.callback());
      expect((await request.get('/api/articles')).status).to.equal(404);
      const first = await request.get('/content/articles/1?fields[0]=title');
      const second = await request.get('/content/articles/2?fields[0]=title');
      expect(first.body.data.id).to.equal(1);
      expect(second.body.data.id, 'the cached plan takes the id of each request').to.equal(2);
      expect(second.body.data.attributes.title).to.not.equal(first.body.data.attributes.title);
    } finally {
      await api.close();
    }
    expect((await knex.raw('SELECT 1 AS one'))[0].one, 'the host closes its own knex').to.equal(1);
    await knex.destroy();
  });
});
