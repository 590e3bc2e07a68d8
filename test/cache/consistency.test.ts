/**
 * The response cache's promise, under load, on each engine: writers — through this process's API
 * and `api.models`, through the API of a second server process, and through plain SQL on a
 * connection of their own, as a Strapi admin would — and readers of both servers with different
 * roles and row rules run together. Every read that starts after a write was acknowledged sees
 * that write or a later one: at once through the server that made it, within the window through
 * the other (CACHE_CONSISTENCY_WINDOW_MS, default 250 ms: the documented window is a few ms; this
 * bound leaves room for a loaded machine). No caller ever gets the notes of another's rules.
 * It runs CACHE_CONSISTENCY_SECONDS (default 10).
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestApi, testDatabases, type TestApi } from '../../plugin/testing/index.js';
import { appWithMembers } from '../support/member-app.js';
import { cliPath, startServer, type RunningServer } from '../support/server.js';
import { consistencyApp, databaseUrl, NOTES, TOKENS, WRITERS, type Writer } from './consistency-app.js';
import { cacheOutcome, elsewhere, sleep } from './support.js';
import type supertest from 'supertest';

const SECONDS = Number(process.env.CACHE_CONSISTENCY_SECONDS ?? 10);
const WINDOW_MS = Number(process.env.CACHE_CONSISTENCY_WINDOW_MS ?? 250);
const PORTS: Readonly<Record<string, number>> = { sqlite: 4741, postgres: 4742, mysql: 4743 };

type Server = 'A' | 'B';
/** Where a write comes from, as each server sees it. */
const WRITTEN_THROUGH: Readonly<Record<Writer, Server | 'elsewhere'>> = { api: 'A', models: 'A', remote: 'B', sql: 'elsewhere' };

interface Caller {
  readonly via: Server;
  readonly name: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The notes its rules let it see. */
  readonly sees: (note: string) => boolean;
}

const OWNERS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(NOTES).map(([name, note]) => [name, note.owner]));
const FEATURED = (note: string) => NOTES[note]?.featured === true;

const CALLERS: readonly Caller[] = [
  { via: 'A', name: 'public', headers: {}, sees: FEATURED },
  { via: 'A', name: 'alice', headers: { 'x-member': 'alice' }, sees: (note) => OWNERS[note] === 'alice' },
  { via: 'A', name: 'bob', headers: { 'x-member': 'bob' }, sees: (note) => OWNERS[note] === 'bob' },
  { via: 'A', name: 'moderator', headers: { 'x-member': 'moderator' }, sees: () => true },
  { via: 'B', name: 'public', headers: {}, sees: FEATURED },
  { via: 'B', name: 'reader alice', headers: { authorization: `Bearer ${TOKENS.alice}` }, sees: (note) => OWNERS[note] === 'alice' },
  { via: 'B', name: 'reader bob', headers: { authorization: `Bearer ${TOKENS.bob}` }, sees: (note) => OWNERS[note] === 'bob' },
  { via: 'B', name: 'moderator', headers: { authorization: `Bearer ${TOKENS.moderator}` }, sees: () => true },
];
/** The reads, each of one writer's table or of several; the notes lists are checked against the caller's rules. */
const NOTE_LISTS = ['/api/notes?fields[0]=title&pagination[pageSize]=100', '/api/notes?fields[0]=title&sort=title:desc&populate[tag][fields][0]=name&populate[owner][fields][0]=email'];
const PATHS = [...NOTE_LISTS, '/api/tags?fields[0]=name', '/api/members?fields[0]=email&sort=id', '/api/memos?fields[0]=title'];
const WRITTEN = /^(api|models|sql|remote):(\d+)$/;
/** What a writer reads back at once after each of its writes. */
const PROBES: Readonly<Record<Writer, string>> = { api: NOTE_LISTS[0]!, models: '/api/tags?fields[0]=name', sql: '/api/members?fields[0]=email&sort=id', remote: '/api/memos?fields[0]=title' };

/** Each writer's acknowledged writes, in order: the number in the title, and when the answer came. */
class Ledger {
  private readonly acks = new Map<Writer, { seq: number; at: number }[]>();

