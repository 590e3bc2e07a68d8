/**
 * Rules on every path a write can take (test/rules/write-app): relations from either side,
 * positions, `set`, localizations, single types, uploads attached to entries, and the media
 * library's own writes. An author may see and change only their own posts: each write naming one
 * of the other author's posts (or a locked file) must answer exactly as the same write naming an
 * id that exists nowhere, and leave every table as it was; writes that succeed leave the links to
 * hidden rows where they were.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import { join } from 'node:path';
import { createTestApi, testDatabases, type TestApi } from '../../plugin/testing/index.js';
import { repoRoot } from '../support/api.js';
import { appWithMembers } from '../support/member-app.js';
import { answerOf, NOWHERE, snapshot } from '../support/write-probes.js';

const APP = join(repoRoot, 'test/rules/write-app');
const TITLER = { Authorization: 'Bearer write-rules-titler-token' };
for (const database of testDatabases()) {
  describe(`rules on every write path (${database})`, () => {
    let kit: TestApi;
    let request: supertest.Agent;
    const id = (type: string, name: string) => kit.ids.get(type === 'file' ? 'plugin::upload.file' : `api::${type}.${type}`)!.get(name)!;
    const bob = { 'x-member': 'bob' };

    before(async () => {
      kit = await createTestApi({ root: APP, data: join(APP, 'data.yaml'), database, locales: ['en', 'fr', 'de'] });
      const members: Record<string, Record<string, unknown>> = { alice: { id: id('member', 'alice'), role: 'author' }, bob: { id: id('member', 'bob'), role: 'author' } };
      request = supertest.agent(appWithMembers(kit.api, members).callback());
    });
    after(() => kit?.close());

    /** Each form of write naming the row `target` (a hidden one, or NOWHERE). */
    const writes: [string, (target: number) => supertest.Test][] = [
      ['connect from the to-many side', (target) => request.put(`/api/shelves/${id('shelf', 'mine')}`).set(bob).send({ data: { posts: { connect: [target] } } })],
      ['connect with a position before it', (target) => request.put(`/api/shelves/${id('shelf', 'mine')}`).set(bob).send({ data: { posts: { connect: [{ id: id('post', 'b2'), position: { before: target } }] } } })],
      ['set from the to-many side', (target) => request.put(`/api/shelves/${id('shelf', 'mine')}`).set(bob).send({ data: { posts: { set: [target] } } })],
      ['a one-to-one, given as an id', (target) => request.put(`/api/shelves/${id('shelf', 'mine')}`).set(bob).send({ data: { pinned: target } })],
      ['a one-way to-many list', (target) => request.put(`/api/shelves/${id('shelf', 'mine')}`).set(bob).send({ data: { picks: [target] } })],
      ['connect from the many-to-many side', (target) => request.put(`/api/labels/${id('label', 'red')}`).set(bob).send({ data: { posts: { connect: [target] } } })],
      ['a create relating it', (target) => request.post('/api/labels').set(bob).send({ data: { name: 'new', posts: [target] } })],
      ['a create listing it as a localization', (target) => request.post('/api/posts').set(bob).send({ data: { title: 'x', localizations: [target] } })],
      ['a localization of it', (target) => request.post(`/api/posts/${target}/localizations`).set(bob).send({ locale: 'de', title: 'x' })],
      ['an update of it', (target) => request.put(`/api/posts/${target}`).set(bob).send({ data: { title: 'taken' } })],
      ['a delete of it', (target) => request.delete(`/api/posts/${target}`).set(bob)],
      ['a single type relating it', (target) => request.put('/api/front').set(bob).send({ data: { extras: { connect: [target] } } })],
      ['an upload attached to it', (target) => request.post('/api/upload').set(bob).field('ref', 'api::post.post').field('refId', String(target)).field('field', 'gallery').attach('files', Buffer.from('text'), 'a.txt')],
    ];
    const fileWrites: [string, (target: number) => supertest.Test][] = [
      ['media given by id', (target) => request.put(`/api/posts/${id('post', 'b1')}`).set(bob).send({ data: { gallery: [target] } })],
      ['new information of the file', (target) => request.post(`/api/upload?id=${target}`).set(bob).field('fileInfo', JSON.stringify({ alternativeText: 'taken' }))],
      ['a replacement of the file', (target) => request.post(`/api/upload?id=${target}`).set(bob).attach('files', Buffer.from('<html>taken</html>'), 'a.html')],
      ['a delete of the file', (target) => request.delete(`/api/upload/files/${target}`).set(bob)],
    ];

    const samePair = async (name: string, write: (target: number) => supertest.Test, hidden: number) => {
      const before = await snapshot(kit.knex);
      const [seen, missing] = [answerOf(await write(hidden), hidden), answerOf(await write(NOWHERE), NOWHERE)];
      expect(seen, name).to.deep.equal(missing);
      expect(seen.status, name).to.be.within(400, 404);
      expect(await snapshot(kit.knex), name).to.deep.equal(before);
    };

    it("answers a write naming another author's post as one naming no post, and changes nothing", async () => {
      for (const [name, write] of writes) for (const hidden of ['a1', 'a2']) await samePair(`${name} (${hidden})`, write, id('post', hidden));
    });

    it('answers a write naming a file its rules hide as one naming no file, and changes nothing', async () => {
      for (const [name, write] of fileWrites) await samePair(name, write, id('file', 'locked'));
    });

    it('keeps the links to hidden entries when a list is set or disconnected, in their places', async () => {
      const shelf = id('shelf', 'theirs');
      const asAlice = async () => (await request.get(`/api/shelves/${shelf}?populate[posts][fields][0]=title`).set({ 'x-member': 'alice' })).body.data.attributes.posts.data.map((post: { id: number }) => post.id);
      const before = await asAlice();
      expect(before).to.include(id('post', 'a1'));
      const set = await request.put(`/api/shelves/${shelf}?populate[posts][fields][0]=title`).set(bob).send({ data: { posts: { set: [id('post', 'b2')] } } });
      expect(set.status).to.equal(200);
      expect(set.body.data.attributes.posts.data.map((post: { id: number }) => post.id)).to.deep.equal([id('post', 'b2')]);
      expect(await asAlice()).to.deep.equal(before);
      expect(await kit.knex('posts_shelf_links').where({ post_id: id('post', 'b2') }).first()).to.include({ shelf_id: shelf });
      const disconnected = await request.put(`/api/shelves/${shelf}`).set(bob).send({ data: { posts: { disconnect: [id('post', 'a1'), id('post', 'b2')] } } });
      expect(disconnected.status).to.equal(200);
      expect(await asAlice()).to.deep.equal(before);
    });

    it('refuses to replace a to-one holding a hidden entry, and leaves it', async () => {
      const front = async () => (await request.get('/api/front?populate[lead][fields][0]=title').set({ 'x-member': 'alice' })).body.data.attributes.lead.data?.id;
      const lead = await request.put('/api/front').set(bob).send({ data: { lead: id('post', 'b1') } });
      expect(lead.status).to.equal(403);
      expect(await front()).to.equal(id('post', 'a1'));
      const cleared = await request.put('/api/front').set(bob).send({ data: { lead: null, headline: 'kept' } });
      expect(cleared.status).to.equal(200);
      expect(await front()).to.equal(id('post', 'a1'));
    });

    it('moves an entry from another entry only where the caller may change both', async () => {
      // b1 sits on shelf "mine": connecting it to "theirs" moves it, and both are Bob's to change.
      const moved = await request.put(`/api/shelves/${id('shelf', 'theirs')}`).set(bob).send({ data: { posts: { connect: [id('post', 'b1')] } } });
      expect(moved.status).to.equal(200);
      // The titler may see every post, and change their titles only: not where a post sits.
      const refused = await request.put(`/api/shelves/${id('shelf', 'mine')}`).set(TITLER).send({ data: { posts: { connect: [id('post', 'a1')] } } });
      expect(refused.status).to.equal(403);
      const onShelf = await kit.knex('posts_shelf_links').where({ post_id: id('post', 'a1') }).first();
      expect(Number(onShelf.shelf_id)).to.equal(id('shelf', 'theirs'));
    });

    it('joins a localization group only where the caller may change every member', async () => {
      const before = await snapshot(kit.knex);
      // b1 is Bob's, and its French localization is Alice's: joining b1's group would change hers.
      const localized = await request.post(`/api/posts/${id('post', 'b1')}/localizations`).set(bob).send({ locale: 'de', title: 'x' });
      expect(localized.status).to.equal(403);
      const listed = await request.post('/api/posts').set(bob).send({ data: { title: 'x', locale: 'de', localizations: [id('post', 'b1')] } });
      expect(listed.status).to.equal(403);
      expect(await snapshot(kit.knex)).to.deep.equal(before);
      const own = await request.post(`/api/posts/${id('post', 'b2')}/localizations`).set(bob).send({ locale: 'fr', title: 'bob-2-fr' });
      expect(own.status).to.equal(200);
    });

    it("holds an upload's attachment to the update rule's fields", async () => {
      const cover = () => request.post('/api/upload').set(TITLER).field('ref', 'api::post.post').field('refId', String(id('post', 'b2'))).field('field', 'cover').attach('files', Buffer.from('text'), 'c.txt');
      const attached = await cover();
      expect(attached.status).to.equal(400);
      expect(attached.body.error.message).to.match(/cover cannot be written by this role/);
      const byPut = await request.put(`/api/posts/${id('post', 'b2')}`).set(TITLER).send({ data: { cover: id('file', 'open') } });
      expect(byPut.status).to.equal(400);
      const withFiles = await request.put(`/api/posts/${id('post', 'b2')}`).set(TITLER).field('data', JSON.stringify({ title: 'b2' })).attach('files.cover', Buffer.from('text'), 'c.txt');
      expect(withFiles.status).to.equal(400);
      expect(withFiles.body.error.details.errors[0].path).to.deep.equal(['cover']);
    });

    it("lets an author attach, replace and delete the files its rules reach", async () => {
      const uploaded = await request.post('/api/upload').set(bob).field('ref', 'api::post.post').field('refId', String(id('post', 'b2'))).field('field', 'gallery').attach('files', Buffer.from('text'), 'mine.txt');
      expect(uploaded.status).to.equal(200);
      const file = uploaded.body[0].id as number;
      expect((await request.post(`/api/upload?id=${file}`).set(bob).field('fileInfo', JSON.stringify({ caption: 'mine' }))).status).to.equal(200);
      // A file written out of the rule's reach is refused, and stays as it was.
      const locking = await request.post(`/api/upload?id=${file}`).set(bob).field('fileInfo', JSON.stringify({ caption: 'locked' }));
      expect(locking.status).to.equal(403);
      expect((await request.delete(`/api/upload/files/${file}`).set(bob)).status).to.equal(200);
    });
  });
}
