/**
 * Lifecycle hooks from `content-types/<name>.lifecycles.js` or `.mjs` beside the type's YAML file,
 * imported at start: run between the `'*'` hooks and the option's; a name that is not a hook is an
 * error at start.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentApi } from '../../plugin/index.js';
import { serveApi, repoRoot, type ServedApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'apps', 'hooks');

/** A copy of the hooks app with `files` added under content-types/. */
function appWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lifecycle-modules-'));
  cpSync(FIXTURE, root, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'content-types', name), text);
  return root;
}

for (const kind of testDatabaseKinds()) {
  describe(`lifecycle modules beside the YAML (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi | undefined;
    const roots: string[] = [];
    beforeEach(async function () {
      this.timeout(60_000);
      database = await createTestDatabase(kind.client);
    });
    afterEach(async () => {
      await served?.close();
      served = undefined;
      await database?.drop();
      for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    });

    it('imports content-types/<name>.lifecycles.mjs at start and runs its hooks after the "*" hooks, before the option\'s', async () => {
      const root = appWith({
        'post.lifecycles.mjs': `export default {
          beforeCreate(event) { globalThis.lifecycleOrder.push('module'); event.data.title = event.data.title + ' (module)'; },
          afterCreate(event) { globalThis.lifecycleOrder.push('module:after:' + event.entry.attributes.title); },
        };`,
      });
      roots.push(root);
      const order: string[] = [];
      (globalThis as { lifecycleOrder?: string[] }).lifecycleOrder = order;
      served = await serveApi({
        root,
        database: database.knex,
        resolveRole: () => 'writer',
        lifecycles: { '*': { beforeCreate: () => void order.push('*') }, 'api::post.post': { beforeCreate: () => void order.push('option') } },
      });
      const response = await served.request.post('/api/posts').send({ data: { title: 'hello' } });
      expect(response.status).to.equal(200);
      expect(response.body.data.attributes.title).to.equal('hello (module)');
      expect(order).to.deep.equal(['*', 'module', 'option', 'module:after:hello (module)']);
    });

    it('takes the named exports of a .js module', async () => {
      const root = appWith({ 'post.lifecycles.js': `export function beforeCreate(event) { event.data.slug = 'from-module'; }\n` });
      roots.push(root);
      writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
      served = await serveApi({ root, database: database.knex, resolveRole: () => 'writer' });
      const response = await served.request.post('/api/posts').send({ data: { title: 'hello' } });
      expect(response.status).to.equal(200);
      expect(response.body.data.attributes.slug).to.equal('from-module');
    });

    it('refuses to start with a name that is not a hook', async () => {
      const root = appWith({ 'post.lifecycles.mjs': 'export function beforeCreat() {}\n' });
      roots.push(root);
      let failure: unknown;
      await contentApi({ root, database: database.knex, resolveRole: () => 'writer' }).catch((error: unknown) => (failure = error));
      expect(String(failure)).to.match(/post\.lifecycles\.mjs: beforeCreat is not a lifecycle hook/);
    });
  });
}
