/**
 * The response cache in one process: a repeated read is answered from memory with the same bytes
 * and ETag; any write to a table an answer read — through the API, `api.models`, the host's knex,
 * or another connection — makes the next read see it; writes to other tables leave it kept; callers
 * whose rules bind other values never share an answer; drafts, clock rules and large bodies are
 * never kept.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestApi, testDatabases } from '../../plugin/testing/index.js';
import { repoRoot } from '../support/api.js';
import { cachedRulesApp, cacheOutcome, sleep, useCachedRulesApp, type CachedApp } from './support.js';

const MODERATOR = { 'x-member': 'moderator' };

for (const database of testDatabases()) {
  describe(`response cache (${database})`, () => {
    let app: CachedApp;
    let other: Knex;
    const get = (path: string, headers: Record<string, string> = {}) => app.request.get(path).set(headers);
    // A write is heard again from the database within the window (PostgreSQL, MariaDB): bodies kept before that go.
    const settle = () => sleep(60);
    const titles = (body: { data: { attributes: { title: string } }[] }) => body.data.map((entry) => entry.attributes.title).sort();

    const served = useCachedRulesApp({ database });
    beforeEach(() => {
      app = served.app();
      other = served.other();
    });

    it('answers a repeated read from memory, with the same bytes and ETag', async () => {
      const first = await get('/api/notes?populate=*');
      const second = await get('/api/notes?populate=*');
      expect([cacheOutcome(first), cacheOutcome(second)]).to.deep.equal(['miss', 'hit']);
      expect(second.text).to.equal(first.text);
      expect(second.headers.etag).to.equal(first.headers.etag).and.to.be.a('string');
      const conditional = await get('/api/notes?populate=*').set('If-None-Match', first.headers.etag!);
      expect(conditional.status).to.equal(304);
      expect(app.kit.api.cache!.summary).to.match(/response cache of 8 MB/);
    });

    it('shows a write through the API to the next read', async () => {
      const path = `/api/notes/${app.id('note', 'a1')}?populate=*`;
      await get(path);
      expect(cacheOutcome(await get(path))).to.equal('hit');
      const put = await get('/').then(() => app.request.put(path.replace('?populate=*', '')).set(MODERATOR).send({ data: { title: 'm-alice-visible (edited)' } }));
      expect(put.status, put.text).to.equal(200);
      const after = await get(path);
      expect(cacheOutcome(after)).to.equal('miss');
      expect(after.body.data.attributes.title).to.equal('m-alice-visible (edited)');
    });

    it('shows a write through api.models and through the host knex to the next read', async () => {
      const path = '/api/notes?fields[0]=title';
      await settle();
      await get(path);
      expect(cacheOutcome(await get(path))).to.equal('hit');
      await app.kit.api.models.models.get('api::note.note')!.query().findById(app.id('note', 'b1')).patch({ title: 'b-bob-visible (model)' } as never);
      const afterModel = await get(path);
      expect(titles(afterModel.body)).to.include('b-bob-visible (model)');
      await get(path);
      await app.kit.knex('notes').where({ id: app.id('note', 'b1') }).update({ title: 'b-bob-visible (knex)' });
      expect(titles((await get(path)).body)).to.include('b-bob-visible (knex)');
      await app.kit.knex.transaction(async (trx) => {
        await trx('notes').where({ id: app.id('note', 'b1') }).update({ title: 'b-bob-visible (transaction)' });
      });
      expect(titles((await get(path)).body)).to.include('b-bob-visible (transaction)');
    });

    it('shows a write from another connection within the window', async () => {
      const path = '/api/notes?fields[0]=title&sort=title';
      await settle();
      await get(path);
      expect(cacheOutcome(await get(path))).to.equal('hit');
      await other('notes').where({ id: app.id('note', 'a1') }).update({ title: 'm-alice-visible (elsewhere)' });
      let seen = false;
      for (let waited = 0; waited < 2000 && !seen; waited += 10) {
        seen = titles((await get(path)).body).includes('m-alice-visible (elsewhere)');
        if (!seen) await sleep(10);
      }
      expect(seen).to.equal(true);
    });

    it('keeps the answers of tables nobody wrote', async () => {
      const members = '/api/members?fields[0]=name';
      await settle();
      await get(members);
      expect(cacheOutcome(await get(members))).to.equal('hit');
      await app.kit.knex('tags').where({ id: app.id('tag', 'open') }).update({ name: 'open (renamed)' });
      expect(cacheOutcome(await get(members))).to.equal('hit');
      await settle();
      expect(cacheOutcome(await get(members))).to.equal('hit');
      expect((await get('/api/tags')).body.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).to.include('open (renamed)');
    });

    it('never gives one caller the answer of another whose rules bind other values', async () => {
      const alice = await get('/api/notes', { 'x-member': 'alice' });
      const bob = await get('/api/notes', { 'x-member': 'bob' });
      expect(cacheOutcome(bob)).to.equal('miss');
      expect(bob.text).not.to.equal(alice.text);
      expect(cacheOutcome(await get('/api/notes', { 'x-member': 'alice' }))).to.equal('hit');
      const again = await get('/api/notes', { 'x-member': 'bob' });
      expect([cacheOutcome(again), again.text]).to.deep.equal(['hit', bob.text]);
      const anonymous = await get('/api/notes');
      expect(anonymous.text).not.to.equal(alice.text);
    });

    it('keeps an entry per id', async () => {
      const one = await get(`/api/notes/${app.id('note', 'a1')}`);
      const other = await get(`/api/notes/${app.id('note', 'b1')}`);
      expect(one.body.data.id).to.equal(app.id('note', 'a1'));
      expect(other.body.data.id).to.equal(app.id('note', 'b1'));
      expect((await get(`/api/notes/${app.id('note', 'b1')}`)).body.data.id).to.equal(app.id('note', 'b1'));
    });

    it('never keeps rules that read the clock', async () => {
      await get('/api/notes', { 'x-member': 'clock' });
      expect(cacheOutcome(await get('/api/notes', { 'x-member': 'clock' }))).to.equal('miss');
    });

    it('starts afresh when permissions.yaml is reloaded', async () => {
      await get('/api/tags');
      expect(cacheOutcome(await get('/api/tags'))).to.equal('hit');
      await app.kit.api.reloadPermissions();
      expect(cacheOutcome(await get('/api/tags'))).to.equal('miss');
    });
  });
}

describe('response cache bounds (sqlite)', () => {
  it('keeps no body above the entry bound, and never more bytes than its bound', async () => {
    const app = await cachedRulesApp({ cache: { maxBytes: 6000, maxEntryBytes: 700 } });
    try {
      const large = '/api/notes?populate=*&pagination[pageSize]=100';
      expect((await app.request.get(large)).text.length).to.be.above(700);
      expect(cacheOutcome(await app.request.get(large))).to.equal('miss');
      for (let index = 0; index < 40; index += 1) {
        await app.request.get(`/api/tags?pagination[page]=${index + 1}`);
        expect(app.kit.api.cache!.bytes()).to.be.at.most(6000);
      }
      expect(app.kit.api.cache!.counters.dropped).to.be.above(0);
      const last = '/api/tags?pagination[page]=40';
      expect(cacheOutcome(await app.request.get(last))).to.equal('hit');
    } finally {
      await app.kit.close();
    }
  });

  it('never keeps drafts', async () => {
    const kit = await createTestApi({ root: repoRoot, serverTiming: true, cache: { maxBytes: '1MB' } });
    try {
      const editor = { Authorization: 'Bearer demo-editor-token' };
      for (const path of ['/api/articles?publicationState=preview', '/api/categories?populate[articles][publicationState]=preview']) {
        await kit.request.get(path).set(editor);
        const again = await kit.request.get(path).set(editor);
        expect([again.status, cacheOutcome(again)], path).to.deep.equal([200, 'miss']);
      }
      await kit.request.get('/api/articles').set(editor);
      expect(cacheOutcome(await kit.request.get('/api/articles').set(editor))).to.equal('hit');
    } finally {
      await kit.close();
    }
  });
});
