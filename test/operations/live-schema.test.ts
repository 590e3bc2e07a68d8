/**
 * `serve --watch` on a temporary copy of the example schema, on both engines: an attribute added
 * to a content type file is synced and served within seconds; a broken edit keeps the running
 * schema and prints its problems with file, line and column; the fixed file is served; a
 * permissions edit is in force too.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../plugin/storage/database.js';
import { repoRoot } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { startServer, type RunningServer } from '../support/server.js';

const POLL_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks until `accept` holds for the answer, for up to 5 s; the last answer otherwise. */
async function poll(url: string, accept: (status: number, body: any) => boolean): Promise<{ status: number; body: any }> {
  const deadline = Date.now() + POLL_MS;
  for (;;) {
    const response = await fetch(url);
    const answer = { status: response.status, body: await response.json() };
    if (accept(answer.status, answer.body) || Date.now() > deadline) return answer;
    await sleep(100);
  }
}

async function getJson(url: string): Promise<any> {
  return (await fetch(url)).json();
}

/** Waits until the server has printed `pattern` `count` times, for up to 5 s; what it printed. */
async function printed(server: RunningServer, pattern: RegExp, count: number): Promise<string> {
  const deadline = Date.now() + POLL_MS;
  const times = () => server.output().split(pattern).length - 1;
  while (times() < count && Date.now() < deadline) await sleep(100);
  return server.output();
}

function withAttribute(text: string, yaml: string): string {
  return text.replace('attributes:\n', `attributes:\n${yaml}`);
}

for (const kind of testDatabaseKinds()) {
  describe(`live schema editing: serve --watch (${kind.name})`, function () {
    this.timeout(60_000);
    let root: string;
    let database: TestDatabase;
    let knex: Knex;
    let server: RunningServer;
    let categoryFile: string;
    let original: string;
    before(async () => {
      root = mkdtempSync(join(tmpdir(), 'content-api-watch-'));
      for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
      categoryFile = join(root, 'content-types', 'category.yaml');
      original = readFileSync(categoryFile, 'utf8');
      database = await createTestDatabase(kind.client);
      server = await startServer({ root, database: database.url, args: ['--watch', '--quiet'] });
      knex = openDatabase(database.url);
      await knex('categories').insert({ name: 'Food', slug: 'food' });
    });
    after(async () => {
      await knex?.destroy();
      await server?.stop();
      await database?.drop();
      rmSync(root, { recursive: true, force: true });
    });

    it('serves an attribute added to a content type file, synced into the database', async () => {
      const before = await getJson(`${server.baseUrl}/api/categories`);
      expect(before.data[0].attributes).to.not.have.property('tagline');
      writeFileSync(categoryFile, withAttribute(original, '  tagline:\n    type: string\n'));
      const after = await poll(`${server.baseUrl}/api/categories`, (_status, body) => body.data?.[0]?.attributes && 'tagline' in body.data[0].attributes);
      expect(after.status, server.output()).to.equal(200);
      expect(after.body.data[0].attributes, server.output()).to.include({ name: 'Food', tagline: null });
      await knex('categories').update({ tagline: 'Eat well' });
      expect((await getJson(`${server.baseUrl}/api/categories?fields[0]=tagline`)).data[0].attributes).to.deep.equal({ tagline: 'Eat well' });
      expect(server.output()).to.match(/schema reloaded/);
    });

    it('keeps the running schema when an edit is broken, printing every problem with file, line and column', async () => {
      const stillServed = async () => (await getJson(`${server.baseUrl}/api/categories?fields[0]=tagline`)).data[0].attributes;
      writeFileSync(categoryFile, withAttribute(original, '  tagline: [unclosed\n    type: string\n'));
      const syntax = await printed(server, /schema not reloaded/g, 1);
      expect(syntax).to.match(/schema not reloaded, the running schema stays/);
      expect(syntax).to.match(/content-types\/category\.yaml:1[3-5]:\d+/);
      expect(await stillServed(), 'the previous schema still serves').to.deep.equal({ tagline: 'Eat well' });

      writeFileSync(categoryFile, withAttribute(original, '  tagline:\n    type: strin\n  motto:\n    type: string\n    required: maybe\n'));
      const problems = (await printed(server, /schema not reloaded/g, 2)).split('schema not reloaded').at(-1)!;
      expect(problems).to.match(/content-types\/category\.yaml:14:\d+ attributes\.tagline\.type/);
      expect(problems).to.match(/content-types\/category\.yaml:17:\d+ attributes\.motto\.required/);
      expect(await stillServed()).to.deep.equal({ tagline: 'Eat well' });

      writeFileSync(categoryFile, withAttribute(original, '  tagline:\n    type: string\n  motto:\n    type: string\n'));
      const fixed = await poll(`${server.baseUrl}/api/categories?fields[0]=motto&fields[1]=tagline`, (status) => status === 200);
      expect(fixed.body.data?.[0]?.attributes, server.output()).to.deep.equal({ motto: null, tagline: 'Eat well' });
    });

    it('rebuilds on SIGHUP', async () => {
      const reloads = server.output().split('schema reloaded').length - 1;
      server.child.kill('SIGHUP');
      const text = await printed(server, /schema reloaded/g, reloads + 1);
      expect(text.split('schema reloaded').length - 1, text).to.equal(reloads + 1);
      expect((await fetch(`${server.baseUrl}/api/categories`)).status).to.equal(200);
    });

    it('puts a permissions edit in force', async () => {
      const permissions = join(root, 'permissions.yaml');
      writeFileSync(permissions, readFileSync(permissions, 'utf8').replace('    category: [find, findOne]\n    restaurant: [findOne]', '    restaurant: [findOne]'));
      const refused = await poll(`${server.baseUrl}/api/categories`, (status) => status === 403);
      expect(refused.status, server.output()).to.equal(403);
    });
  });
}
