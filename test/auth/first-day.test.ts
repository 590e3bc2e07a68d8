/**
 * docs/users.md's walk "From nothing to a logged-in user", as a new user runs it: `init --users`
 * into an empty folder, the page's YAML blocks written where it says, `check`, then the API the
 * scaffolded app.ts starts (the same `users` option, over a fresh database: the roles' rows are
 * the API's own), on every engine configured: register, log in, create a note, update it, and a
 * second user who cannot.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createTestApi, testDatabases, type TestApi } from '../../plugin/testing/index.js';
import { runCli } from '../support/run-node.js';
import { repoRoot } from '../support/server.js';

/** The YAML block of docs/users.md whose first line is `# <first>`, without that line. */
function docsBlock(first: string): string {
  const page = readFileSync(join(repoRoot, 'docs', 'users.md'), 'utf8');
  const block = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]).find((text) => text.startsWith(`# ${first}`));
  if (!block) throw new Error(`docs/users.md has no yaml block starting "# ${first}"`);
  return block.slice(block.indexOf('\n') + 1);
}

describe('docs/users.md: from nothing to a logged-in user', function () {
  this.timeout(60_000);
  let app: string;
  before(async () => {
    app = mkdtempSync(join(tmpdir(), 'content-api-first-day-'));
    const init = await runCli(['init', '--users'], app);
    expect(init.code, init.stderr).to.equal(0);
    appendFileSync(join(app, 'content-types', 'note.yaml'), docsBlock('content-types/note.yaml'));
    writeFileSync(join(app, 'permissions.yaml'), docsBlock('permissions.yaml'));
  });
  after(() => rmSync(app, { recursive: true, force: true }));

  it('checks', async () => {
    const check = await runCli(['check'], app);
    expect(check.code, check.stdout).to.equal(0);
    expect(check.stdout).to.equal('schema ok: 3 content types, 0 components\npermissions.yaml ok: 2 roles, 0 tokens\n');
  });

  for (const database of testDatabases()) {
    describe(database, () => {
      let api: TestApi;
      before(async () => {
        // The option of the scaffolded app.ts.
        api = await createTestApi({ root: app, database, users: { jwtSecret: 'a secret for tests only', register: true } });
      });
      after(() => api?.close());

      const register = async (username: string, address: string) => {
        const registered = await api.request.post('/api/auth/local/register').set('X-Forwarded-For', address).send({ username, email: `${username}@example.com`, password: 'Password-1!' });
        expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
        const login = await api.request.post('/api/auth/local').set('X-Forwarded-For', address).send({ identifier: `${username}@example.com`, password: 'Password-1!' });
        expect(login.status, JSON.stringify(login.body)).to.equal(200);
        return { id: registered.body.user.id as number, bearer: `Bearer ${login.body.jwt as string}` };
      };

      it("gives the fresh database Strapi's two roles", async () => {
        const roles = await api.knex('up_roles').select('name', 'type', 'description').orderBy('id');
        expect(roles).to.deep.equal([
          { name: 'Authenticated', type: 'authenticated', description: 'Default role given to authenticated user.' },
          { name: 'Public', type: 'public', description: 'Default role given to unauthenticated user.' },
        ]);
      });

      it('registers a user who logs in, creates a note and updates it; another user cannot', async () => {
        const ada = await register('ada', '10.9.0.1');
        const me = await api.request.get('/api/users/me').set('Authorization', ada.bearer);
        expect(me.body).to.include({ id: ada.id, username: 'ada' });

        const created = await api.request.post('/api/notes').set('Authorization', ada.bearer).send({ data: { title: 'Mine' } });
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        const id = created.body.data.id as number;
        const owner = await api.request.get(`/api/notes/${id}?populate[owner][fields][0]=username`).set('Authorization', ada.bearer);
        expect(owner.body.data.attributes.owner.data).to.deep.include({ id: ada.id });

        const updated = await api.request.put(`/api/notes/${id}`).set('Authorization', ada.bearer).send({ data: { stars: 4 } });
        expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
        expect(updated.body.data.attributes).to.include({ title: 'Mine', stars: 4 });

        const grace = await register('grace', '10.9.0.2');
        const refused = await api.request.put(`/api/notes/${id}`).set('Authorization', grace.bearer).send({ data: { stars: 1 } });
        expect(refused.status).to.equal(404);
        const anonymous = await api.request.put(`/api/notes/${id}`).send({ data: { stars: 1 } });
        expect(anonymous.status).to.equal(403);
        const kept = await api.request.get(`/api/notes/${id}`);
        expect(kept.body.data.attributes.stars).to.equal(4);
      });
    });
  }
});
