/**
 * A receiver down for a while gets every event of a scripted sequence of writes once it is back,
 * each event once and in the order written, while another target that stayed up got them all
 * as they happened. The retry delays are scaled to the outage (first retry after 100 ms, doubling
 * up to 800 ms), so that 5 s down spans as many attempts as a real outage of minutes does with
 * the default delays.
 */
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DELIVERIES_TABLE, EVENTS_TABLE } from '../../plugin/webhooks/tables.js';
import { serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freePort } from '../support/server.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { WRITE_PERMISSIONS } from '../writes/support/write-api.js';
import { startReceiver, until, type Receiver } from './support/receiver.js';

const EDITOR = { Authorization: 'Bearer editor-token' };
const DOWN_MS = 5_000;

for (const kind of testDatabaseKinds()) {
  describe(`webhooks: a receiver down for 5 s (${kind.name})`, function () {
    this.timeout(120_000);
    let fixture: FreshFixture;
    let served: ServedApi;
    let steady: Receiver;
    let downed: Receiver | null = null;

    after(async () => {
      await served?.close();
      await steady?.close();
      await downed?.close();
      await fixture?.drop();
    });

    it('gets every event once, in order, after it comes back', async () => {
      fixture = await freshFixture(kind.client, WRITE_PERMISSIONS);
      steady = await startReceiver();
      const port = await freePort();
      writeFileSync(
        join(fixture.root, 'webhooks.yaml'),
        `targets:
  down:
    url: http://127.0.0.1:${port}/hook
    secret: receiver-secret
    events: [entry.create, entry.update, entry.delete, entry.publish, entry.unpublish]
  up:
    url: ${steady.url}
    secret: receiver-secret
    events: [entry.create, entry.update, entry.delete]
    types: [category]
`,
      );
      served = await serveApi({ root: fixture.root, database: fixture.url, watchPermissions: false, webhooks: { retryDelay: 100, maxRetryDelay: 800, watch: false } });
      const send = (method: 'post' | 'put' | 'delete', path: string, body?: unknown) => served.request[method](path).set(EDITOR).send(body as object);
      const started = Date.now();
      // The script: categories and articles created, changed, published, unpublished, deleted.
      const categories: number[] = [];
      for (let index = 0; index < 5; index += 1) categories.push((await send('post', '/api/categories', { data: { name: `outage ${index}` } })).body.data.id);
      const article = (await send('post', '/api/articles', { data: { title: 'Outage', publishedAt: null, category: categories[0] } })).body.data.id as number;
      await send('put', `/api/articles/${article}`, { data: { publishedAt: '2024-06-01T00:00:00.000Z' } });
      for (const id of categories.slice(0, 3)) await send('put', `/api/categories/${id}`, { data: { name: `renamed ${id}` } });
      await send('put', `/api/articles/${article}`, { data: { publishedAt: null } });
      await send('delete', `/api/categories/${categories[4]}`);
      await send('delete', `/api/articles/${article}`);
      const expectedDown = 5 + 1 + 2 + 3 + 2 + 1 + 1;
      const expectedUp = 5 + 3 + 1;
      await steady.waitFor(expectedUp);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, DOWN_MS - (Date.now() - started))));
      const attempted = Number((await served.api.knex(DELIVERIES_TABLE).where({ target: 'down' }).sum({ n: 'attempts' }))[0]!.n);
      expect(attempted, 'attempts while down').to.be.at.least(5);
      downed = await startReceiver('receiver-secret', port);
      const got = await downed.waitFor(expectedDown, 20_000);
      await until(async () => Number((await served.api.knex(DELIVERIES_TABLE).where({ state: 'pending' }).count({ n: '*' }))[0]!.n) === 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const [target, receiver, count] of [
        ['down', downed, expectedDown],
        ['up', steady, expectedUp],
      ] as const) {
        expect(receiver.received, target).to.have.length(count);
        const written = (await served.api.knex(`${DELIVERIES_TABLE} as d`).join(`${EVENTS_TABLE} as e`, 'e.id', 'd.event_row').where('d.target', target).orderBy('d.id').select('e.event_id')).map((row: { event_id: string }) => row.event_id);
        expect(receiver.received.map((request) => request.headers['x-webhook-id']), target).to.deep.equal(written);
        expect(receiver.received.every((request) => request.signed), target).to.equal(true);
      }
      expect(got.map((request) => request.body.event)).to.deep.equal([
        ...Array(5).fill('entry.create'),
        'entry.create',
        'entry.update',
        'entry.publish',
        ...Array(3).fill('entry.update'),
        'entry.update',
        'entry.unpublish',
        'entry.delete',
        'entry.delete',
      ]);
    });
  });
}
