/**
 * The cost of the webhook outbox and the delivery throughput, in one run:
 *
 *   node dist/bench/webhooks.js [--database postgres://…] [--count 400]
 *
 * On a fresh copy of the small conformance fixture (SQLite unless a PostgreSQL server is named),
 * `POST /api/categories` one at a time in-process: the p50 of a create without webhooks.yaml, then
 * with one target wanting `entry.create` (delivery off: the outbox rows alone), then the time a
 * loopback receiver takes to get all the recorded events from one deliverer.
 */
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serveApi } from '../test/support/api.js';
import { startReceiver } from '../test/webhooks/support/receiver.js';
import { freshFixture } from '../test/writes/support/fixture.js';
import { WRITE_PERMISSIONS } from '../test/writes/support/write-api.js';

const { values } = parseArgs({ options: { database: { type: 'string' }, count: { type: 'string', default: '400' } } });
const client = values.database ? 'postgres' : 'sqlite';
if (values.database) process.env.TEST_DATABASE_URL = values.database;
const count = Number(values.count);

async function createP50(root: string, url: string, withWebhook: boolean): Promise<number> {
  const served = await serveApi({ root, database: url, watchPermissions: false, webhooks: { deliver: false, watch: false } });
  if (withWebhook !== served.api.webhooks.config().targets.length > 0) throw new Error('webhooks.yaml not as expected');
  const times: number[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const started = process.hrtime.bigint();
      const response = await served.request.post('/api/categories').set('Authorization', 'Bearer editor-token').send({ data: { name: `bench ${index}` } });
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (response.status !== 200) throw new Error(`create answered ${response.status}`);
    }
  } finally {
    await served.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const fixture = await freshFixture(client, WRITE_PERMISSIONS);
const receiver = await startReceiver();
try {
  const file = join(fixture.root, 'webhooks.yaml');
  rmSync(file, { force: true });
  await createP50(fixture.root, fixture.url, false);
  const without = await createP50(fixture.root, fixture.url, false);
  writeFileSync(file, `targets:\n  bench:\n    url: ${receiver.url}\n    secret: s\n    events: [entry.create]\n`);
  const withOne = await createP50(fixture.root, fixture.url, true);
  const served = await serveApi({ root: fixture.root, database: fixture.url, watchPermissions: false, webhooks: { watch: false } });
  const started = Date.now();
  await receiver.waitFor(count, 600_000);
  const seconds = (Date.now() - started) / 1000;
  await served.close();
  console.log(`${client}: create p50 without webhooks ${without.toFixed(2)} ms, with one target ${withOne.toFixed(2)} ms (+${(withOne - without).toFixed(2)} ms); ${count} events delivered to a loopback receiver in ${seconds.toFixed(2)} s (${Math.round(count / seconds)}/s, one target, in order)`);
} finally {
  await receiver.close();
  await fixture.drop();
}
