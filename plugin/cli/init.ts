/**
 * `content-api init [DIR] [--users]`: scaffold a new app in DIR (default `.`, created if missing):
 * a content type, `permissions.yaml` with a public role, a Koa `app.ts`, a mocha suite on the
 * testing kit with its data file, and a `package.json` whose scripts run them. `--users` adds
 * end users as Strapi's users-permissions plugin serves them: its user and role types, the
 * authenticated role in `permissions.yaml`, the `users` option in `app.ts` and a suite that
 * registers and logs in. What it writes passes `content-api check` and its suite passes once
 * installed. An existing file is never overwritten: if any of them is there, nothing is written.
 * Exit 0 when written, 1 when a file exists, 2 on a usage error.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { stockUsersPermissionsDocument } from '../schema/users-permissions.js';
import { commandHelp, parseCommand } from './common.js';

const OPTIONS = { users: { type: 'boolean', default: false } } as const;

const USAGE = commandHelp('init [DIR] [--users]', OPTIONS, {
  users: "add end users who register and log in (Strapi's users-permissions: its user and role types, the authenticated role)",
});

/** This package's manifest: its name and version, and the versions the app's dependencies get. */
interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, USAGE, true);
  if (positionals.length > 1) {
    process.stderr.write(`content-api init: one folder at most\n${USAGE}`);
    return 2;
  }
  const dir = positionals[0] ?? '.';
  const files = scaffold(basename(resolve(dir)), readManifest(), { users: values.users });
  const existing = Object.keys(files).filter((file) => existsSync(join(dir, file)));
  if (existing.length) {
    process.stderr.write(`content-api init: ${existing.map((file) => join(dir, file)).join(', ')} already exist${existing.length === 1 ? 's' : ''}; init writes into a folder without them, and nothing was written\n`);
    return 1;
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    // `wx`: a file that appeared since the check above is still not overwritten.
    writeFileSync(join(dir, file), text, { flag: 'wx' });
    process.stdout.write(`wrote ${join(dir, file)}\n`);
  }
  const cd = dir === '.' ? '' : `cd ${dir} && `;
  const start = values.users ? 'JWT_SECRET=$(openssl rand -base64 32) npm start' : 'npm start';
  process.stdout.write(`\nnext: ${cd}npm install && npm test\n      npm run seed && ${start}   # then open http://127.0.0.1:1337/api/notes\n`);
  if (values.users) process.stdout.write('      end users: docs/users.md of koa-content-api, "From nothing to a logged-in user"\n');
  return 0;
}

function readManifest(): Manifest {
  // dist/plugin/cli/init.js → the package's root.
  return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as Manifest;
}

/** An npm package name from a folder name. */
function packageName(folder: string): string {
  const name = folder.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return name || 'content-api-app';
}

export interface ScaffoldOptions {
  /** End users (users-permissions): `init --users`. */
  readonly users?: boolean;
}

/** The app's files by path, in the order they are written. */
export function scaffold(folder: string, manifest: Manifest, { users = false }: ScaffoldOptions = {}): Record<string, string> {
  const versionOf = (name: string, fallback: string) => manifest.dependencies?.[name] ?? manifest.devDependencies?.[name] ?? fallback;
  const dev = (names: string[]) => Object.fromEntries(names.map((name) => [name, versionOf(name, '*')]));
  const packageJson = {
    name: packageName(folder),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      start: 'tsx app.ts',
      check: 'content-api check',
      seed: 'content-api seed --data test/data.yaml',
      test: "mocha -n import=tsx 'test/**/*.test.ts'",
      typecheck: 'tsc --noEmit',
    },
    dependencies: { koa: versionOf('koa', '^3.0.0'), [manifest.name]: `^${manifest.version}` },
    devDependencies: {
      ...dev(['@types/koa', '@types/mocha', '@types/node', '@types/supertest', 'mocha', 'supertest']),
      tsx: '^4.19.0',
      typescript: versionOf('typescript', '^5.0.0'),
    },
  };
  const tsconfig = {
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node', 'mocha'] },
    include: ['app.ts', 'test/**/*.ts'],
  };
  return {
    'package.json': `${JSON.stringify(packageJson, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    '.gitignore': 'node_modules/\n.data/\n',
    // Each suite creates its databases and tables first: mocha's 2 s is short for that on a busy
    // server. In mocha's own file, so that any way of running mocha in the app reads it.
    '.mocharc.json': `${JSON.stringify({ timeout: 20_000 }, null, 2)}\n`,
    'content-types/note.yaml': NOTE_TYPE,
    ...(users ? { 'content-types/user.yaml': stockTypeFile('user'), 'content-types/role.yaml': stockTypeFile('role') } : {}),
    'permissions.yaml': users ? USERS_PERMISSIONS : PERMISSIONS,
    'app.ts': users ? USERS_APP : APP,
    'test/data.yaml': DATA,
    'test/notes.test.ts': TEST,
    ...(users ? { 'test/users.test.ts': USERS_TEST } : {}),
  };
}

/** The users-permissions user or role, as `import-strapi` writes it, the uid stated. */
function stockTypeFile(name: 'user' | 'role'): string {
  return `# yaml-language-server: $schema=../node_modules/koa-content-api/plugin/schema/content-type.schema.json\n${stringify(stockUsersPermissionsDocument(name), { lineWidth: 0 })}`;
}

