/**
 * Webhooks that are never lost: `content-api serve` killed (SIGKILL) right after its writes
 * commit, with the receiver down, delivers every event after a restart, once; two deliverers on
 * one database, and serve --workers 2, send each event once; and the CLI shows and replays the
 * deliveries.
 */
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentApi, type ContentApi } from '../../plugin/index.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { DELIVERIES_TABLE, EVENTS_TABLE } from '../../plugin/webhooks/tables.js';
import { testDatabaseKinds } from '../support/databases.js';
import { runCli } from '../support/run-node.js';
import { freePort, startServer } from '../support/server.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { WRITE_PERMISSIONS } from '../writes/support/write-api.js';
import { startReceiver, until, type Receiver } from './support/receiver.js';

const EDITOR = { Authorization: 'Bearer editor-token', 'Content-Type': 'application/json' };

/** Kills its own process once the write of the category named by KILL_AFTER has committed. */
const KILLING_HOOKS = `export default {
  afterCreate(event) {
    if (process.env.KILL_AFTER && event.entry.attributes.name === process.env.KILL_AFTER) process.kill(process.pid, 'SIGKILL');
  },
};
`;

function targetYaml(port: number, name = 'main'): string {
  return `targets:\n  ${name}:\n    url: http://127.0.0.1:${port}/hook\n    secret: receiver-secret\n    events: [entry.create]\n    types: [category]\n`;
}

