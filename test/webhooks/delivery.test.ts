/**
 * Webhooks of the API's writes, on the conformance app (whose schema is the reference's): the
 * payloads equal Strapi 4.26.2's recorded ones but for the fields that must differ, each request
 * signed, a target's events in order, a rolled-back write sending nothing, retries with backoff,
 * and the safety rules of a send (no redirects, a timeout, a large answer not read).
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { ATTEMPTS_TABLE, DELIVERIES_TABLE, EVENTS_TABLE } from '../../plugin/webhooks/tables.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { WRITE_PERMISSIONS } from '../writes/support/write-api.js';
import { startReceiver, until, type Receiver } from './support/receiver.js';

const RECORDED = join(repoRoot, 'test', 'webhooks', 'recorded');
const EDITOR = { Authorization: 'Bearer editor-token' };

function recorded(step: string): { headers: Record<string, string>; body: Record<string, unknown> }[] {
  return (JSON.parse(readFileSync(join(RECORDED, `${step}.json`), 'utf8')) as { requests: { headers: Record<string, string>; body: Record<string, unknown> }[] }).requests;
}

/** The payload with the times the run made as "<now>", as the recordings have them. */
function normalized(body: Record<string, unknown>): Record<string, unknown> {
  const entry = { ...(body.entry as Record<string, unknown>) };
  for (const key of ['createdAt', 'updatedAt', 'publishedAt']) if (typeof entry[key] === 'string') entry[key] = '<now>';
  return { ...body, createdAt: '<now>', entry };
}

/** The article the recorder created, with a private attribute and a password. */
const ARTICLE = (JSON.parse(readFileSync(join(RECORDED, 'create.json'), 'utf8')) as { sent: { body: { data: Record<string, unknown> } } }).sent.body.data;

function webhooksYaml(receiver: Receiver, extra = ''): string {
  return `targets:
  main:
    url: ${receiver.url}
    secret: receiver-secret
    headers:
      Authorization: Bearer \${WEBHOOK_TEST_TOKEN}
    events: [entry.create, entry.update, entry.delete, entry.publish, entry.unpublish]
    types: [article, category]
${extra}`;
}

async function serve(client: DatabaseClient, fixture: FreshFixture): Promise<ServedApi> {
  return serveApi({ root: fixture.root, database: fixture.url, watchPermissions: false, webhooks: { retryDelay: 50, maxRetryDelay: 400, pollInterval: 100, watch: false } });
}

