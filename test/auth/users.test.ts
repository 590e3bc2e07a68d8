/**
 * The `users` option beyond the recorded answers: a user's Strapi role mapped to a
 * permissions.yaml role, the caller a login token resolves (its public fields and claims, for row
 * rules), no answer ever holding a password or a reset token, and the API unchanged with the
 * option off.
 */
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { type Caller } from '../../plugin/access/caller.js';
import { readLoginTokens, resolveCaller } from '../../plugin/http/caller.js';
import { contentApi } from '../../plugin/index.js';
import { testDatabaseKinds } from '../support/databases.js';
import type { ServedApi } from '../support/api.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { authFixture, secretKeysIn, serveUsers, usersOption } from './support.js';
import { EndUsers } from '../../plugin/auth/end-users.js';
import { usersConfig } from '../../plugin/auth/options.js';
import { UserStore } from '../../plugin/auth/user-store.js';
import { TokenVerifier } from '../../plugin/access/tokens.js';

const OPEN = { register: true, emailConfirmation: false };

/** Staff (Strapi role type `editor`) read articles; Authenticated lists restaurants; Public nothing. */
const ROLE_PERMISSIONS = `
roles:
  public: {}
  authenticated:
    restaurant: [find]
    user:
      find: { where: { id: $user.id }, fields: { only: [username] } }
  staff:
    article: [find]
`;

async function loginToken(api: ServedApi, identifier: string, password: string, address: string): Promise<string> {
  const response = await api.request.post('/api/auth/local').set('X-Forwarded-For', address).send({ identifier, password });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.jwt as string;
}

