/**
 * permissions.yaml in force while the API runs: a valid edit applies from the next request (the
 * file is watched; reloadPermissions() applies it at once), an invalid one keeps the rules in
 * force and reports every problem with file, line and column, a removed token is refused at once,
 * and under a file flipping between two rule sets every response follows one of them. A file
 * emptied, deleted or made unparsable while serving is an error: the rules in force stay (an
 * API closed on purpose says `roles: {}`).
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToken } from '../../plugin/access/tokens.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { fixtureDatabase, repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

const token = createToken();
const WITH_CATEGORIES = `roles:\n  public:\n    article: [find, findOne]\n    category: [find]\n  editor:\n    article: [find]\ntokens:\n  - { name: ci, role: editor, hash: "${token.hash}" }\n`;
const WITHOUT_CATEGORIES = 'roles:\n  public:\n    article: [find, findOne]\n  editor:\n    article: [find]\n';

async function eventually(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const kind of testDatabaseKinds()) {
  describe(`live permissions (${kind.name})`, () => {
    let root: string;
    let served: ServedApi;
    const errors: unknown[] = [];
    const write = (text: string) => writeFileSync(join(root, 'permissions.yaml'), text);
    const categoryOf = async () => {
      const response = await served.request.get('/api/articles?fields[0]=title&populate[category][fields][0]=name&pagination[pageSize]=1');
      expect(response.status).to.equal(200);
      return 'category' in response.body.data[0].attributes;
    };

    before(async () => {
      root = mkdtempSync(join(tmpdir(), 'content-api-permissions-'));
      for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
      write(WITH_CATEGORIES);
      served = await serveApi({ root, database: await fixtureDatabase(kind.client), sync: false, onPermissionsError: (error) => errors.push(error) });
    });
    after(async () => {
      await served.close();
      rmSync(root, { recursive: true, force: true });
    });

    it('applies a valid edit from the next request, once the watcher sees it', async () => {
      expect(await categoryOf()).to.equal(true);
      write(WITHOUT_CATEGORIES);
      await eventually(async () => !(await categoryOf()));
      write(WITH_CATEGORIES);
      await eventually(() => categoryOf());
    });

    it('applies an edit at once through reloadPermissions(), dropping the plans of the old rules', async () => {
      expect(await categoryOf()).to.equal(true);
      write(WITHOUT_CATEGORIES);
      await served.api.reloadPermissions();
      expect(await categoryOf()).to.equal(false);
      expect((await served.request.get('/api/categories')).status).to.equal(403);
      write(WITH_CATEGORIES);
      await served.api.reloadPermissions();
      expect((await served.request.get('/api/categories')).status).to.equal(200);
    });

    it('keeps the rules in force on an invalid edit, and reports every problem with file, line and column', async () => {
      write('roles:\n  public:\n    article: [find, fly]\n    widget: [find]\n');
      let thrown: unknown;
      try {
        await served.api.reloadPermissions();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(SchemaError);
      const lines = (thrown as SchemaError).problems.map((problem) => `${problem.file}:${problem.line}:${problem.column}`);
      expect(lines).to.deep.equal(['permissions.yaml:3:21', 'permissions.yaml:4:5']);
      expect((await served.request.get('/api/categories')).status).to.equal(200);
      await eventually(async () => errors.some((error) => error instanceof SchemaError));
      expect((await served.request.get('/api/categories')).status).to.equal(200);
      write(WITH_CATEGORIES);
      await served.api.reloadPermissions();
    });

    it('refuses a removed token from the next request', async () => {
      const withToken = () => served.request.get('/api/articles?fields[0]=title').set('Authorization', `Bearer ${token.token}`);
      expect((await withToken()).status).to.equal(200);
      write(WITHOUT_CATEGORIES);
      await served.api.reloadPermissions();
      expect((await withToken()).status).to.equal(401);
      write(WITH_CATEGORIES);
      await served.api.reloadPermissions();
      expect((await withToken()).status).to.equal(200);
    });

    // Through the real watcher: what an editor, a deploy or a slip of the hand does to the file.
    for (const [damage, spoil] of [
      ['emptied', () => write('')],
      ['deleted', () => unlinkSync(join(root, 'permissions.yaml'))],
      ['replaced by broken YAML', () => {
        writeFileSync(join(root, 'permissions.next'), 'roles:\n  public:\n    article: [find, findOne\n');
        renameSync(join(root, 'permissions.next'), join(root, 'permissions.yaml'));
      }],
    ] as const) {
      it(`keeps the rules in force when the file is ${damage}, reports one error, and applies a later valid edit`, async () => {
        const withToken = () => served.request.get('/api/articles?fields[0]=title').set('Authorization', `Bearer ${token.token}`);
        const reported = errors.length;
        spoil();
        await eventually(async () => errors.length > reported);
        expect((await served.request.get('/api/categories')).status).to.equal(200);
        expect((await withToken()).status).to.equal(200);
        expect(served.api.permissions.roles.size).to.equal(2);
        // Folded into one report, however many events the change made.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(errors.length).to.equal(reported + 1);
        expect(String(errors[reported] instanceof Error ? (errors[reported] as Error).message : errors[reported])).to.match(/permissions\.yaml/);
        write(WITHOUT_CATEGORIES);
        await eventually(async () => (await served.request.get('/api/categories')).status === 403);
        expect((await withToken()).status).to.equal(401);
        write(WITH_CATEGORIES);
        await eventually(async () => (await served.request.get('/api/categories')).status === 200);
      });
    }

    it('reads `roles: {}` as an API closed on purpose', async () => {
      write('roles: {}\n');
      await served.api.reloadPermissions();
      expect((await served.request.get('/api/articles')).status).to.equal(403);
      expect((await served.request.get('/api/articles').set('Authorization', `Bearer ${token.token}`)).status).to.equal(401);
      write(WITH_CATEGORIES);
      await served.api.reloadPermissions();
    });

    it('answers every request by the old rules or the new while the file flips', async () => {
      let flips = 0;
      const flipping = (async () => {
        for (; flips < 20; flips += 1) {
          write(flips % 2 ? WITH_CATEGORIES : WITHOUT_CATEGORIES);
          await served.api.reloadPermissions();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const statuses = new Set<number>();
      while (flips < 20) {
        const responses = await Promise.all(Array.from({ length: 5 }, () => served.request.get('/api/categories?fields[0]=name&pagination[pageSize]=1')));
        for (const response of responses) statuses.add(response.status);
      }
      await flipping;
      expect([...statuses].every((status) => status === 200 || status === 403)).to.equal(true);
      write(WITH_CATEGORIES);
      await served.api.reloadPermissions();
    });
  });
}
