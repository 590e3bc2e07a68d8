/**
 * webhooks.yaml: checked by `content-api check` with file:line:col problems (a URL that is not
 * http or https, an unknown event, an unset environment variable), reloaded live, refused on a
 * database without its tables when sync is off; and the send's timeout and private-address rule.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentApi } from '../../plugin/index.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { parseWebhooks } from '../../plugin/webhooks/config.js';
import { sendEvent } from '../../plugin/webhooks/send.js';
import { ATTEMPTS_TABLE, DELIVERIES_TABLE, EVENTS_TABLE } from '../../plugin/webhooks/tables.js';
import knexFactory from 'knex';
import { repoRoot, serveApi } from '../support/api.js';
import { runCli } from '../support/run-node.js';
import { startReceiver, until } from './support/receiver.js';

const BROKEN = `targets:
  search:
    url: ftp://files.example.com/drop
    events: [entry.create, entry.created]
    headers:
      Authorization: Bearer \${WEBHOOKS_UNSET_VARIABLE}
    types: [article, nothing]
`;

function schemaFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'content-api-webhooks-'));
  for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  return root;
}

describe('webhooks: webhooks.yaml', function () {
  this.timeout(30_000);
  let root: string;
  before(() => (root = schemaFolder()));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('check reports every problem with file, line and column: a URL that is not http(s), an unknown event, an unset variable, an unknown type', async () => {
    writeFileSync(join(root, 'webhooks.yaml'), BROKEN);
    const result = await runCli(['check', '--root', root], root);
    expect(result.code).to.equal(1);
    const file = join(root, 'webhooks.yaml');
    expect(result.stdout).to.include(`${file}:3:10`);
    expect(result.stdout).to.include('only http and https URLs are sent to, not ftp:');
    expect(result.stdout).to.include(`${file}:4:28`);
    expect(result.stdout).to.include('unknown event "entry.created"');
    expect(result.stdout).to.include('the environment variable WEBHOOKS_UNSET_VARIABLE is not set');
    expect(result.stdout).to.include('unknown content type "nothing"');
    expect(result.stdout).to.include('4 schema problems');
  });

  it('check accepts a good file, the variables it names set', async () => {
    writeFileSync(join(root, 'webhooks.yaml'), BROKEN.replace('ftp://files', 'https://files').replace(', entry.created', '').replace(', nothing', ''));
    const result = await runCli(['check', '--root', root], root, { ...process.env, WEBHOOKS_UNSET_VARIABLE: 'set' });
    expect(result.code, result.stdout).to.equal(0);
    expect(result.stdout).to.include('webhooks.yaml ok: 1 target');
  });

  it('substitutes environment variables in the URL, the secret and the headers', async () => {
    const registry = await loadSchema(root);
    const config = parseWebhooks('targets:\n  a:\n    url: https://${HOST_NAME}/in\n    secret: ${SECRET}\n    headers: { X-Token: "t-${SECRET}" }\n    events: [media.create]\n', 'webhooks.yaml', registry, { HOST_NAME: 'hooks.example.com', SECRET: 's3' });
    expect(config.targets[0]).to.deep.include({ url: 'https://hooks.example.com/in', secret: 's3', headers: { 'X-Token': 't-s3' } });
    expect(() => parseWebhooks('targets:\n  a:\n    url: "file:///etc/passwd"\n    events: [entry.create]\n', 'webhooks.yaml', registry, {})).to.throw(SchemaError, 'only http and https');
  });

  it('with sync off, refuses to start on a database without the webhook tables; with sync, creates them', async () => {
    writeFileSync(join(root, 'webhooks.yaml'), 'targets:\n  a:\n    url: http://127.0.0.1:9/hook\n    events: [entry.create]\n');
    const database = `sqlite:${join(root, 'content.db')}`;
    const synced = await contentApi({ root, database, webhooks: { deliver: false } });
    await synced.knex.schema.dropTable(ATTEMPTS_TABLE);
    await synced.close();
    let error: unknown;
    await contentApi({ root, database, sync: false }).then((api) => api.close(), (failure: unknown) => (error = failure));
    expect(String(error)).to.include('declares webhook targets, but the database has no webhook tables and sync is off: run "content-api sync"');
    const sync = await runCli(['sync', '--root', root, '--database', database], root);
    expect(sync.stdout).to.include(`created table ${ATTEMPTS_TABLE}`);
    const api = await contentApi({ root, database, sync: false, webhooks: { deliver: false } });
    await api.close();
  });

  it('reloads the file when it changes: a new target gets the next writes, a broken edit keeps the targets in force', async () => {
    const first = await startReceiver();
    const second = await startReceiver();
    const database = `sqlite:${join(root, 'reload.db')}`;
    const yaml = (url: string) => `targets:\n  a:\n    url: ${url}\n    events: [entry.create]\n    types: [category]\n`;
    writeFileSync(join(root, 'webhooks.yaml'), yaml(first.url));
    const errors: unknown[] = [];
    const api = await contentApi({ root, database, watchPermissions: false, webhooks: { watch: true, pollInterval: 50, onReloadError: (error) => errors.push(error) } });
    const category = api.registry.contentTypes.find((model) => model.uid === 'api::category.category')!;
    const record = async () => {
      const [row] = (await api.knex('categories').insert({ name: 'x', created_at: Date.now(), updated_at: Date.now() }, ['id'])) as ({ id: number } | number)[];
      await api.knex.transaction((trx) => api.webhooks.outbox.recordEntryEvents(trx, category, ['create'], typeof row === 'object' ? row.id : row, new Date()));
      api.webhooks.outbox.committed();
    };
    try {
      await record();
      await first.waitFor(1);
      writeFileSync(join(root, 'webhooks.yaml'), yaml(second.url));
      await until(async () => api.webhooks.config().targets[0]?.url === second.url);
      await record();
      await second.waitFor(1);
      writeFileSync(join(root, 'webhooks.yaml'), 'targets:\n  a:\n    url: gopher://x\n');
      await until(async () => errors.length > 0);
      expect(api.webhooks.config().targets[0]?.url).to.equal(second.url);
      expect(first.received).to.have.length(1);
    } finally {
      await api.close();
      await first.close();
      await second.close();
    }
  });
});

describe('webhooks: a send', function () {
  const target = (url: string) => ({ name: 't', url, headers: {}, secret: 'k', events: new Set(['entry.create'] as const), types: null });
  const event = { id: '00000000-0000-0000-0000-000000000000', name: 'entry.create', body: '{}' };

  it('gives up an attempt the receiver does not answer within the timeout', async () => {
    const receiver = await startReceiver();
    receiver.answer = () => undefined;
    try {
      const started = Date.now();
      const attempt = await sendEvent(target(receiver.url), event, { timeout: 200, refusePrivateAddresses: false });
      expect(attempt).to.deep.include({ ok: false, status: null, error: 'no answer within 200 ms' });
      expect(Date.now() - started).to.be.below(1000);
    } finally {
      await receiver.close();
    }
  });

  it('refuses loopback, private and link-local addresses when asked, by name or number', async () => {
    const receiver = await startReceiver();
    try {
      for (const url of [receiver.url, `http://localhost:${receiver.port}/hook`, 'http://10.1.2.3/', 'http://169.254.169.254/latest', 'http://[::1]:9/']) {
        const attempt = await sendEvent(target(url), event, { timeout: 2000, refusePrivateAddresses: true });
        expect(attempt.ok, url).to.equal(false);
        expect(attempt.error, url).to.match(/private address/);
      }
      expect(receiver.received).to.deep.equal([]);
      expect((await sendEvent(target(receiver.url), event, { timeout: 2000, refusePrivateAddresses: false })).ok).to.equal(true);
    } finally {
      await receiver.close();
    }
  });
});

describe('webhooks: giving up and pruning', function () {
  this.timeout(30_000);
  let root: string;
  before(() => (root = schemaFolder()));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('gives an event up after retryFor, sends the next one of the target, and prunes what finished before the retention time', async () => {
    const receiver = await startReceiver();
    receiver.answer = (request, response) => {
      if (request.body.entry?.name !== 'refused') return 'default';
      response.writeHead(500);
      response.end();
    };
    writeFileSync(join(root, 'webhooks.yaml'), `targets:\n  a:\n    url: ${receiver.url}\n    events: [entry.create]\ndelivery:\n  retryFor: 400\n  retention: 1\n`);
    const api = await contentApi({ root, database: `sqlite:${join(root, 'give-up.db')}`, watchPermissions: false, webhooks: { pollInterval: 50, retryDelay: 50, watch: false } });
    const category = api.registry.contentTypes.find((model) => model.uid === 'api::category.category')!;
    try {
      for (const name of ['refused', 'accepted']) {
        const [row] = (await api.knex('categories').insert({ name, created_at: Date.now(), updated_at: Date.now() }, ['id'])) as ({ id: number } | number)[];
        await api.knex.transaction((trx) => api.webhooks.outbox.recordEntryEvents(trx, category, ['create'], typeof row === 'object' ? row.id : row, new Date()));
      }
      api.webhooks.outbox.committed();
      const [accepted] = await receiver.waitFor(1);
      expect(accepted.body.entry!.name).to.equal('accepted');
      const refused = receiver.received.filter((request) => request.body.entry!.name === 'refused');
      expect(refused.length).to.be.at.least(2);
      expect(refused[refused.length - 1]!.at - refused[0]!.at).to.be.at.least(300);
      await until(async () => Number((await api.knex(DELIVERIES_TABLE).where({ state: 'pending' }).count({ n: '*' }))[0]!.n) === 0);
      expect((await api.knex(DELIVERIES_TABLE).orderBy('id').select('state')).map((row: { state: string }) => row.state)).to.deep.equal(['failed', 'delivered']);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await api.webhooks.prune()).to.equal(2);
      for (const table of [EVENTS_TABLE, DELIVERIES_TABLE, ATTEMPTS_TABLE]) expect(Number((await api.knex(table).count({ n: '*' }))[0]!.n), table).to.equal(0);
    } finally {
      await api.close();
      await receiver.close();
    }
  });
});

describe("webhooks: on a host's knex instance", function () {
  this.timeout(30_000);
  let root: string;
  before(() => (root = schemaFolder()));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('records and sends the events of the writes made through the routes', async () => {
    const receiver = await startReceiver();
    writeFileSync(join(root, 'webhooks.yaml'), `targets:\n  a:\n    url: ${receiver.url}\n    events: [entry.create]\n`);
    writeFileSync(join(root, 'permissions.yaml'), 'roles:\n  public:\n    category: [create]\n');
    const host = knexFactory({ client: 'better-sqlite3', connection: { filename: join(root, 'host.db') }, useNullAsDefault: true });
    const served = await serveApi({ root, database: host, watchPermissions: false, webhooks: { watch: false } });
    try {
      expect((await served.request.post('/api/categories').send({ data: { name: 'from the host' } })).status).to.equal(200);
      const [got] = await receiver.waitFor(1);
      expect(got.body.entry).to.include({ name: 'from the host' });
    } finally {
      await served.close();
      await host.destroy();
      await receiver.close();
    }
  });
});