  acknowledged(writer: Writer, seq: number): void {
    this.acks.set(writer, [...(this.acks.get(writer) ?? []), { seq, at: performance.now() }]);
  }

  /** The least a read through `via` started at `startedAt` must see of `writer`'s note. */
  required(writer: Writer, via: Server, startedAt: number): number {
    const allowance = WRITTEN_THROUGH[writer] === via ? 0 : WINDOW_MS;
    const acks = this.acks.get(writer) ?? [];
    let required = 0;
    for (const ack of acks) if (ack.at <= startedAt - allowance) required = ack.seq;
    return required;
  }

  /** When `writer`'s write `seq` was acknowledged. */
  ackedAt(writer: Writer, seq: number): number {
    return (this.acks.get(writer) ?? []).find((ack) => ack.seq === seq)?.at ?? Number.NaN;
  }

  /** How long before `at` the first write after `seq` was acknowledged (0: none was). */
  lag(writer: Writer, seq: number, at: number): number {
    const next = (this.acks.get(writer) ?? []).find((ack) => ack.seq > seq);
    return next && next.at < at ? at - next.at : 0;
  }
}

for (const database of testDatabases()) {
  describe(`cache consistency under concurrent writers and readers (${database})`, function () {
    this.timeout(SECONDS * 1000 + 120_000);
    const app = consistencyApp();
    let kit: TestApi;
    let local: supertest.Agent;
    let remote: RunningServer;
    let other: Knex;
    const ids = new Map<string, number>();
    const id = (type: string, name: string) => kit.ids.get(`api::${type}.${type}`)!.get(name)!;

    before(async () => {
      kit = await createTestApi({ root: app.root, data: app.data, database, serverTiming: true, cache: { maxBytes: '16MB' } });
      for (const [name, noteId] of kit.ids.get('api::note.note')!) ids.set(name, noteId);
      const members = { alice: { id: id('member', 'alice'), role: 'author' }, bob: { id: id('member', 'bob'), role: 'author' }, moderator: { role: 'moderator' } };
      local = (await import('supertest')).default.agent(appWithMembers(kit.api, members).callback());
      if (database === 'sqlite') await kit.knex.raw('PRAGMA journal_mode = WAL');
      other = elsewhere(kit.knex);
      const url = databaseUrl(kit.knex);
      remote = await startServer({
        database: url,
        command: [process.execPath, cliPath, 'serve', '--root', app.root, '--database', url, '--host', '127.0.0.1', '--port', String(PORTS[database]), '--no-sync', '--workers', '1', '--quiet', '--cache', '16MB'],
      });
    });
    after(async () => {
      await remote?.stop();
      await other?.destroy();
      await kit?.close();
      app.remove();
    });

    it(`never answers older than an acknowledged write, nor across rules (${SECONDS} s)`, async () => {
      const ledger = new Ledger();
      const problems: string[] = [];
      const counts = { reads: 0, hits: { A: 0, B: 0 }, writes: 0, lag: 0 };
      const until = performance.now() + SECONDS * 1000;
      const write = async (writer: Writer, value: string): Promise<void> => {
        if (writer === 'api') expectOk(await local.put(`/api/notes/${id('note', 'api')}`).set('x-member', 'moderator').send({ data: { title: value } }));
        else if (writer === 'models') await kit.api.models.models.get('api::tag.tag')!.query().findById(id('tag', 'models')).patch({ name: value } as never);
        else if (writer === 'sql') await other('members').where({ id: id('member', 'sql') }).update({ email: value });
        else expectOk(await fetchJson(`${remote.baseUrl}/api/memos/${id('memo', 'remote')}`, { method: 'PUT', headers: { authorization: `Bearer ${TOKENS.moderator}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: value } }) }));
      };
      const readAndCheck = async (caller: Caller, path: string): Promise<void> => {
        const startedAt = performance.now();
        const { status, text, timing } = caller.via === 'A' ? await readLocal(local, path, caller.headers) : await readRemote(remote.baseUrl, path, caller.headers);
        counts.reads += 1;
        if (timing === 'hit') counts.hits[caller.via] += 1;
        if (status !== 200) problems.push(`${caller.via} ${caller.name} ${path}: ${status} ${text.slice(0, 200)}`);
        else check(caller, path, JSON.parse(text) as { data: { id: number }[] }, startedAt, timing);
      };
      const writing = (writer: Writer) => async () => {
        const through = WRITTEN_THROUGH[writer];
        const moderator = CALLERS.find((caller) => caller.via === through && caller.name === 'moderator');
        for (let seq = 1; performance.now() < until; seq += 1) {
          await write(writer, `${writer}:${seq}`);
          ledger.acknowledged(writer, seq);
          counts.writes += 1;
          // Read your write, through the server that made it: no window.
          if (moderator) await readAndCheck(moderator, PROBES[writer]);
          await sleep(10 + Math.random() * 60);
        }
      };
      const reading = (via: Server) => async () => {
        const callers = CALLERS.filter((caller) => caller.via === via);
        while (performance.now() < until) await readAndCheck(callers[Math.floor(Math.random() * callers.length)]!, PATHS[Math.floor(Math.random() * PATHS.length)]!);
      };
      const check = (caller: Caller, path: string, body: { data: { id: number }[] }, startedAt: number, timing: string | null) => {
        if (NOTE_LISTS.includes(path)) {
          const names = body.data.map((entry) => [...ids].find(([, noteId]) => noteId === entry.id)?.[0] ?? `#${entry.id}`).sort();
          const expected = [...ids.keys()].filter(caller.sees).sort();
          if (names.join() !== expected.join()) problems.push(`${caller.via} ${caller.name} saw ${names.join()} (its rules: ${expected.join()})`);
        }
        for (const [writer, seq] of writtenValues(body)) {
          const required = ledger.required(writer, caller.via, startedAt);
          counts.lag = Math.max(counts.lag, ledger.lag(writer, seq, startedAt));
          if (seq < required) problems.push(`${caller.via} ${caller.name} ${path} (${timing}) saw ${writer}:${seq} after ${writer}:${required} was acknowledged ${Math.round(startedAt - ledger.ackedAt(writer, required))} ms before the read`);
        }
      };
      await Promise.all([...WRITERS.map((writer) => writing(writer)()), reading('A')(), reading('A')(), reading('A')(), reading('B')(), reading('B')(), reading('B')()]);
      process.stdout.write(`      ${counts.reads} reads (${counts.hits.A} + ${counts.hits.B} from the caches), ${counts.writes} writes; oldest answer seen: ${Math.round(counts.lag)} ms after a newer write was acknowledged\n`);
      expect(problems.slice(0, 10)).to.deep.equal([]);
      expect(counts.hits.A, 'answers from the cache of this process').to.be.above(0);
      expect(counts.hits.B, 'answers from the cache of the other server').to.be.above(0);
    });
  });
}

/** Every `<writer>:<number>` value in an answer, at any depth. */
function writtenValues(value: unknown, found: [Writer, number][] = []): [Writer, number][] {
  if (typeof value === 'string') {
    const match = WRITTEN.exec(value);
    if (match) found.push([match[1] as Writer, Number(match[2])]);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) writtenValues(item, found);
  }
  return found;
}

function expectOk(response: { status: number; text?: string }): void {
  if (response.status !== 200) throw new Error(`write answered ${response.status}: ${response.text ?? ''}`);
}

async function fetchJson(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

async function readLocal(agent: supertest.Agent, path: string, headers: Readonly<Record<string, string>>): Promise<{ status: number; text: string; timing: string | null }> {
  const response = await agent.get(path).set(headers);
  return { status: response.status, text: response.text, timing: cacheOutcome(response) };
}

async function readRemote(baseUrl: string, path: string, headers: Readonly<Record<string, string>>): Promise<{ status: number; text: string; timing: string | null }> {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, text, timing: cacheOutcome({ headers: { 'server-timing': response.headers.get('server-timing') ?? '' } }) };
}
