/**
 * `blocks` attributes (Strapi's blocks editor), as Strapi 4.26.2 answers them (asked of the
 * reference with the same attributes added to a category): stored in a json column and returned
 * parsed; written only as the editor's nodes, a wrong node a 400 at its path; filtered as json
 * (text operators on its JSON text), never searched by `_q`.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { repoRoot, serveApi, statementsOf, type ServedApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';

const ROOT = join(repoRoot, 'test', 'fixtures', 'apps', 'blocks');

const heading = { type: 'heading', level: 2, children: [{ type: 'text', text: 'Head', bold: true }] };
const list = { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'one' }] }, { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [{ type: 'link', url: '/about', children: [{ type: 'text', text: 'about' }] }] }] }] };
const paragraph = { type: 'paragraph', children: [{ type: 'text', text: 'hi' }] };

for (const kind of testDatabaseKinds()) {
  describe(`blocks attributes (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi;
    before(async function () {
      this.timeout(60_000);
      database = await createTestDatabase(kind.client);
      await syncSchema(database.knex, await loadSchema(ROOT));
      served = await serveApi({ root: ROOT, database: database.knex, sync: false, resolveRole: (ctx) => ctx.get('x-test-role') || null });
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    const create = (data: unknown) => served.request.post('/api/notes').set('x-test-role', 'writer').send({ data });

    it('stores the nodes and answers them as written', async () => {
      const created = await create({ name: 'B1', summary: [paragraph], body: [heading, list] });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data.attributes).to.deep.include({ body: [heading, list], summary: [paragraph] });
      const empty = await create({ name: 'B5', summary: [] });
      expect(empty.status).to.equal(200);
      expect(empty.body.data.attributes).to.deep.include({ body: null, summary: [] });
      const read = await served.request.get(`/api/notes/${created.body.data.id}?fields[0]=summary`);
      expect(read.body).to.deep.equal({ data: { id: created.body.data.id, attributes: { summary: [paragraph] } }, meta: {} });
      expect(statementsOf(read)).to.equal(1);
    });

    it('refuses what is not a list of the editor nodes, at the node', async () => {
      const errors = async (data: unknown) => {
        const response = await create(data);
        expect(response.status).to.equal(400);
        return response.body.error.details.errors.map((error: { path: unknown[] }) => error.path);
      };
      expect(await errors({ name: 'B2' })).to.deep.equal([['summary']]);
      expect(await errors({ name: 'B3', summary: 'plain text' })).to.deep.equal([['summary']]);
      expect(await errors({ name: 'B4', summary: [{ type: 'nope', children: [] }] })).to.deep.equal([['summary', 0]]);
      expect(await errors({ name: 'B6', summary: { type: 'paragraph' } })).to.deep.equal([['summary']]);
      expect(await errors({ name: 'B7', summary: [paragraph, { type: 'paragraph', children: [] }] })).to.deep.equal([['summary', 1, 'children']]);
      expect(await errors({ name: 'B8', summary: [{ type: 'heading', level: 7, children: [{ type: 'text', text: 'x' }] }] })).to.deep.equal([['summary', 0, 'level']]);
      expect(await errors({ name: 'B9', summary: [{ type: 'paragraph', children: [{ type: 'link', url: 'not a url', children: [] }] }] })).to.deep.equal([['summary', 0, 'children', 0, 'url']]);
      const missing = await create({ name: 'B2' });
      expect(missing.body.error.message).to.equal('summary must be defined.');
    });

    it('refuses nodes nested deeper than the checks go, with a 400', async () => {
      // Written as text: a client's own serializer recurses as deep as the value.
      const depth = 5000;
      const summary = `${'{"type":"list","format":"ordered","children":['.repeat(depth)}{"type":"list-item","children":[]}${']}'.repeat(depth)}`;
      const response = await served.request.post('/api/notes').set('x-test-role', 'writer').set('Content-Type', 'application/json').send(`{"data":{"name":"deep","summary":[${summary}]}}`);
      expect(response.status).to.equal(400);
      expect(response.body.error.message).to.match(/nest at most 64 levels/);
    });

    it('filters as json and sorts, and is never searched by _q', async () => {
      const names = async (query: string) => (await served.request.get(`/api/notes?fields[0]=name&${query}`)).body.data.map((entry: { attributes: { name: string } }) => entry.attributes.name);
      expect(await names('filters[body][$containsi]=head')).to.deep.equal(['B1']);
      expect(await names('filters[body][$null]=true')).to.deep.equal(['B5']);
      expect(await names('filters[summary][$notNull]=true')).to.deep.equal(['B1', 'B5']);
      expect(await names('filters[summary][$eq]=x')).to.deep.equal([]);
      expect(await names('_q=Head')).to.deep.equal([]);
      expect(await names('sort=body:desc')).to.have.members(['B1', 'B5']);
    });
  });
}
