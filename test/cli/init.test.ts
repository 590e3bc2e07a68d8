/**
 * `content-api init`: the app it scaffolds passes `content-api check`, type-checks, and its own
 * suite passes against this package, installed as npm would (node_modules/koa-content-api a link
 * to this repository, its dependencies beside it); `npm run seed` and `app.ts` serve its data.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runCli, runNode } from '../support/run-node.js';
import { cliPath, repoRoot } from '../support/server.js';

const repoModules = join(repoRoot, 'node_modules');
const require = createRequire(import.meta.url);
const ts = require('typescript') as typeof import('typescript');

/** TypeScript to an ES module, types stripped, as tsx runs it. */
function transpile(from: string, to: string): void {
  const output = ts.transpileModule(readFileSync(from, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  writeFileSync(to, output.outputText);
}

/** node_modules as `npm install` leaves it: this package, and every dependency beside it. */
function linkModules(app: string): void {
  mkdirSync(join(app, 'node_modules'));
  for (const name of readdirSync(repoModules)) symlinkSync(join(repoModules, name), join(app, 'node_modules', name));
  symlinkSync(repoRoot, join(app, 'node_modules', 'koa-content-api'));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('content-api init', function () {
  // Each scaffold is type-checked and runs its own suite in child processes.
  this.timeout(180_000);
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'content-api-init-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('is listed in the help', async () => {
    const result = await runCli(['--help'], folder);
    expect(result.stdout).to.match(/^ {2}init +scaffold a new app/m);
  });

  it('scaffolds an app that passes check, type-checks, and whose suite passes', async () => {
    const app = join(folder, 'my-app');
    const init = await runCli(['init', 'my-app'], folder);
    expect(init.code, init.stderr).to.equal(0);
    expect(init.stdout).to.include('wrote my-app/content-types/note.yaml');
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(manifest).to.include({ name: 'my-app', type: 'module' });
    expect(manifest.dependencies).to.have.property('koa-content-api');
    expect(manifest.scripts).to.include({ test: "mocha -n import=tsx 'test/**/*.test.ts'", check: 'content-api check' });
    expect(JSON.parse(readFileSync(join(app, '.mocharc.json'), 'utf8'))).to.deep.equal({ timeout: 20_000 });

    const check = await runCli(['check'], app);
    expect(check.code, check.stdout).to.equal(0);
    expect(check.stdout).to.equal('schema ok: 1 content type, 0 components\npermissions.yaml ok: 1 role, 0 tokens\n');

    linkModules(app);
    // The editor's modeline names the JSON Schema where npm puts it.
    const modeline = readFileSync(join(app, 'content-types', 'note.yaml'), 'utf8').split('\n')[0]!;
    expect(modeline).to.match(/^# yaml-language-server: \$schema=(.+)$/);
    expect(existsSync(join(app, 'content-types', modeline.split('$schema=')[1]!))).to.equal(true);

    const typecheck = await runNode([join(repoModules, 'typescript', 'bin', 'tsc'), '-p', '.'], app);
    expect(typecheck.code, typecheck.stdout).to.equal(0);

    transpile(join(app, 'test', 'notes.test.ts'), join(app, 'test', 'notes.test.js'));
    const suite = await runNode([join(repoModules, 'mocha', 'bin', 'mocha.js'), '--no-color', 'test/notes.test.js'], app);
    expect(suite.code, suite.stdout + suite.stderr).to.equal(0);
    expect(suite.stdout).to.match(/notes \(sqlite\)[\s\S]*✔ lists the published notes to the public[\s\S]*✔ finds one note by id/);
  });

  it('scaffolds an app whose `npm run seed` fills the database app.ts serves', async () => {
    const app = join(folder, 'notes');
    expect((await runCli(['init', app], folder)).code).to.equal(0);
    linkModules(app);
    // The default database of both, not one the environment names.
    const env = { ...process.env, DATABASE_URL: '' };
    const seed = await runNode([cliPath, ...manifestScript(app, 'seed')], app, env);
    expect(seed.code, seed.stderr).to.equal(0);
    expect(seed.stdout).to.match(/^ {2}notes +2 rows\nseeded 2 rows in 1 table$/m);
    transpile(join(app, 'app.ts'), join(app, 'app.mjs'));
    const port = await freePort();
    const child = spawn(process.execPath, ['app.mjs'], { cwd: app, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
    try {
      let body: { data: { attributes: { title: string } }[] } | null = null;
      for (let attempt = 0; attempt < 100 && !body; attempt++) {
        body = await fetch(`http://127.0.0.1:${port}/api/notes`).then((response) => response.json() as Promise<typeof body>, () => null);
        if (!body) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(body?.data.map((entry) => entry.attributes.title)).to.deep.equal(['Hello']);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
  });

  it('scaffolds with --users an app with end users that passes check, type-checks, and whose suites pass', async () => {
    const app = join(folder, 'with-users');
    const init = await runCli(['init', 'with-users', '--users'], folder);
    expect(init.code, init.stderr).to.equal(0);
    expect(init.stdout).to.include('wrote with-users/content-types/user.yaml\nwrote with-users/content-types/role.yaml\n');
    expect(init.stdout).to.include('JWT_SECRET=$(openssl rand -base64 32) npm start');
    // The types as Strapi defines them, as this repository's example schema has them, the uid stated.
    for (const name of ['user', 'role']) {
      const [modeline, ...rest] = readFileSync(join(app, 'content-types', `${name}.yaml`), 'utf8').split('\n');
      expect(modeline).to.equal('# yaml-language-server: $schema=../node_modules/koa-content-api/plugin/schema/content-type.schema.json');
      expect(rest.join('\n')).to.equal(readFileSync(join(repoRoot, 'content-types', `${name}.yaml`), 'utf8').split('\n').slice(1).join('\n'));
      expect(rest[0]).to.equal(`uid: plugin::users-permissions.${name}`);
    }
    const check = await runCli(['check'], app);
    expect(check.code, check.stdout).to.equal(0);
    expect(check.stdout).to.equal('schema ok: 3 content types, 0 components\npermissions.yaml ok: 2 roles, 0 tokens\n');
    expect(readFileSync(join(app, 'permissions.yaml'), 'utf8')).to.match(/^ {2}public:\n {4}note: \[find, findOne\]\n {2}authenticated:\n {4}note: \[find, findOne\]\n/m);

    linkModules(app);
    const typecheck = await runNode([join(repoModules, 'typescript', 'bin', 'tsc'), '-p', '.'], app);
    expect(typecheck.code, typecheck.stdout).to.equal(0);
    transpile(join(app, 'test', 'users.test.ts'), join(app, 'test', 'users.test.js'));
    const suite = await runNode([join(repoModules, 'mocha', 'bin', 'mocha.js'), '--no-color', 'test/users.test.js'], app);
    expect(suite.code, suite.stdout + suite.stderr).to.equal(0);
    expect(suite.stdout).to.match(/end users \(sqlite\)[\s\S]*✔ registers a user, who logs in and reads \/users\/me/);
  });

  it('scaffolds with --users an app.ts that refuses to start without JWT_SECRET, and registers users with it', async () => {
    const app = join(folder, 'served');
    expect((await runCli(['init', app, '--users'], folder)).code).to.equal(0);
    linkModules(app);
    transpile(join(app, 'app.ts'), join(app, 'app.mjs'));
    const refused = await runNode(['app.mjs'], app, { ...process.env, JWT_SECRET: '', DATABASE_URL: '' });
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.include('JWT_SECRET is not set: the secret login tokens are signed with');
    const port = await freePort();
    const child = spawn(process.execPath, ['app.mjs'], { cwd: app, env: { ...process.env, DATABASE_URL: '', JWT_SECRET: 'a secret', PORT: String(port) }, stdio: 'ignore' });
    try {
      let registered: { status: number; body: { user?: { username: string } } } | null = null;
      for (let attempt = 0; attempt < 100 && !registered; attempt++) {
        registered = await fetch(`http://127.0.0.1:${port}/api/auth/local/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'ada', email: 'ada@example.com', password: 'Password-1!' }),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as { user?: { username: string } } }), () => null);
        if (!registered) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The fresh database was given the authenticated role at start.
      expect(registered?.status, JSON.stringify(registered?.body)).to.equal(200);
      expect(registered?.body.user?.username).to.equal('ada');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
  });

  it('says which uid a users-permissions user.yaml without one lacks', async () => {
    mkdirSync(join(folder, 'content-types'));
    writeFileSync(join(folder, 'permissions.yaml'), 'roles: {}\n');
    const stock = (name: string) => readFileSync(join(repoRoot, 'content-types', `${name}.yaml`), 'utf8');
    writeFileSync(join(folder, 'content-types', 'user.yaml'), stock('user').replace('uid: plugin::users-permissions.user\n', ''));
    writeFileSync(join(folder, 'content-types', 'role.yaml'), stock('role'));
    const check = await runCli(['check'], folder);
    expect(check.code).to.equal(1);
    expect(check.stdout).to.include(
      'content-types/role.yaml:31:13 attributes.users.target: unknown target "plugin::users-permissions.user"; content-types/user.yaml declares "api::user.user": add "uid: plugin::users-permissions.user" at its top level to make it the users-permissions user\n',
    );
    rmSync(join(folder, 'content-types', 'user.yaml'));
    const without = await runCli(['check'], folder);
    expect(without.stdout).to.include('no content type declares it: the users-permissions user and role are content-types/user.yaml and content-types/role.yaml with "uid: plugin::users-permissions.user" and "uid: plugin::users-permissions.role", as `content-api init --users` writes them');
  });

  it('writes into an existing folder, but overwrites nothing', async () => {
    mkdirSync(join(folder, 'test'));
    writeFileSync(join(folder, 'test', 'data.yaml'), 'mine\n');
    const refused = await runCli(['init'], folder);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.equal('content-api init: test/data.yaml already exists; init writes into a folder without them, and nothing was written\n');
    expect(readdirSync(folder)).to.deep.equal(['test']);
    expect(readFileSync(join(folder, 'test', 'data.yaml'), 'utf8')).to.equal('mine\n');
    rmSync(join(folder, 'test'), { recursive: true });
    const written = await runCli(['init'], folder);
    expect(written.code, written.stderr).to.equal(0);
    expect(written.stdout).to.include('next: npm install && npm test');
  });

  it('takes one folder at most', async () => {
    const result = await runCli(['init', 'a', 'b'], folder);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include('usage: content-api init [DIR]');
  });
});

/** A script of the scaffolded package.json, as the arguments of the CLI it runs (`content-api …`). */
function manifestScript(app: string, script: string): string[] {
  const command: string = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).scripts[script];
  const [bin, ...args] = command.split(' ');
  expect(bin).to.equal('content-api');
  return args;
}
