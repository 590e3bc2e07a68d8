/**
 * The hooks and events of a single type's writes and of localizations: a single type's `PUT`
 * creates then updates, its `DELETE` deletes, `POST …/localizations` creates; and the `logger`
 * option hears of a failure after commit.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { LifecycleHooks } from '../../plugin/index.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';

const ROOT = join(repoRoot, 'test', 'fixtures', 'apps', 'single-types');

for (const kind of testDatabaseKinds()) {
  describe(`lifecycle hooks of single types and localizations (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi;
    const log: string[] = [];
    const logged: { msg?: string; err?: { message?: string } }[] = [];
    const hooks: LifecycleHooks = {};
    before(async function () {
      this.timeout(60_000);
      database = await createTestDatabase(kind.client);
      await syncSchema(database.knex, await loadSchema(ROOT));
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
          done();
        },
      });
      for (const name of ['Create', 'Update', 'Delete', 'Publish', 'Unpublish'] as const) {
        hooks[`before${name}`] = () => void log.push(`before${name}`);
        hooks[`after${name}`] = (event) => void log.push(`after${name}:${(event.entry as { id: number }).id}`);
      }
      served = await serveApi({ root: ROOT, database: database.knex, sync: false, locales: ['en', 'fr'], resolveRole: () => 'reference', lifecycles: { 'api::homepage.homepage': hooks }, logger: pino({}, stream) });
      for (const name of ['entry.create', 'entry.update', 'entry.delete', 'entry.publish']) {
        served.api.events.on(name, (payload) => void log.push(`${payload.event}:${payload.model}`));
      }
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    it('fires create, then update, on PUT; create on a localization; delete on DELETE', async () => {
      const created = await served.request.put('/api/homepage').send({ data: { title: 'Home', headline: 'h' } });
      expect(created.status).to.equal(200);
      const id = created.body.data.id;
      expect(log.splice(0)).to.deep.equal(['beforeCreate', 'beforePublish', `afterCreate:${id}`, 'entry.create:homepage', `afterPublish:${id}`, 'entry.publish:homepage']);
      expect((await served.request.put('/api/homepage').send({ data: { title: 'Home again' } })).status).to.equal(200);
      expect(log.splice(0)).to.deep.equal(['beforeUpdate', `afterUpdate:${id}`, 'entry.update:homepage']);
      const localization = await served.request.post('/api/homepage/localizations').send({ locale: 'fr', title: 'Accueil' });
      expect(localization.status).to.equal(200);
      const frId = localization.body.id;
      expect(log.splice(0)).to.deep.equal(['beforeCreate', `afterCreate:${frId}`, 'entry.create:homepage']);
      expect((await served.request.delete('/api/homepage?locale=fr&publicationState=preview')).status).to.equal(200);
      expect(log.splice(0)).to.deep.equal(['beforeDelete', `afterDelete:${frId}`, 'entry.delete:homepage']);
    });

    it("a localization's before hook that throws writes nothing", async () => {
      hooks.beforeCreate = () => {
        throw new Error('no translations today');
      };
      const count = async () => Number(((await database.knex('homepages').count({ n: '*' })) as { n: number | string }[])[0].n);
      const before = await count();
      expect((await served.request.post('/api/homepage/localizations').send({ locale: 'fr', title: 'Accueil' })).status).to.equal(500);
      expect(await count()).to.equal(before);
    });

    it("sends an after hook's failure to the logger when one is given", async () => {
      hooks.afterUpdate = () => {
        throw new Error('after update broke');
      };
      expect((await served.request.put('/api/homepage').send({ data: { title: 'Home, third' } })).status).to.equal(200);
      expect(logged.filter((line) => line.err?.message === 'after update broke')).to.have.length(1);
    });
  });
}
