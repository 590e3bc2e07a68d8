/**
 * The plugin in a host app as teams write them, on both engines: `koa-qs` patching ctx.query,
 * a body parser, an `@koa/router` router of the host's own (with a route under the API prefix),
 * and an auth middleware setting ctx.state.user from a header. The plugin's answers are the same
 * as in a bare app (it parses the query string with its own strict qs), the host's routes and
 * ctx.query work as before, and the role from ctx.state.user applies.
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import koaQs from 'koa-qs';
import supertest from 'supertest';
import { contentApi, type ContentApi } from '../../plugin/index.js';
import { fixtureDatabase, repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

/** Queries koa-qs (qs defaults: depth 5, 20 array items) reads differently from the plugin's own parser. */
const QUERIES = [
  '/api/articles?fields[0]=title&sort[0]=title:desc&pagination[pageSize]=3',
  '/api/articles?filters[title][$in][0]=nothing&filters[title][$in][1]=else',
  `/api/articles?fields[0]=title&filters[id][$in]=${Array.from({ length: 30 }, (_, i) => i + 1).join('&filters[id][$in]=')}`,
  `/api/articles?fields[0]=title&${Array.from({ length: 25 }, (_, i) => `filters[id][$in][${i}]=${i + 1}`).join('&')}`,
  '/api/articles?fields[0]=title&populate[category][populate][parent][populate][children][fields][0]=name&pagination[pageSize]=2',
  '/api/articles?populate[category][fields][0]=nope',
  '/api/categories?filters[$or][0][name][$eq]=Food&filters[$or][1][articles][title][$notNull]=true',
];

for (const kind of testDatabaseKinds()) {
  describe(`the plugin in a host app with koa-qs, a body parser, its own router and auth (${kind.name})`, () => {
    let api: ContentApi;
    let host: supertest.Agent;
    let bare: supertest.Agent;
    let hostQuery: unknown;
    before(async () => {
      api = await contentApi({ root: repoRoot, database: await fixtureDatabase(kind.client), sync: false });
      const app = koaQs(new Koa());
      app.silent = true;
      app.use(bodyParser());
      app.use(async (ctx, next) => {
        if (ctx.get('x-session') === 'editor-session') ctx.state.user = { id: 7, role: 'editor' };
        await next();
      });
      const router = new Router();
      router.get('/hello', (ctx) => {
        hostQuery = ctx.query;
        ctx.body = { hello: ctx.state.user?.role ?? 'anonymous' };
      });
      router.post('/echo', (ctx) => {
        ctx.body = { received: ctx.request.body };
      });
      router.get('/api/reports/weekly', (ctx) => {
        ctx.body = { report: 'weekly' };
      });
      app.use(api.routes());
      app.use(api.allowedMethods());
      app.use(router.routes());
      app.use(router.allowedMethods());
      host = supertest.agent(app.callback());
      const plain = new Koa();
      plain.use(api.routes());
      plain.use(api.allowedMethods());
      bare = supertest.agent(plain.callback());
    });
    after(() => api?.close());

    it("answers exactly as in a bare app: koa-qs does not change the plugin's parsing", async () => {
      for (const path of QUERIES) {
        const [inHost, alone] = await Promise.all([host.get(path), bare.get(path)]);
        expect(inHost.status, path).to.equal(alone.status);
        expect(inHost.text, path).to.equal(alone.text);
      }
      // Deeper than koa-qs reads, and more list items than it keeps as an array: still served.
      expect((await host.get(QUERIES[4]!)).status).to.equal(200);
      expect((await host.get(QUERIES[3]!)).body.data).to.have.length.above(0);
    });

    it("leaves the host's routes, ctx.query and body parsing as they were, under the prefix too", async () => {
      const hello = await host.get('/hello?filters[a][b]=1&list[0]=x');
      expect(hello.body).to.deep.equal({ hello: 'anonymous' });
      expect(hostQuery, "koa-qs's ctx.query").to.deep.equal({ filters: { a: { b: '1' } }, list: ['x'] });
      expect((await host.post('/echo').send({ data: { title: 'x' } })).body).to.deep.equal({ received: { data: { title: 'x' } } });
      expect((await host.get('/api/reports/weekly')).body).to.deep.equal({ report: 'weekly' });
      const write = await host.post('/api/articles').send({ data: { title: 'x' } });
      expect([write.status, write.body.error.name], 'a write of a role without create').to.deep.equal([403, 'ForbiddenError']);
      const patch = await host.patch('/api/articles').send({ data: { title: 'x' } });
      expect([patch.status, patch.body.error.name]).to.deep.equal([405, 'MethodNotAllowedError']);
    });

    it('applies the role the auth middleware put in ctx.state.user', async () => {
      expect((await host.get('/api/articles?publicationState=preview')).status).to.equal(403);
      const editor = await host.get('/api/articles?publicationState=preview&fields[0]=title').set('x-session', 'editor-session');
      expect(editor.status).to.equal(200);
      expect(editor.headers['cache-control']).to.equal('private, no-cache');
      expect((await host.get('/hello').set('x-session', 'editor-session')).body).to.deep.equal({ hello: 'editor' });
    });
  });
}
