/**
 * The cost of the webhook outbox and the delivery throughput, in one run:
 *
 *   node dist/bench/webhooks.js [--database postgres://…] [--count 400]
 *
 * On a fresh copy of the small conformance fixture (SQLite unless a PostgreSQL server is named),
 * `POST /api/categories` one at a time in-process: the p50 of a create without a webhook target and
 * with one wanting `entry.create` (delivery off: the outbox rows alone), then the time a loopback
 * receiver takes to get the events recorded (`count`) from one deliverer.
 */
import { writeFileSync } from 'node:fs';
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

const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

/**
 * Creates one at a time, with and without the target in turns of 20 (webhooks.yaml rewritten and
 * reloaded between turns), so that both p50s see the same load of a shared machine.
 */
async function createP50s(root: string, url: string, targetYaml: string): Promise<{ without: number; withOne: number }> {
  const file = join(root, 'webhooks.yaml');
  writeFileSync(file, targetYaml);
  const served = await serveApi({ root, database: url, watchPermissions: false, webhooks: { deliver: false, watch: false } });
  const times = { without: [] as number[], withOne: [] as number[] };
  try {
    for (let index = 0; index < 2 * count; index += 1) {
      if (index % 20 === 0) {
        writeFileSync(file, index % 40 === 0 ? 'targets: {}\n' : targetYaml);
        await served.api.webhooks.reload();
      }
      const started = process.hrtime.bigint();
      const response = await served.request.post('/api/categories').set('Authorization', 'Bearer editor-token').send({ data: { name: `bench ${index}` } });
      (index % 40 < 20 ? times.without : times.withOne).push(Number(process.hrtime.bigint() - started) / 1e6);
      if (response.status !== 200) throw new Error(`create answered ${response.status}`);
    }
  } finally {
    await served.close();
  }
  return { without: p50(times.without), withOne: p50(times.withOne) };
}

const fixture = await freshFixture(client, WRITE_PERMISSIONS);
const receiver = await startReceiver();
try {
  const { without, withOne } = await createP50s(fixture.root, fixture.url, `targets:\n  bench:\n    url: ${receiver.url}\n    secret: s\n    events: [entry.create]\n`);
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
