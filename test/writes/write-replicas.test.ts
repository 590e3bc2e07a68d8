/**
 * With read replicas, a write's answer is read from the primary, where the write went: here the
 * "replica" is a second copy of the fixture that never receives the write, so an answer read from
 * it would be a 404, while reads keep going to it.
 */
import { expect } from 'chai';
import { serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freshFixture, type FreshFixture } from './support/fixture.js';
import { WRITE_PERMISSIONS } from './support/write-api.js';

for (const kind of testDatabaseKinds().filter((candidate) => candidate.client !== 'sqlite')) {
  describe(`writes beside read replicas (${kind.name})`, () => {
    let primary: FreshFixture;
    let stale: FreshFixture;
    let served: ServedApi;
    before(async () => {
      primary = await freshFixture(kind.client, WRITE_PERMISSIONS);
      stale = await freshFixture(kind.client);
      served = await serveApi({ root: primary.root, database: primary.url, replicas: [stale.url], watchPermissions: false });
    });
    after(async () => {
      await served?.close();
      await stale?.drop();
      await primary?.drop();
    });

    it('answers the written entry from the primary, while reads go to the replica', async () => {
      const created = await served.request.post('/api/categories?fields[0]=name').set('Authorization', 'Bearer editor-token').send({ data: { name: 'Only on the primary' } });
      expect(created.status, created.text).to.equal(200);
      expect(created.body.data.attributes).to.deep.equal({ name: 'Only on the primary' });
      const updated = await served.request.put(`/api/categories/${created.body.data.id}?fields[0]=name`).set('Authorization', 'Bearer editor-token').send({ data: { name: 'Renamed' } });
      expect(updated.body.data.attributes).to.deep.equal({ name: 'Renamed' });
      expect((await served.request.get(`/api/categories/${created.body.data.id}`)).status, 'a read goes to the replica').to.equal(404);
    });
  });
}