describe('users option: checked at start', () => {
  it('needs a jwtSecret, a lifetime it can read and a sound rate limit', () => {
    expect(() => usersConfig({ jwtSecret: '' })).to.throw(/users.jwtSecret is required/);
    expect(() => usersConfig({ jwtSecret: 's', jwtExpiresIn: 'forever' })).to.throw(/jwtExpiresIn/);
    expect(() => usersConfig({ jwtSecret: 's', rateLimit: { max: 0 } })).to.throw(/rateLimit/);
    expect(usersConfig({ jwtSecret: 's' })).to.deep.include({ register: null, emailConfirmation: false, lifetimeSeconds: 2_592_000, rateLimit: { max: 10, interval: 60_000 } });
    expect(usersConfig({ jwtSecret: 's', register: true }).register).to.deep.equal({ defaultRole: 'authenticated', allowedFields: null });
  });

  it('refuses to start without a jwtSecret, before opening the database', async () => {
    let error: unknown;
    try {
      await contentApi({ database: 'sqlite:/nonexistent/folder/never-opened.db', users: { jwtSecret: '' } });
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.match(/users.jwtSecret is required/);
  });
});

for (const { client, name } of testDatabaseKinds()) {
  describe(`users option: roles, callers and secrets (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let api: ServedApi;

    before(async () => {
      fixture = await freshFixture(client, ROLE_PERMISSIONS);
      api = await serveUsers(fixture, usersOption(OPEN, { roles: { editor: 'staff' } }));
      // user02 gets a Strapi role of type `editor`; user03 loses its role.
      const [inserted] = (await api.api.knex('up_roles').insert({ name: 'Editor', description: 'Writes', type: 'editor' }, ['id'])) as ({ id: number } | number)[];
      // MariaDB answers the new id alone.
      const editorRole = typeof inserted === 'object' ? inserted.id : inserted;
      await api.api.knex('up_users_role_links').where('user_id', 2).update({ role_id: editorRole });
      await api.api.knex('up_users_role_links').where('user_id', 3).delete();
    });

    after(async () => {
      await api?.close();
      await fixture?.drop();
    });

    it("reads a login token as the permissions.yaml role its Strapi role maps to (users.roles), else the role of the type's name", async () => {
      const editor = await loginToken(api, 'user02', 'Password-2!', '10.8.0.1');
      const member = await loginToken(api, 'user01', 'Password-1!', '10.8.0.2');
      expect((await api.request.get('/api/articles?fields[0]=title').set('Authorization', `Bearer ${editor}`)).status, 'editor → staff reads articles').to.equal(200);
      expect((await api.request.get('/api/restaurants').set('Authorization', `Bearer ${editor}`)).status, 'staff may not list restaurants').to.equal(403);
      expect((await api.request.get('/api/restaurants').set('Authorization', `Bearer ${member}`)).status, 'authenticated → authenticated').to.equal(200);
      expect((await api.request.get('/api/articles').set('Authorization', `Bearer ${member}`)).status).to.equal(403);
    });

    it("is the $user of row rules: a login token's user reads only its own row", async () => {
      const token = await loginToken(api, 'user01', 'Password-1!', '10.8.0.5');
      const response = await api.request.get('/api/users').set('Authorization', `Bearer ${token}`);
      expect(response.status).to.equal(200);
      expect(JSON.stringify(response.body)).to.equal(JSON.stringify(response.body).replace(/user0[2-9]/g, ''));
      expect(JSON.stringify(response.body)).to.contain('"username":"user01"');
      expect(JSON.stringify(response.body)).not.to.contain('email');
    });

    it('reads a user without a role as authenticated', async () => {
      const roleless = await loginToken(api, 'user03', 'Password-3!', '10.8.0.3');
      expect((await api.request.get('/api/restaurants').set('Authorization', `Bearer ${roleless}`)).status).to.equal(200);
    });

    it("gives the caller the user's public fields and role, and the token's claims (for $user and $claims of row rules)", async () => {
      const token = await loginToken(api, 'user02', 'Password-2!', '10.8.0.4');
      const users = new EndUsers(usersConfig(usersOption(OPEN, { roles: { editor: 'staff' } })), new UserStore(api.api.knex, api.api.registry), Date.now);
      const app = new Koa();
      let caller: Caller | undefined;
      app.use(async (ctx) => {
        readLoginTokens(ctx, (value) => users.callerOf(value));
        caller = await resolveCaller(ctx, new TokenVerifier([]), undefined, Date.now());
        ctx.body = {};
      });
      await supertest(app.callback()).get('/').set('Authorization', `Bearer ${token}`).expect(200);
      expect(caller!.role).to.equal('staff');
      expect(caller!.identified).to.equal(true);
      expect(caller!.user).to.deep.include({ id: 2, username: 'user02', email: 'user02@example.com', confirmed: true, blocked: false });
      expect((caller!.user as { role: { type: string } }).role).to.deep.include({ name: 'Editor', type: 'editor' });
      expect(secretKeysIn(caller!.user)).to.deep.equal([]);
      expect(Object.keys(caller!.claims)).to.deep.equal(['id', 'iat', 'exp']);
      expect(caller!.claims.id).to.equal(2);
    });

    it('never answers a password, a reset token or a confirmation token: login, register, me', async () => {
      await api.api.knex('up_users').where('id', 1).update({ reset_password_token: 'reset-secret', confirmation_token: 'confirm-secret' });
      const login = await api.request.post('/api/auth/local').set('X-Forwarded-For', '10.8.0.5').send({ identifier: 'user01', password: 'Password-1!' });
      const registered = await api.request
        .post('/api/auth/local/register')
        .set('X-Forwarded-For', '10.8.0.6')
        .send({ username: 'quiet', email: 'quiet@example.com', password: 'Password-s!', resetPasswordToken: 'mine', confirmationToken: 'mine' });
      const me = await api.request.get('/api/users/me').set('Authorization', `Bearer ${login.body.jwt as string}`);
      for (const [label, response] of [['login', login], ['register', registered], ['me', me]] as const) {
        expect(response.status, label).to.equal(200);
        expect(secretKeysIn(response.body), label).to.deep.equal([]);
        expect(JSON.stringify(response.body), label).to.not.match(/secret|\$2[aby]\$/);
      }
      const stored = (await api.api.knex('up_users').where('username', 'quiet').first()) as Record<string, unknown>;
      expect(stored.password, 'stored as a bcrypt hash').to.match(/^\$2[aby]\$10\$/);
      expect(stored.reset_password_token, 'a register body cannot set it').to.equal(null);
    });

    it('takes as long to refuse an unknown identifier as a wrong password (a bcrypt comparison either way)', async () => {
      const unlimited = await serveUsers(fixture, usersOption(OPEN, { rateLimit: false }));
      try {
        const timed = async (identifier: string) => {
          const times: number[] = [];
          for (let attempt = 0; attempt < 3; attempt += 1) {
            const start = performance.now();
            const response = await unlimited.request.post('/api/auth/local').send({ identifier, password: 'wrong-password' });
            times.push(performance.now() - start);
            expect(response.status).to.equal(400);
          }
          return times.sort((a, b) => a - b)[1]!;
        };
        const unknown = await timed('nobody-at-all');
        const wrong = await timed('user05');
        // Without the decoy comparison an unknown identifier is answered 50 times faster; noise is far below that.
        expect(unknown / wrong, `${unknown.toFixed(1)} ms against ${wrong.toFixed(1)} ms`).to.be.above(0.4);
      } finally {
        await unlimited.close();
      }
    });

    it('answers a NUL character in an identifier or a register field with a 400, on every engine', async () => {
      const login = await api.request.post('/api/auth/local').set('X-Forwarded-For', '10.8.0.11').send({ identifier: 'user\u000001', password: 'Password-1!' });
      expect(login.status).to.equal(400);
      expect(login.body.error.message).to.equal('Invalid identifier or password');
      const register = await api.request.post('/api/auth/local/register').set('X-Forwarded-For', '10.8.0.12').send({ username: 'nul\u0000user', email: 'nul@example.com', password: 'Password-n!' });
      expect(register.status).to.equal(400);
      expect(register.body.error.details.errors).to.deep.equal([{ path: ['username'], message: 'username must not contain the NUL character', name: 'ValidationError' }]);
    });

    it('gives a registered user the configured default role', async () => {
      const staffApi = await serveUsers(fixture, usersOption(OPEN, { register: { defaultRole: 'editor' }, roles: { editor: 'staff' } }));
      try {
        const registered = await staffApi.request.post('/api/auth/local/register').set('X-Forwarded-For', '10.8.0.7').send({ username: 'newstaff', email: 'newstaff@example.com', password: 'Password-n!' });
        expect(registered.status).to.equal(200);
        expect((await staffApi.request.get('/api/articles?fields[0]=title').set('Authorization', `Bearer ${registered.body.jwt as string}`)).status).to.equal(200);
        const missing = await serveUsers(fixture, usersOption(OPEN, { register: { defaultRole: 'nobody' } }));
        try {
          const refused = await missing.request.post('/api/auth/local/register').set('X-Forwarded-For', '10.8.0.8').send({ username: 'orphan', email: 'orphan@example.com', password: 'Password-o!' });
          expect(refused.body.error).to.deep.include({ status: 400, name: 'ApplicationError', message: 'Impossible to find the default role' });
        } finally {
          await missing.close();
        }
      } finally {
        await staffApi.close();
      }
    });

    it('with email confirmation on, registers the user unconfirmed and answers without a token', async () => {
      const confirming = await serveUsers(fixture, usersOption({ register: true, emailConfirmation: true }));
      try {
        const registered = await confirming.request.post('/api/auth/local/register').set('X-Forwarded-For', '10.8.0.9').send({ username: 'pending', email: 'pending@example.com', password: 'Password-p!' });
        expect(registered.status).to.equal(200);
        expect(Object.keys(registered.body)).to.deep.equal(['user']);
        expect(registered.body.user).to.include({ username: 'pending', confirmed: false });
        const login = await confirming.request.post('/api/auth/local').set('X-Forwarded-For', '10.8.0.10').send({ identifier: 'pending', password: 'Password-p!' });
        expect(login.body.error).to.deep.include({ status: 400, name: 'ApplicationError', message: 'Your account email is not confirmed' });
      } finally {
        await confirming.close();
      }
    });
  });

  describe(`users option off: the API as before (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let api: ServedApi;

    before(async () => {
      fixture = await authFixture(client);
      api = await serveUsers(fixture, usersOption(OPEN), { users: undefined });
    });

    after(async () => {
      await api?.close();
      await fixture?.drop();
    });

    it('serves no login route, and a JWT is an unknown token (401)', async () => {
      expect((await api.request.post('/api/auth/local').send({ identifier: 'user01', password: 'Password-1!' })).status).to.be.oneOf([404, 405]);
      expect((await api.request.post('/api/auth/local/register').send({ username: 'x', email: 'x@example.com', password: 'Password-x!' })).status).to.be.oneOf([404, 405]);
      const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MX0.c2ln';
      const articles = await api.request.get('/api/articles').set('Authorization', `Bearer ${token}`);
      expect(articles.status).to.equal(401);
      expect(articles.body.error).to.deep.include({ name: 'UnauthorizedError', message: 'Missing or invalid credentials' });
      const me = await api.request.get('/api/users/me').set('Authorization', `Bearer ${token}`);
      expect(me.status, 'no /users/me: the content route of the user of id "me"').to.equal(404);
    });

  });
}
