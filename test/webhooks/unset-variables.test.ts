/**
 * The environment variables webhooks.yaml names (secrets) are the delivering server's business:
 * `content-api webhooks list`, `deliveries`, `sync` and `check` read without them, show an unset
 * one as "(not set)" and never print a set one's value; `serve`, which delivers, refuses to start
 * without them and says which are missing, in plain words.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { runCli } from '../support/run-node.js';

const SECRET = 'CONTENT_API_TEST_UNSET_SECRET';
const TOKEN = 'CONTENT_API_TEST_UNSET_TOKEN';

const WEBHOOKS = `targets:
  blog:
    url: http://127.0.0.1:9/hook
    secret: \${${SECRET}}
    headers: { Authorization: "Bearer \${${TOKEN}}" }
    events: [media.create, entry.create]
`;

/** The environment without the two variables. */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of [SECRET, TOKEN]) if (!(name in extra)) delete env[name];
  return env;
}

for (const kind of testDatabaseKinds()) {
  describe(`webhooks: reading without the variables webhooks.yaml names (${kind.name})`, function () {
    this.timeout(60_000);
    let root: string;
    let database: TestDatabase | null = null;
    let url: string;

    before(async () => {
      root = mkdtempSync(join(tmpdir(), 'content-api-webhooks-unset-'));
      for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
      writeFileSync(join(root, 'webhooks.yaml'), WEBHOOKS);
      if (kind.client === 'sqlite') url = `sqlite:${join(root, 'data.db')}`;
      else url = (database = await createTestDatabase(kind.client)).url;
      const synced = await runCli(['sync', '--root', root, '--database', url], root, environment());
      expect(synced.code, synced.stderr + synced.stdout).to.equal(0);
    });
    after(async () => {
      await database?.drop();
      rmSync(root, { recursive: true, force: true });
    });

    it('webhooks list shows the unset variables as (not set)', async () => {
      const listed = await runCli(['webhooks', 'list', '--root', root, '--database', url], root, environment());
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.stdout).to.equal(
        `blog  http://127.0.0.1:9/hook (media.create, entry.create)  pending 0, delivered 0, failed 0  secret \${${SECRET}} (not set), headers.Authorization \${${TOKEN}} (not set)\n`,
      );
    });

    it('webhooks list never prints a value of the variables', async () => {
      const listed = await runCli(['webhooks', 'list', '--root', root, '--database', url], root, environment({ [SECRET]: 'very-secret-value', [TOKEN]: 'very-secret-token' }));
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.stdout).to.equal('blog  http://127.0.0.1:9/hook (media.create, entry.create)  pending 0, delivered 0, failed 0\n');
    });

    it('webhooks deliveries reads without them', async () => {
      const shown = await runCli(['webhooks', 'deliveries', '--root', root, '--database', url], root, environment());
      expect([shown.code, shown.stdout, shown.stderr]).to.deep.equal([0, 'no deliveries\n', '']);
    });
  });
}

describe('webhooks: the variables webhooks.yaml names, where they are needed', function () {
  this.timeout(60_000);
  let root: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-webhooks-unset-'));
    for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    writeFileSync(join(root, 'webhooks.yaml'), WEBHOOKS);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('serve, which delivers, says which variables are missing, in plain words', async () => {
    const served = await runCli(['serve', '--root', root, '--database', `sqlite:${join(root, 'serve.db')}`, '--port', '0', '--quiet'], root, environment());
    expect(served.code).to.equal(1);
    expect(served.stderr).to.include(`the environment variables ${SECRET}, ${TOKEN} are not set, and webhooks are not delivered without them`);
    expect(served.stderr).to.include(`${SECRET} for targets.blog.secret (webhooks.yaml:4:13)`);
    expect(served.stderr).to.not.match(/schema problem/);
  });

  it('check reads the file without them, and says they are not set here', async () => {
    const checked = await runCli(['check', '--root', root], root, environment());
    expect(checked.code, checked.stdout).to.equal(0);
    expect(checked.stdout).to.include(`webhooks.yaml ok: 1 target (not set here, needed to deliver: ${SECRET}, ${TOKEN})`);
  });
});
