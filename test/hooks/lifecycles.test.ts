/**
 * Lifecycle hooks (`contentApi({ lifecycles })`) and host events (`api.events`) of the API's
 * writes: `before*` hooks in the transaction (changing the data, or refusing the write with nothing
 * written), `after*` hooks and events after the commit only, and a failure after commit never
 * failing the write.
 */
import { expect } from 'chai';
import Koa from 'koa';
import type { Knex } from 'knex';
import { join } from 'node:path';
import supertest from 'supertest';
import { contentApi, ForbiddenError, ValidationError, type ContentApi, type LifecycleEvent, type LifecycleHooks } from '../../plugin/index.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { repoRoot } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';

const ROOT = join(repoRoot, 'test', 'fixtures', 'apps', 'hooks');
const UID = 'api::post.post';

/** The rows of every table the post type writes: the entity's, its component's and its links'. */
async function tableCounts(knex: Knex): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['posts', 'components_parts_notes', 'posts_components', 'posts_tag_links', 'tags']) {
    const [row] = (await knex(table).count({ n: '*' })) as { n: number | string }[];
    counts[table] = Number(row.n);
  }
  return counts;
}

for (const kind of testDatabaseKinds()) {
  describe(`lifecycle hooks and events (${kind.name})`, function () {
    let database: TestDatabase;
    let api: ContentApi;
    let request: supertest.Agent;
    let tagId: number;
    /** The hooks of the test running: the option's objects are read at each write. */
    const typeHooks: LifecycleHooks = {};
    const allHooks: LifecycleHooks = {};
    const appErrors: unknown[] = [];
    const log: string[] = [];

    const clearHooks = () => {
      for (const hooks of [typeHooks, allHooks]) for (const name of Object.keys(hooks)) delete hooks[name as keyof LifecycleHooks];
      api?.events.removeAllListeners();
      appErrors.length = 0;
      log.length = 0;
    };

    before(async function () {
      this.timeout(60_000);
      database = await createTestDatabase(kind.client);
      await syncSchema(database.knex, await loadSchema(ROOT));
      api = await contentApi({ root: ROOT, database: database.knex, sync: false, resolveRole: () => 'writer', lifecycles: { [UID]: typeHooks, '*': allHooks } });
      const app = new Koa();
      app.on('error', (error) => appErrors.push(error));
      app.use(async (ctx, next) => {
        ctx.state.user = { id: 7 };
        await next();
      });
      app.use(api.routes());
      request = supertest.agent(app.callback());
      tagId = (await request.post('/api/tags').send({ data: { name: 'news' } })).body.data.id;
    });
    beforeEach(clearHooks);
    after(async () => {
      await api?.close();
      await database?.drop();
    });

    const fullPost = (slug: string) => ({ data: { title: 'hello', slug, note: { text: 'n' }, tag: tagId } });

    it('runs the before hooks in order, and stores and answers the data they change', async () => {
      let seen: LifecycleEvent | undefined;
      allHooks.beforeCreate = (event) => void log.push(`*:beforeCreate:${event.model.uid}`);
      typeHooks.beforeCreate = (event) => {
        seen = { ...event, data: structuredClone(event.data) };
        log.push('beforeCreate');
        event.data!.title = String(event.data!.title).toUpperCase();
      };
      typeHooks.beforePublish = (event) => {
        log.push(`beforePublish:${event.data!.title}`);
        (event.data!.note as { text: string }).text = 'from the hook';
      };
      typeHooks.afterCreate = (event) => void log.push(`afterCreate:${(event.entry as { attributes: { title: string } }).attributes.title}`);
      allHooks.afterPublish = () => void log.push('*:afterPublish');
      typeHooks.afterPublish = () => void log.push('afterPublish');
      const response = await request.post('/api/posts?populate=note').send(fullPost('order'));
      expect(response.status).to.equal(200);
      expect(log).to.deep.equal(['*:beforeCreate:api::post.post', 'beforeCreate', 'beforePublish:HELLO', 'afterCreate:HELLO', '*:afterPublish', 'afterPublish']);
      expect(seen).to.deep.include({ action: 'create', role: 'writer', model: { uid: UID, singularName: 'post', pluralName: 'posts' }, data: fullPost('order').data });
      expect(seen!.state).to.deep.equal({ user: { id: 7 } });
      expect(response.body.data.attributes).to.include({ title: 'HELLO' });
      expect(response.body.data.attributes.note).to.include({ text: 'from the hook' });
      const row = await database.knex('posts').where({ id: response.body.data.id }).first('title');
      expect(row.title).to.equal('HELLO');
    });

    it('writes a relation a before hook adds to the data', async () => {
      typeHooks.beforeCreate = (event) => {
        event.data!.tag = tagId;
      };
      const response = await request.post('/api/posts?populate=tag').send({ data: { title: 'tagged by a hook', slug: 'hook-tag' } });
      expect(response.status).to.equal(200);
      expect(response.body.data.attributes.tag.data.id).to.equal(tagId);
      expect(await database.knex('posts_tag_links').where({ post_id: response.body.data.id }).select('tag_id')).to.deep.equal([{ tag_id: tagId }]);
    });

    it('checks the data a before hook changed again: its problems are a 400, nothing written', async () => {
      typeHooks.beforeCreate = (event) => {
        event.data!.title = null;
      };
      const before = await tableCounts(database.knex);
      const response = await request.post('/api/posts').send(fullPost('rechecked'));
      expect(response.status).to.equal(400);
      expect(response.body.error.details.errors.map((error: { path: unknown }) => error.path)).to.deep.equal([['title']]);
      expect(await tableCounts(database.knex)).to.deep.equal(before);
    });

    for (const [label, error, status, message] of [
      ['ValidationError', new ValidationError('titles are checked by the editor'), 400, 'titles are checked by the editor'],
      ['ForbiddenError', new ForbiddenError('not on Sundays'), 403, 'not on Sundays'],
      ['any other Error', new Error('the hook broke'), 500, 'Internal Server Error'],
    ] as const) {
      it(`a before hook that throws ${label} is a ${status}, nothing written`, async () => {
        typeHooks.afterCreate = () => void log.push('afterCreate');
        api.events.on('entry.create', () => void log.push('entry.create'));
        typeHooks.beforePublish = () => {
          throw error;
        };
        const before = await tableCounts(database.knex);
        const response = await request.post('/api/posts').send(fullPost(`thrown-${status}`));
        expect(response.status).to.equal(status);
        expect(response.body.error.message).to.equal(message);
        expect(await tableCounts(database.knex)).to.deep.equal(before);
        expect(log).to.deep.equal([]);
        expect(appErrors).to.deep.equal(status === 500 ? [error] : []);
      });
    }

    it('a before hook that throws on update or delete writes nothing either', async () => {
      const id = (await request.post('/api/posts').send(fullPost('kept'))).body.data.id;
      typeHooks.beforeUpdate = () => {
        throw new ValidationError('no updates');
      };
      typeHooks.beforeDelete = () => {
        throw new ForbiddenError('no deletes');
      };
      const before = await tableCounts(database.knex);
      const updated = await request.put(`/api/posts/${id}`).send({ data: { title: 'changed', note: { text: 'other' }, tag: null } });
      expect([updated.status, updated.body.error.message]).to.deep.equal([400, 'no updates']);
      const deleted = await request.delete(`/api/posts/${id}`);
      expect([deleted.status, deleted.body.error.message]).to.deep.equal([403, 'no deletes']);
      expect(await tableCounts(database.knex)).to.deep.equal(before);
      expect((await database.knex('posts').where({ id }).first('title')).title).to.equal('hello');
    });

    it('never runs an after hook or event for a write that rolled back', async () => {
      typeHooks.afterCreate = () => void log.push('afterCreate');
      typeHooks.afterPublish = () => void log.push('afterPublish');
      api.events.on('entry.create', () => void log.push('entry.create'));
      expect((await request.post('/api/posts').send(fullPost('taken'))).status).to.equal(200);
      log.length = 0;
      typeHooks.beforeCreate = () => void log.push('beforeCreate');
      const before = await tableCounts(database.knex);
      // A unique value already used.
      expect((await request.post('/api/posts').send(fullPost('taken'))).status).to.equal(400);
      expect(log).to.deep.equal(['beforeCreate']);
      // A later before hook refusing the write the first accepted.
      log.length = 0;
      typeHooks.beforePublish = () => {
        throw new ValidationError('not yet');
      };
      expect((await request.post('/api/posts').send(fullPost('later'))).status).to.equal(400);
      expect(log).to.deep.equal(['beforeCreate']);
      expect(await tableCounts(database.knex)).to.deep.equal(before);
    });

    it("an after hook's or listener's throw leaves the write answered and committed, and is reported", async () => {
      const hookError = new Error('after hook broke');
      const listenerError = new Error('listener broke');
      typeHooks.afterCreate = () => {
        throw hookError;
      };
      api.events.on('entry.create', () => {
        throw listenerError;
      });
      api.events.on('entry.create', () => void log.push('second listener'));
      const response = await request.post('/api/posts').send(fullPost('after-throws'));
      expect(response.status).to.equal(200);
      expect(await database.knex('posts').where({ id: response.body.data.id }).first('slug')).to.deep.equal({ slug: 'after-throws' });
      expect(appErrors).to.deep.equal([hookError, listenerError]);
      expect(log).to.deep.equal(['second listener']);
    });

    it('fires publish and unpublish as publishedAt goes from null to a date and back', async () => {
      for (const name of ['Create', 'Update', 'Publish', 'Unpublish'] as const) {
        typeHooks[`before${name}`] = () => void log.push(`before${name}`);
        typeHooks[`after${name}`] = () => void log.push(`after${name}`);
      }
      const draft = await request.post('/api/posts').send({ data: { title: 'draft', slug: 'draft', publishedAt: null } });
      expect(draft.status).to.equal(200);
      expect(log.splice(0)).to.deep.equal(['beforeCreate', 'afterCreate']);
      const id = draft.body.data.id;
      expect((await request.put(`/api/posts/${id}`).send({ data: { publishedAt: '2024-01-01T00:00:00.000Z' } })).status).to.equal(200);
      expect(log.splice(0)).to.deep.equal(['beforeUpdate', 'beforePublish', 'afterUpdate', 'afterPublish']);
      expect((await request.put(`/api/posts/${id}`).send({ data: { title: 'still published', publishedAt: '2024-02-01T00:00:00.000Z' } })).status).to.equal(200);
      expect(log.splice(0)).to.deep.equal(['beforeUpdate', 'afterUpdate']);
      expect((await request.put(`/api/posts/${id}`).send({ data: { publishedAt: null } })).status).to.equal(200);
      expect(log.splice(0)).to.deep.equal(['beforeUpdate', 'beforeUnpublish', 'afterUpdate', 'afterUnpublish']);
    });

    it('tells api.events listeners once per write, after the commit, in the webhook payload shape', async () => {
      const received: { event: string; uid: string; model: string; entry: { id: number; attributes: Record<string, unknown> }; createdAt: string; committed: boolean }[] = [];
      for (const name of ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish']) {
        api.events.on(name, async (payload) => {
          // Read on another connection than the write's: it sees the entry only once committed.
          const row = await database.knex('posts').where({ id: payload.entry.id }).first('title');
          received.push({ ...payload, committed: row?.title ?? null });
        });
      }
      const created = await request.post('/api/posts').send({ data: { title: 'evented', slug: 'evented', secret: 's3cret' } });
      expect(created.status).to.equal(200);
      const id = created.body.data.id;
      expect((await request.put(`/api/posts/${id}`).send({ data: { title: 'evented again' } })).status).to.equal(200);
      expect((await request.delete(`/api/posts/${id}`)).status).to.equal(200);
      expect(received.map(({ event, uid, model, committed }) => [event, uid, model, committed])).to.deep.equal([
        ['entry.create', UID, 'post', 'evented'],
        ['entry.publish', UID, 'post', 'evented'],
        ['entry.update', UID, 'post', 'evented again'],
        ['entry.delete', UID, 'post', null],
      ]);
      expect(received[0].entry).to.deep.equal(created.body.data);
      expect(received[0].entry.attributes).to.not.have.property('secret');
      expect(new Date(received[0].createdAt).toISOString()).to.equal(received[0].createdAt);
    });

    it('tells publish and unpublish listeners with no hook set', async () => {
      for (const name of ['entry.update', 'entry.publish', 'entry.unpublish']) api.events.on(name, (payload) => void log.push(payload.event));
      const id = (await request.post('/api/posts').send({ data: { title: 'listened', slug: 'listened', publishedAt: null } })).body.data.id;
      expect((await request.put(`/api/posts/${id}`).send({ data: { publishedAt: '2024-01-01T00:00:00.000Z' } })).status).to.equal(200);
      expect((await request.put(`/api/posts/${id}`).send({ data: { publishedAt: null } })).status).to.equal(200);
      expect(log).to.deep.equal(['entry.update', 'entry.publish', 'entry.update', 'entry.unpublish']);
    });

    it('fires no hook for the writes of api.models', async () => {
      typeHooks.beforeCreate = () => void log.push('beforeCreate');
      api.events.on('entry.create', () => void log.push('entry.create'));
      await api.models.models.get(UID)!.query().insert({ title: 'direct', slug: 'direct' } as never);
      expect(log).to.deep.equal([]);
    });
  });
}
