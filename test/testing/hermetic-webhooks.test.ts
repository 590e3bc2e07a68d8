/**
 * The testing kit is hermetic about webhooks: the app's webhooks.yaml (and the secrets it names)
 * is not read and nothing is delivered, unless the test names its own targets.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createTestApi, testDatabases } from '../../plugin/testing/index.js';
import { repoRoot } from '../support/api.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

const recipes = join(repoRoot, 'examples', 'recipes');
const SECRET_VARIABLE = 'CONTENT_API_TEST_NEVER_SET_SECRET';

/** The recipes app, anyone may create chefs, and a webhooks.yaml sending every write to `receiver` signed with an unset secret. */
function appFolder(receiver: Receiver): string {
  const root = mkdtempSync(join(tmpdir(), 'content-api-hermetic-'));
  for (const folder of ['content-types', 'components']) cpSync(join(recipes, folder), join(root, folder), { recursive: true });
  writeFileSync(join(root, 'permissions.yaml'), 'roles:\n  public:\n    chef: [find, findOne, create]\n');
  writeFileSync(
    join(root, 'webhooks.yaml'),
    `targets:\n  production:\n    url: ${receiver.url}\n    secret: \${${SECRET_VARIABLE}}\n    events: [entry.create, entry.update, entry.delete, media.create]\n`,
  );
  return root;
}

describe('testing kit: webhooks', function () {
  this.timeout(30_000);
  let receiver: Receiver;
  let root: string;

  before(async () => {
    delete process.env[SECRET_VARIABLE];
    receiver = await startReceiver('test-secret');
    root = appFolder(receiver);
  });
  after(async () => {
    await receiver.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.delivered.length = 0;
  });

  for (const database of testDatabases()) {
    describe(database, () => {
      it('reads no webhooks.yaml, needs none of its secrets, and delivers nothing', async () => {
        const kit = await createTestApi({ root, database });
        try {
          const created = await kit.request.post('/api/chefs').send({ data: { name: 'Ana' } });
          expect(created.status, JSON.stringify(created.body)).to.equal(200);
          expect(kit.api.webhooks.config().targets).to.deep.equal([]);
          expect(await kit.api.webhooks.drain()).to.equal(0);
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(receiver.received).to.deep.equal([]);
        } finally {
          await kit.close();
        }
      });

      it('delivers to a target the test names, and only there', async () => {
        const kit = await createTestApi({
          root,
          database,
          webhooks: { targets: { mine: { url: `${receiver.url}/mine`, secret: 'test-secret', events: ['entry.create'] } }, pollInterval: 100 },
        });
        try {
          expect(kit.api.webhooks.config().targets.map((target) => target.name)).to.deep.equal(['mine']);
          const created = await kit.request.post('/api/chefs').send({ data: { name: 'Bea' } });
          expect(created.status, JSON.stringify(created.body)).to.equal(200);
          const [delivered] = await receiver.waitFor(1);
          expect(delivered.url).to.match(/\/mine$/);
          expect(delivered.signed).to.equal(true);
          expect(delivered.body).to.deep.include({ event: 'entry.create', uid: 'api::chef.chef' });
          expect(receiver.received).to.have.length(1);
        } finally {
          await kit.close();
        }
      });
    });
  }

  it('checks the targets it is given as webhooks.yaml would be checked', async () => {
    let error: unknown;
    try {
      await createTestApi({ root, webhooks: { targets: { bad: { url: 'ftp://127.0.0.1/', events: ['entry.nope' as 'entry.create'] } } } });
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.match(/webhooks\.targets option.*only http and https/s).and.match(/unknown event "entry\.nope"/);
  });
});
