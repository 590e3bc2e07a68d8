/**
 * The users routes under row rules, on every engine: `POST /api/users`, `PUT` and `DELETE
 * /api/users/:id` go through the write pipeline, so a role's `where`, `set` and `fields` on `user`
 * hold there as on any type; `GET /api/users/count` counts what the role's `find` reaches. And a
 * password written there is stored hashed.
 */
import { expect } from 'chai';
import { signUserToken } from '../../plugin/auth/jwt.js';
import { serveUsers } from '../auth/support.js';
import type { ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { JWT_SECRET } from './support.js';

/** The Authenticated role may read, change and delete its own user only, and create unconfirmed users without choosing their provider. */
const PERMISSIONS = `roles:
  public: {}
  authenticated:
    user:
      find: { where: { id: $user.id } }
      create: { set: { confirmed: false }, fields: { except: [blocked] } }
      update: { where: { id: $user.id }, fields: { except: [role, blocked, confirmed] } }
      delete: { where: { id: $user.id } }
`;

const bearer = (id: number) => `Bearer ${signUserToken(id, JWT_SECRET, 3600, Date.now())}`;

for (const { client, name } of testDatabaseKinds()) {
  describe(`users routes under row rules (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let api: ServedApi;

    before(async () => {
      fixture = await freshFixture(client, PERMISSIONS);
      api = await serveUsers(fixture, { jwtSecret: JWT_SECRET });
    });

    after(async () => {
      await api?.close();
      await fixture?.drop();
    });

    it('counts the users the role may find', async () => {
      expect((await api.request.get('/api/users/count').set('Authorization', bearer(2)).expect(200)).body).to.equal(1);
      await api.request.get('/api/users/count').expect(403);
    });

    it('updates the caller’s own user, and answers any other as missing', async () => {
      const own = await api.request.put('/api/users/2').set('Authorization', bearer(2)).send({ username: 'second' }).expect(200);
      expect(own.body).to.include({ id: 2, username: 'second' });
      await api.request.put('/api/users/3').set('Authorization', bearer(2)).send({ username: 'third' }).expect(404);
      const fields = await api.request.put('/api/users/2').set('Authorization', bearer(2)).send({ blocked: true }).expect(400);
      expect(JSON.stringify(fields.body.error)).to.include('blocked');
    });

    it('creates users with the values the rule sets, and stores the password hashed', async () => {
      const created = await api.request.post('/api/users').set('Authorization', bearer(2)).send({ username: 'ruled', email: 'ruled@example.com', password: 'Password-ruled!', role: 1, confirmed: true }).expect(201);
      expect(created.body).to.include({ username: 'ruled', confirmed: false, provider: 'local' });
      const stored = (await api.api.knex('up_users').where({ id: created.body.id }).first('password')) as { password: string };
      expect(stored.password).to.match(/^\$2[aby]\$10\$/);
      await api.request.post('/api/users').set('Authorization', bearer(2)).send({ username: 'blocker', email: 'blocker@example.com', password: 'Password-b!', role: 1, blocked: true }).expect(400);
    });

    it('deletes the caller’s own user only: another is answered as Strapi answers a missing one', async () => {
      await api.request.delete('/api/users/3').set('Authorization', bearer(2)).expect(204);
      expect(await api.api.knex('up_users').where({ id: 3 }).first('id')).to.not.equal(undefined);
      const deleted = await api.request.delete('/api/users/5').set('Authorization', bearer(5)).expect(200);
      expect(deleted.body).to.include({ id: 5, username: 'user05' });
      expect(deleted.body).to.not.have.any.keys('password', 'resetPasswordToken', 'confirmationToken');
    });
  });
}
