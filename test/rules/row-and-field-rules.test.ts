/**
 * Rules per row and per field (permissions.yaml, test/rules/app): the rows and attributes a rule
 * hides hold canaries ("hidden" in titles, "CANARY" in values), and no route, populate depth,
 * filter, sort, count, `_q` or write answer may show one or betray it — a probe with a hidden
 * value answers as a probe with a value that exists nowhere. Writes outside a row rule change
 * nothing. The end user is set by host code (`ctx.state.user`), as an app's login would.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import { createTestApi, testDatabases, type TestApi } from '../../plugin/testing/index.js';
import { parsePermissions } from '../../plugin/access/permissions.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { repoRoot } from '../support/api.js';
import { queryGrammar } from '../support/query-grammar.js';
import { appWithMembers } from '../support/member-app.js';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

const APP = join(repoRoot, 'test/rules/app');
const NOW = Date.parse('2026-06-01T00:00:00.000Z');
const READER_TOKEN = 'rules-test-reader-token';

interface Entry {
  readonly id: number;
  readonly attributes: Record<string, unknown>;
}

for (const database of testDatabases()) {
  describe(`row and field rules (${database})`, () => {
    let kit: TestApi;
    let request: supertest.Agent;
    const id = (type: string, name: string) => kit.ids.get(`api::${type}.${type}`)!.get(name)!;
    const as = (who: string) => ({ 'x-member': who });
    const titles = (body: { data: Entry[] }) => body.data.map((entry) => entry.attributes.title);

    before(async () => {
      kit = await createTestApi({ root: APP, data: join(APP, 'data.yaml'), database, serverTiming: true, now: () => NOW });
      const members: Record<string, Record<string, unknown>> = {
        alice: { id: id('member', 'alice'), role: 'author' },
        bob: { id: id('member', 'bob'), role: 'author' },
        // An author the host knows no id of: $user.id is missing, so the rules match nothing.
        ghost: { role: 'author' },
        clock: { role: 'scheduled' },
        moderator: { role: 'moderator' },
      };
      request = supertest.agent(appWithMembers(kit.api, members).callback());
    });
    after(() => kit.close());

    describe('the public role', () => {
      const sweep = () => [
        '/api/notes',
        '/api/notes?populate=*',
        '/api/notes?populate[tag][fields][0]=name&populate[tag][fields][1]=secretCode',
        '/api/notes?fields[0]=title&fields[1]=internalNotes',
        '/api/notes?pagination[pageSize]=1&pagination[page]=2',
        ...['a1', 'a2', 'b1', 'b2'].map((name) => `/api/notes/${id('note', name)}?populate=*`),
        '/api/members?populate[notes][populate][tag]=*',
        '/api/members?populate=*',
        '/api/members?populate[notes][populate][owner][populate][notes][populate]=*',
        '/api/members?populate[notes][count]=true',
        '/api/members?fields[0]=email',
        '/api/tags?populate=*',
        '/api/notes?_q=CANARY',
        '/api/notes?_q=hidden',
        '/api/members?_q=CANARY',
        '/api/notes?filters[internalNotes][$containsi]=canary',
        '/api/members?filters[email][$containsi]=canary',
        '/api/notes?filters[tag][secretCode][$eq]=CANARY-closed',
        '/api/notes?sort=internalNotes',
        '/api/notes?sort=tag.secretCode',
        '/api/members?sort=notes.internalNotes',
      ];

      it('never shows a hidden row or a denied attribute, through any route or depth', async () => {
        for (const path of sweep()) {
          const response = await request.get(path);
          expect([200, 400, 404], path).to.include(response.status);
          expect(response.text, path).not.to.match(/CANARY|hidden/i);
        }
      });

      it('lists and finds only the rows its rule matches, in one statement', async () => {
        const list = await request.get('/api/notes?sort=title');
        expect(titles(list.body)).to.deep.equal(['b-bob-visible', 'm-alice-visible']);
        expect(list.body.meta.pagination.total).to.equal(2);
        expect(list.headers['server-timing']).to.contain('statements=1');
        expect((await request.get(`/api/notes/${id('note', 'a2')}`)).status).to.equal(404);
        const deep = await request.get('/api/members?populate[notes][populate][tag]=*&filters[notes][title][$startsWith]=m');
        expect(deep.headers['server-timing']).to.contain('statements=1');
      });

      it('answers a probe with a hidden value as one with a value that exists nowhere', async () => {
        const pairs: [string, string][] = [
          ['/api/members?filters[notes][title][$startsWith]=a-hidden', '/api/members?filters[notes][title][$startsWith]=nowhere'],
          ['/api/notes?filters[tag][name][$eq]=closed-hidden', '/api/notes?filters[tag][name][$eq]=nowhere'],
          ['/api/notes?filters[tag][id][$eq]=' + id('tag', 'closed'), '/api/notes?filters[tag][id][$eq]=999999'],
          ['/api/members?filters[notes][id][$eq]=' + id('note', 'b2'), '/api/members?filters[notes][id][$eq]=999999'],
        ];
        for (const [probe, control] of pairs) {
          const [a, b] = [await request.get(probe), await request.get(control)];
          expect(a.status, probe).to.equal(200);
          expect(a.body, probe).to.deep.equal(b.body);
        }
      });

      it('counts, sorts and tests for absence as if hidden rows did not exist', async () => {
        // Alice's smallest title is hidden ("a-hidden-alice"): sorted on what is visible, Bob comes first.
        const sorted = await request.get('/api/members?sort[0]=notes.title:asc&fields[0]=name');
        expect(sorted.body.data.map((entry: Entry) => entry.attributes.name)).to.deep.equal(['Bob', 'Alice']);
        const counted = await request.get('/api/members?populate[notes][count]=true&sort=name');
        expect(counted.body.data.map((entry: Entry) => (entry.attributes.notes as { data: { attributes: { count: number } } }).data.attributes.count)).to.deep.equal([1, 1]);
        // Bob's note is tagged with a tag the public may not see: it reads as untagged, and filters as untagged.
        const untagged = await request.get('/api/notes?filters[tag][name][$null]=true');
        expect(titles(untagged.body)).to.deep.equal(['b-bob-visible']);
        const populated = await request.get(`/api/notes/${id('note', 'b1')}?populate=tag`);
        expect(populated.body.data.attributes.tag).to.deep.equal({ data: null });
      });

      it('refuses a denied attribute in filters and sort with the words of an unknown one', async () => {
        const denied = await request.get('/api/members?filters[email][$eq]=x');
        const unknown = await request.get('/api/members?filters[emial][$eq]=x');
        expect(denied.status).to.equal(400);
        expect(denied.body.error.message).to.equal('Invalid parameter "email": api::member.member has no attribute by that name that can be filtered (at filters)');
        expect(unknown.body.error.message).to.match(/^Invalid parameter "emial": api::member.member has no attribute by that name that can be filtered/);
        expect((await request.get('/api/notes?sort=tag.secretCode')).status).to.equal(400);
        // The populated type's rule applies to its own filters too.
        expect((await request.get('/api/notes?populate[tag][filters][secretCode][$eq]=CANARY-open')).status).to.equal(400);
      });

      it('may not write', async () => {
        expect((await request.post('/api/notes').send({ data: { title: 'x' } })).status).to.equal(403);
      });
    });

    describe('an author', () => {
      const rowOf = async (name: string) => kit.knex('notes').where({ id: id('note', name) }).first();

      it('reads only their own notes', async () => {
        const list = await request.get('/api/notes?sort=title').set(as('alice'));
        expect(titles(list.body)).to.deep.equal(['a-hidden-alice', 'm-alice-visible']);
        expect(list.body.data[0].attributes.internalNotes).to.equal('CANARY-a2');
        expect((await request.get(`/api/notes/${id('note', 'b1')}`).set(as('alice'))).status).to.equal(404);
      });

      it('cannot change or delete the notes of others: a 404, and nothing changes', async () => {
        const before = await rowOf('b1');
        const update = await request.put(`/api/notes/${id('note', 'b1')}`).set(as('alice')).send({ data: { title: 'taken' } });
        expect(update.status).to.equal(404);
        expect((await request.delete(`/api/notes/${id('note', 'b2')}`).set(as('alice'))).status).to.equal(404);
        expect(await rowOf('b1')).to.deep.equal(before);
        expect(await rowOf('b2')).to.not.equal(undefined);
      });

      it('is refused the attributes the rule denies, naming them', async () => {
        const featured = await request.put(`/api/notes/${id('note', 'a1')}`).set(as('alice')).send({ data: { featured: false, owner: id('member', 'bob') } });
        expect(featured.status).to.equal(400);
        expect(featured.body.error.details.errors.map((problem: { path: string[] }) => problem.path.join('.'))).to.deep.equal(['featured', 'owner']);
        const renamed = await request.put(`/api/notes/${id('note', 'a1')}?fields[0]=title`).set(as('alice')).send({ data: { title: 'm-alice-renamed' } });
        expect(renamed.status).to.equal(200);
        expect(renamed.body.data.attributes).to.deep.equal({ title: 'm-alice-renamed' });
      });

      it('creates notes owned by themselves, whatever the body says', async () => {
        const created = await request.post('/api/notes?populate[owner][fields][0]=name').set(as('bob')).send({ data: { title: 'bob-new', owner: id('member', 'alice') } });
        expect(created.status).to.equal(200);
        expect(created.body.data.attributes.owner.data.attributes.name).to.equal('Bob');
        expect((await request.post('/api/notes').set(as('bob')).send({ data: { title: 'x', featured: true } })).status).to.equal(400);
        const deleted = await request.delete(`/api/notes/${created.body.data.id}`).set(as('bob'));
        expect(deleted.status).to.equal(200);
      });

      it('without an id known to the host, sees nothing and writes nothing', async () => {
        const list = await request.get('/api/notes').set(as('ghost'));
        expect(list.status).to.equal(200);
        expect(list.body.data).to.deep.equal([]);
        const created = await request.post('/api/notes').set(as('ghost')).send({ data: { title: 'x' } });
        expect(created.status).to.equal(403);
        expect(await kit.knex('notes').where({ title: 'x' }).first()).to.equal(undefined);
      });
    });

    it('answers a write with what the role may read only', async () => {
      const response = await request.put(`/api/notes/${id('note', 'b1')}?populate=*`).set(as('moderator')).send({ data: { internalNotes: 'CANARY-moderated' } });
      expect(response.status).to.equal(200);
      expect(response.text).not.to.match(/CANARY|hidden/);
      expect(response.body.data.attributes.tag).to.deep.equal({ data: null });
      expect((await kit.knex('notes').where({ id: id('note', 'b1') }).first()).internal_notes).to.equal('CANARY-moderated');
    });

    it('shows no role what its rules hide, through random queries of the whole language', async () => {
      const callers: { name: string; headers: Record<string, string>; hidden: RegExp }[] = [
        { name: 'public', headers: {}, hidden: /CANARY|hidden/ },
        { name: 'alice', headers: as('alice'), hidden: /bob-visible|hidden-bob|CANARY-b[12]/ },
        { name: 'moderator', headers: as('moderator'), hidden: /CANARY-[ab][12]|CANARY-moderated|closed-hidden|CANARY-closed/ },
        { name: 'reader', headers: { authorization: `Bearer ${READER_TOKEN}` }, hidden: /alice-visible|hidden-alice|CANARY-a[12]/ },
      ];
      for (const caller of callers) {
        const next = queryGrammar(kit.api.registry, 20261126 + caller.name.length);
        for (let index = 0; index < 150; index += 1) {
          const path = next();
          const response = await request.get(path).set(caller.headers);
          expect(response.status, `${caller.name} ${path}`).to.be.below(500);
          expect(response.text, `${caller.name} ${path}`).not.to.match(caller.hidden);
        }
      }
    });

    it('binds $now to the request time, and a token’s claims to $claims', async () => {
      const scheduled = await request.get('/api/notes?sort=title').set(as('clock'));
      expect(titles(scheduled.body)).to.deep.equal(['b-bob-visible', 'm-alice-visible']);
      const reader = await request.get('/api/notes?sort=title').set('Authorization', `Bearer ${READER_TOKEN}`);
      expect(titles(reader.body)).to.deep.equal(['b-bob-visible', 'z-hidden-bob']);
    });
  });
}

describe('row and field rules in permissions.yaml', () => {
  let registry: TestApi['api']['registry'];
  before(async () => {
    const kit = await createTestApi({ root: APP });
    registry = kit.api.registry;
    await kit.close();
  });

  it('reads the rules of the example file', () => {
    const permissions = parsePermissions(readFileSync(join(APP, 'permissions.yaml'), 'utf8'), 'permissions.yaml', registry);
    const author = permissions.roles.get('author')!.get('api::note.note')!;
    expect([...author.keys()]).to.deep.equal(['find', 'findOne', 'create', 'update', 'delete']);
    expect([...author.get('update')!.fields!.names]).to.deep.equal(['owner', 'featured']);
  });

  it('reports every problem of the rules with line and column', () => {
    const text = [
      'roles:',
      '  author:',
      '    note:',
      '      find: { where: { owner: { id: $usr.id } } }',
      '      update: { where: { titel: { $eq: x } }, fields: { only: [title], except: [owner] } }',
      '      delete: { set: { title: x } }',
      '      findOne: yes',
      '      create: { set: { nobody: 1 } }',
    ].join('\n');
    const error = (() => {
      try {
        parsePermissions(text, 'permissions.yaml', registry);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).to.be.instanceOf(SchemaError);
    const lines = (error as SchemaError).problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`);
    expect(lines).to.have.length(6);
    expect(lines[0]).to.match(/^4:\d+ unknown variable \$usr\.id/);
    expect(lines[1]).to.match(/^5:\d+ Invalid parameter "titel"/);
    expect(lines[2]).to.match(/^5:\d+ expected \{ only: \[names\] \} or \{ except: \[names\] \}/);
    expect(lines[3]).to.match(/^6:\d+ unknown key "set" for delete/);
    expect(lines[4]).to.match(/^7:\d+ expected true or a map of where, fields/);
    expect(lines[5]).to.match(/^8:\d+ unknown attribute "nobody"/);
  });
});