for (const kind of testDatabaseKinds()) {
  describe(`webhooks: durability (${kind.name})`, function () {
    this.timeout(90_000);
    let fixture: FreshFixture;
    let receiver: Receiver | null = null;

    before(async function () {
      this.timeout(120_000);
      fixture = await freshFixture(kind.client, WRITE_PERMISSIONS);
    });
    after(async () => {
      await receiver?.close();
      await fixture?.drop();
    });

    it('a server killed right after its writes commit delivers every event after a restart, once each', async () => {
      const port = await freePort();
      writeFileSync(join(fixture.root, 'webhooks.yaml'), targetYaml(port));
      writeFileSync(join(fixture.root, 'content-types', 'category.lifecycles.mjs'), KILLING_HOOKS);
      const names = ['one', 'two', 'three', 'four', 'five', 'killed'];
      const first = await startServer({ root: fixture.root, database: fixture.url, args: ['--quiet'], env: { KILL_AFTER: 'killed' } });
      const exited = new Promise<string | null>((resolve) => first.child.once('exit', (_code, signal) => resolve(signal)));
      for (const name of names) {
        const sent = fetch(`${first.baseUrl}/api/categories`, { method: 'POST', headers: EDITOR, body: JSON.stringify({ data: { name } }) });
        if (name !== 'killed') expect((await sent).status).to.equal(200);
        else await sent.then(
          () => expect.fail('the server answered'),
          () => undefined,
        );
      }
      expect(await exited).to.equal('SIGKILL');
      const knex = openDatabase(fixture.url);
      try {
        expect(Number((await knex(EVENTS_TABLE).count({ n: '*' }))[0]!.n)).to.equal(names.length);
        receiver = await startReceiver('receiver-secret', port);
        const second = await startServer({ root: fixture.root, database: fixture.url, args: ['--quiet'] });
        try {
          const got = await receiver.waitFor(names.length, 20_000);
          expect(got.map((request) => request.body.entry!.name)).to.deep.equal(names);
          expect(got.every((request) => request.signed)).to.equal(true);
          expect(new Set(got.map((request) => request.headers['x-webhook-id'])).size).to.equal(names.length);
          await until(async () => Number((await knex(DELIVERIES_TABLE).where({ state: 'delivered' }).count({ n: '*' }))[0]!.n) === names.length);
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(receiver.received).to.have.length(names.length);
        } finally {
          await second.stop();
        }
      } finally {
        await knex.destroy();
      }
    });

    it('content-api webhooks lists the targets and deliveries, and retry sends one again', async () => {
      const listed = await runCli(['webhooks', 'list', '--root', fixture.root, '--database', fixture.url]);
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.stdout).to.match(/^main {2}http:\/\/127\.0\.0\.1:\d+\/hook \(entry\.create\) {2}pending 0, delivered 6, failed 0$/m);
      const shown = await runCli(['webhooks', 'deliveries', '--limit', '2', '--root', fixture.root, '--database', fixture.url]);
      expect(shown.code, shown.stderr).to.equal(0);
      const lines = shown.stdout.trim().split('\n');
      expect(lines).to.have.length(2);
      expect(lines[0]).to.match(/^6 {2}\S+ {2}main {2}entry\.create api::category\.category {2}delivered, 1 attempt last 200 {2}event [0-9a-f-]{36}$/);
      const retried = await runCli(['webhooks', 'retry', '6', '--root', fixture.root, '--database', fixture.url]);
      expect(retried.code, retried.stderr).to.equal(0);
      const server = await startServer({ root: fixture.root, database: fixture.url, args: ['--quiet'] });
      try {
        const got = await receiver!.waitFor(7);
        expect(got[6].headers['x-webhook-id']).to.equal(got[5].headers['x-webhook-id']);
      } finally {
        await server.stop();
      }
      const missing = await runCli(['webhooks', 'retry', '999', '--root', fixture.root, '--database', fixture.url]);
      expect([missing.code, missing.stderr]).to.deep.equal([1, 'content-api webhooks: no delivery 999\n']);
    });

    it(`serve --workers 2 delivers each event once (${kind.client === 'sqlite' ? 'the primary delivers' : 'every worker delivers, SKIP LOCKED'})`, async () => {
      writeFileSync(join(fixture.root, 'content-types', 'category.lifecycles.mjs'), 'export default {};\n');
      receiver!.received.length = 0;
      receiver!.delivered.length = 0;
      const server = await startServer({ root: fixture.root, database: fixture.url, args: ['--quiet', '--workers', '2'] });
      const knex = openDatabase(fixture.url);
      try {
        const before = Number((await knex(EVENTS_TABLE).max({ n: 'id' }))[0]!.n);
        const count = 12;
        for (let index = 0; index < count; index += 2) {
          const pair = [index, index + 1].map((at) => fetch(`${server.baseUrl}/api/categories`, { method: 'POST', headers: EDITOR, body: JSON.stringify({ data: { name: `worker ${at}` } }) }));
          for (const response of await Promise.all(pair)) expect(response.status).to.equal(200);
        }
        const got = await receiver!.waitFor(count, 20_000);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(receiver!.received).to.have.length(count);
        const written = (await knex(EVENTS_TABLE).where('id', '>', before).orderBy('id').select('event_id')).map((row: { event_id: string }) => row.event_id);
        expect(got.map((request) => request.headers['x-webhook-id'])).to.deep.equal(written);
      } finally {
        await knex.destroy();
        await server.stop();
      }
    });

    it(`two deliverers (two APIs, each with its own connections) on one database send each event once, in order (${kind.client === 'sqlite' ? 'a lease' : 'SKIP LOCKED'})`, async () => {
      receiver!.received.length = 0;
      receiver!.delivered.length = 0;
      // A slow receiver: both deliverers are at work at once.
      receiver!.answer = (_request, response) => void setTimeout(() => (response.writeHead(200), response.end('ok')), 15);
      const options = { root: fixture.root, database: fixture.url, watchPermissions: false, resolveRole: () => 'editor', webhooks: { pollInterval: 20, watch: false } };
      const apis: ContentApi[] = [await contentApi(options), await contentApi(options)];
      try {
        const before = Number((await apis[0]!.knex(EVENTS_TABLE).max({ n: 'id' }))[0]!.n);
        const count = 40;
        // Writes through the routes, half through each API.
        const agents = apis.map((api) => supertest(new Koa().use(api.routes()).callback()));
        for (let index = 0; index < count; index += 1) {
          expect((await agents[index % 2]!.post('/api/categories').send({ data: { name: `pair ${index}` } })).status).to.equal(200);
        }
        const got = await receiver!.waitFor(count, 30_000);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(receiver!.received).to.have.length(count);
        const ids = got.map((request) => String(request.headers['x-webhook-id']));
        expect(new Set(ids).size).to.equal(count);
        const order = (await apis[0]!.knex(EVENTS_TABLE).where('id', '>', before).orderBy('id').select('event_id')).map((row: { event_id: string }) => row.event_id);
        expect(ids).to.deep.equal(order);
      } finally {
        await Promise.all(apis.map((api) => api.close()));
      }
    });
  });
}