for (const kind of testDatabaseKinds()) {
  describe(`webhooks: delivery (${kind.name})`, function () {
    this.timeout(30_000);
    let fixture: FreshFixture;
    let served: ServedApi;
    let receiver: Receiver;

    before(async function () {
      this.timeout(120_000);
      process.env.WEBHOOK_TEST_TOKEN = 'from-the-environment';
      receiver = await startReceiver();
      // Editors may also upload and delete files, for the media events of the upload routes.
      fixture = await freshFixture(kind.client, WRITE_PERMISSIONS.replace('    file: [find, findOne]\n', '    file: [find, findOne, upload, destroy]\n'));
      writeFileSync(join(fixture.root, 'webhooks.yaml'), webhooksYaml(receiver, `  media:\n    url: ${receiver.url}?media\n    secret: receiver-secret\n    events: [media.create, media.delete]\n`));
      served = await serve(kind.client, fixture);
    });
    beforeEach(() => {
      receiver.received.length = 0;
      receiver.delivered.length = 0;
      receiver.answer = () => 'default';
    });
    after(async () => {
      await served?.close();
      await receiver?.close();
      await fixture?.drop();
    });

    const post = (path: string, body: unknown) => served.request.post(path).set(EDITOR).send(body as object);
    const put = (path: string, body: unknown) => served.request.put(path).set(EDITOR).send(body as object);

    it("sends Strapi's payloads for create, update and delete, signed, with the environment's header", async () => {
      const created = await post('/api/articles', { data: ARTICLE });
      expect(created.status).to.equal(200);
      const id = created.body.data.id as number;
      expect((await put(`/api/articles/${id}`, { data: { title: 'Webhook article changed' } })).status).to.equal(200);
      // The recorder unpublished the entry before deleting it.
      expect((await put(`/api/articles/${id}`, { data: { publishedAt: null } })).status).to.equal(200);
      expect((await served.request.delete(`/api/articles/${id}`).set(EDITOR)).status).to.equal(200);
      // create (and publish: a new entry is published), update, update (and unpublish), delete
      const got = await receiver.waitFor(6);
      expect(got.map((request) => request.body.event)).to.deep.equal(['entry.create', 'entry.publish', 'entry.update', 'entry.update', 'entry.unpublish', 'entry.delete']);
      const [create, , update, unpublished, , remove] = got;
      for (const [ours, step] of [
        [create, 'create'],
        [update, 'update'],
        [unpublished, 'update-unpublish-through-content-api'],
        [remove, 'delete'],
      ] as const) {
        const [strapi] = recorded(step);
        const expected = normalized(strapi.body);
        (expected.entry as Record<string, unknown>).id = id;
        expect(normalized(ours.body)).to.deep.equal(expected);
        expect(ours.headers['x-strapi-event']).to.equal(strapi.headers['x-strapi-event']);
        expect(ours.headers['content-type']).to.equal(strapi.headers['content-type']);
      }
      expect(create.text).not.to.include('never in a payload');
      expect(create.text).not.to.include('secret-password');
      for (const request of got) {
        expect(request.signed, 'signature').to.equal(true);
        expect(request.headers.authorization).to.equal('Bearer from-the-environment');
        expect(String(request.headers['x-webhook-id'])).to.match(/^[0-9a-f-]{36}$/);
      }
      expect(new Set(got.map((request) => request.headers['x-webhook-id'])).size).to.equal(6);
    });

    it('sends publish and unpublish after the update that made them, as Strapi\'s admin does', async () => {
      const id = (await post('/api/articles', { data: { title: 'Draft first', publishedAt: null } })).body.data.id as number;
      await put(`/api/articles/${id}`, { data: { publishedAt: '2024-05-01T10:00:00.000Z' } });
      await put(`/api/articles/${id}`, { data: { publishedAt: null } });
      const got = await receiver.waitFor(5);
      expect(got.map((request) => request.body.event)).to.deep.equal(['entry.create', 'entry.update', 'entry.publish', 'entry.update', 'entry.unpublish']);
      const [strapiUpdate, strapiPublish] = recorded('publish');
      // Strapi's publish payload lacks uid, and its admin populates relations (as counts) and components.
      expect(Object.keys(got[2].body)).to.deep.equal([...Object.keys(strapiPublish.body).slice(0, 3), 'uid', 'entry']);
      const scalarKeys = Object.keys(recorded('update')[0].body.entry as object);
      expect(Object.keys(got[2].body.entry!)).to.deep.equal(scalarKeys);
      expect(Object.keys(strapiUpdate.body.entry as object).slice(0, scalarKeys.length)).to.deep.equal(scalarKeys);
      expect(got[2].body.entry!.publishedAt).to.equal('2024-05-01T10:00:00.000Z');
      expect(got[4].body.entry!.publishedAt).to.equal(null);
    });

    it('sends the entry.create of a localization, in its locale', async () => {
      const id = (await post('/api/articles', { data: { title: 'To translate', publishedAt: null } })).body.data.id as number;
      const localized = await served.request.post(`/api/articles/${id}/localizations`).set(EDITOR).send({ locale: 'fr', title: 'À traduire' });
      expect(localized.status).to.equal(200);
      const got = await receiver.waitFor(2);
      expect(got.map((request) => [request.body.event, request.body.entry!.title, request.body.entry!.locale])).to.deep.equal([
        ['entry.create', 'To translate', 'en'],
        ['entry.create', 'À traduire', 'fr'],
      ]);
    });

    it('sends media.create and media.delete for files uploaded and deleted through the upload routes', async () => {
      const uploaded = await served.request.post('/api/upload').set(EDITOR).attach('files', readFileSync(join(repoRoot, 'test/uploads/files/notes.txt')), 'notes.txt');
      expect(uploaded.status).to.equal(200);
      const [file] = uploaded.body as { id: number; name: string }[];
      expect((await served.request.delete(`/api/upload/files/${file!.id}`).set(EDITOR)).status).to.equal(200);
      const got = await receiver.waitFor(2);
      expect(got.map((request) => [request.body.event, (request.body.media as { id: number; name: string }).id, (request.body.media as { name: string }).name])).to.deep.equal([
        ['media.create', file!.id, 'notes.txt'],
        ['media.delete', file!.id, 'notes.txt'],
      ]);
      // The payload is the file as the upload routes answer it.
      expect(got[0]!.body.media).to.deep.equal(uploaded.body[0]);
    });

    it('sends media.create for a file the host uploads with api.media.upload, its payload the answer', async () => {
      const file = await served.api.media.upload(readFileSync(join(repoRoot, 'test/uploads/files/notes.txt')), { filename: 'host-notes.txt', mimeType: 'text/plain' });
      const got = await receiver.waitFor(1);
      expect(got.map((request) => request.body.event)).to.deep.equal(['media.create']);
      expect(got[0]!.body.media).to.deep.equal(file);
    });

    it("records a media event in the transaction that writes the file, with Strapi's payload, and none when it rolls back", async () => {
      const strapi = recorded('media-create').find((request) => request.body.event === 'media.create')!;
      const media = strapi.body.media as Record<string, unknown>;
      await served.api.knex
        .transaction(async (trx) => {
          await served.api.webhooks.outbox.recordMediaEvent(trx, 'delete', media);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await served.api.knex.transaction((trx) => served.api.webhooks.outbox.recordMediaEvent(trx, 'create', media));
      served.api.webhooks.outbox.committed();
      const [got] = await receiver.waitFor(1);
      expect(got.url).to.equal('/hook?media');
      expect({ ...got.body, createdAt: '<now>' }).to.deep.equal(strapi.body);
      expect(got.headers['x-strapi-event']).to.equal('media.create');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).to.have.length(1);
    });

    it('sends nothing for a write that rolled back, and nothing for a type the target filters out', async () => {
      const before = await served.api.knex(EVENTS_TABLE).count({ n: '*' });
      expect((await post('/api/articles', { data: { description: 'no title' } })).status).to.equal(400);
      expect((await post('/api/articles', { data: { title: 'x', category: 999_999 } })).status).to.equal(400);
      expect((await post('/api/restaurants', { data: { name: 'Not wanted' } })).status).to.equal(200);
      expect(await served.api.knex(EVENTS_TABLE).count({ n: '*' })).to.deep.equal(before);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).to.deep.equal([]);
    });

    it("delivers a target's events in the order they were written", async () => {
      const id = (await post('/api/categories', { data: { name: 'order 0' } })).body.data.id as number;
      for (let index = 1; index <= 12; index += 1) await put(`/api/categories/${id}`, { data: { name: `order ${index}` } });
      const got = await receiver.waitFor(13);
      expect(got.map((request) => request.body.entry!.name)).to.deep.equal(Array.from({ length: 13 }, (_, index) => `order ${index}`));
    });

    it('retries a failing receiver with growing delays and records each attempt', async () => {
      let failures = 3;
      receiver.answer = (_request, response) => {
        if (failures-- <= 0) return 'default';
        response.writeHead(503);
        response.end('down for maintenance');
      };
      const id = (await post('/api/categories', { data: { name: 'retried' } })).body.data.id as number;
      const [delivered] = await receiver.waitFor(1);
      expect(delivered.body.entry!.id).to.equal(id);
      const times = receiver.received.map((request) => request.at);
      expect(times).to.have.length(4);
      // 50 ms doubling, half of it random: at least 25, 50 and 100 ms apart.
      expect(times[1] - times[0]).to.be.at.least(20);
      expect(times[3] - times[2]).to.be.at.least(90);
      await until(async () => (await served.api.knex(DELIVERIES_TABLE).orderBy('id', 'desc').first()).state !== 'pending');
      const delivery = await served.api.knex(DELIVERIES_TABLE).orderBy('id', 'desc').first();
      expect(delivery).to.include({ state: 'delivered', last_status: 200 });
      expect(Number(delivery.attempts)).to.equal(4);
      const attempts = await served.api.knex(ATTEMPTS_TABLE).where({ delivery_id: delivery.id }).orderBy('id');
      expect(attempts.map((attempt) => attempt.status)).to.deep.equal([503, 503, 503, 200]);
      expect(attempts[0].error).to.equal('answered 503: down for maintenance');
    });

    it('does not follow a redirect, and reads no more than a few kilobytes of an answer', async () => {
      let written = 0;
      receiver.answer = (request, response) => {
        if (request.body.entry?.name === 'redirected') {
          response.writeHead(307, { Location: `${receiver.url}/elsewhere` });
          return void response.end();
        }
        response.writeHead(500);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (written < 64 * 1024 * 1024) {
            written += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        response.on('error', () => undefined);
        pump();
      };
      await post('/api/categories', { data: { name: 'redirected' } });
      await post('/api/categories', { data: { name: 'large answer' } });
      await until(async () => Number((await served.api.knex(ATTEMPTS_TABLE).whereIn('status', [307, 500]).count({ n: '*' }))[0]?.n) >= 2);
      expect(receiver.received.every((request) => request.url === '/hook')).to.equal(true);
      const [redirect, large] = (await served.api.knex(ATTEMPTS_TABLE).orderBy('id', 'desc').limit(50)).reverse().filter((attempt) => attempt.status === 307 || attempt.status === 500).slice(0, 2);
      expect(redirect.error).to.equal(`redirect to ${receiver.url}/elsewhere not followed`);
      expect(large.error.length).to.be.below(4200);
      expect(written).to.be.below(16 * 1024 * 1024);
      receiver.answer = () => 'default';
      await receiver.waitFor(2);
    });
  });
}