const NOTE_TYPE = `# yaml-language-server: $schema=../node_modules/koa-content-api/plugin/schema/content-type.schema.json
kind: collectionType
collectionName: notes
info: { singularName: note, pluralName: notes, displayName: Note }
options: { draftAndPublish: true }
attributes:
  title: { type: string, required: true, maxLength: 120 }
  body: { type: richtext }
  stars: { type: integer, min: 1, max: 5 }
`;

const PERMISSIONS = `# Who may do what: the public role answers requests without a token.
roles:
  public:
    note: [find, findOne]
`;

// Register and login, and /users/me, are no actions of this file: the \`users\` option serves them
// (register to everyone when \`register\` is on, /users/me to every logged-in user), as a Strapi
// app's default permissions give them to Public and Authenticated.
const USERS_PERMISSIONS = `# Who may do what. A request without a login token is the public role; a logged-in user acts as
# the type of their Strapi role: \`authenticated\` for every user who registered. The app's \`users\`
# option opens POST /api/auth/local/register and POST /api/auth/local to the public and
# GET /api/users/me to logged-in users, as a Strapi app's default permissions do.
roles:
  public:
    note: [find, findOne]
  authenticated:
    note: [find, findOne]
`;

const USERS_APP = `import Koa from 'koa';
import { contentApi } from 'koa-content-api';

// The secret login tokens are signed with: the same at every start, or every token is refused.
const jwtSecret = process.env.JWT_SECRET;
if (!jwtSecret) throw new Error('JWT_SECRET is not set: the secret login tokens are signed with (for example JWT_SECRET=$(openssl rand -base64 32) npm start)');

const app = new Koa();
// Creates the tables the schema needs at start, and Strapi's Authenticated and Public roles when
// there is no role yet; \`npm run seed\` fills the notes from test/data.yaml.
const api = await contentApi({
  root: '.',
  database: process.env.DATABASE_URL || 'sqlite:.data/content.db',
  // POST /api/auth/local/register, POST /api/auth/local, GET /api/users/me (docs/users.md of koa-content-api).
  users: { jwtSecret, register: true },
});
app.use(api.routes());
app.use(api.allowedMethods());

const port = Number(process.env.PORT ?? 1337);
const server = app.listen(port, '127.0.0.1', () => console.log(\`http://127.0.0.1:\${port}/api/notes\`));
process.once('SIGINT', () => server.close(() => void api.close()));
`;

const USERS_TEST = `import assert from 'node:assert/strict';
import { createTestApi, testDatabases, type TestApi } from 'koa-content-api/testing';

// SQLite, and PostgreSQL when TEST_DATABASE_URL names a server, MariaDB when TEST_MYSQL_URL does.
for (const database of testDatabases()) {
  describe(\`end users (\${database})\`, () => {
    let api: TestApi;
    before(async () => {
      api = await createTestApi({ root: '.', database, users: { jwtSecret: 'a secret for tests only', register: true } });
    });
    after(() => api?.close());

    it('registers a user, who logs in and reads /users/me', async () => {
      const registered = await api.request.post('/api/auth/local/register').send({ username: 'ada', email: 'ada@example.com', password: 'Password-1!' });
      assert.equal(registered.status, 200);
      const login = await api.request.post('/api/auth/local').send({ identifier: 'ada@example.com', password: 'Password-1!' });
      assert.equal(login.status, 200);
      const me = await api.request.get('/api/users/me').set('Authorization', \`Bearer \${login.body.jwt}\`);
      assert.equal(me.body.username, 'ada');
    });
  });
}
`;

const APP = `import Koa from 'koa';
import { contentApi } from 'koa-content-api';

const app = new Koa();
// Creates the tables the schema needs at start; \`npm run seed\` fills them from test/data.yaml.
const api = await contentApi({ root: '.', database: process.env.DATABASE_URL || 'sqlite:.data/content.db' });
app.use(api.routes());
app.use(api.allowedMethods());

const port = Number(process.env.PORT ?? 1337);
const server = app.listen(port, '127.0.0.1', () => console.log(\`http://127.0.0.1:\${port}/api/notes\`));
process.once('SIGINT', () => server.close(() => void api.close()));
`;

const DATA = `# Entries per type, keyed by a name the tests can use (api.ids).
note:
  hello: { title: Hello, body: The first note., stars: 5 }
  later: { title: Unfinished, publishedAt: null }
`;

const TEST = `import assert from 'node:assert/strict';
import { createTestApi, testDatabases, type TestApi } from 'koa-content-api/testing';

// SQLite, and PostgreSQL when TEST_DATABASE_URL names a server, MariaDB when TEST_MYSQL_URL does.
for (const database of testDatabases()) {
  describe(\`notes (\${database})\`, () => {
    let api: TestApi;
    before(async () => {
      api = await createTestApi({ root: '.', data: 'test/data.yaml', database });
    });
    after(() => api?.close());

    it('lists the published notes to the public', async () => {
      const response = await api.request.get('/api/notes?fields[0]=title');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title), ['Hello']);
    });

    it('finds one note by id', async () => {
      const id = api.ids.get('api::note.note')!.get('hello')!;
      const response = await api.request.get(\`/api/notes/\${id}\`);
      assert.equal(response.body.data.attributes.stars, 5);
    });
  });
}
`;
