/**
 * The package as a user installs it: `npm pack` ships the built plugin, its JSON Schemas and the
 * explorer page and nothing of the tests, fixtures, bench or databases; installed from the
 * tarball into a fresh app, every command runs through node_modules/.bin/content-api (a symlink)
 * and the package imports from an ESM script.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { repoRoot } from '../support/api.js';
import { startServer } from '../support/server.js';

const run = promisify(execFile);

interface PackResult {
  filename: string;
  files: { path: string }[];
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' } });
  return stdout;
}

describe('the packed package', function () {
  this.timeout(300_000);
  let work: string;
  let app: string;
  let packed: PackResult;
  let bin: string;
  const cli = async (args: string[]) => {
    try {
      const { stdout, stderr } = await run(bin, args, { cwd: app, maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'content-api-pack-'));
    // dist/ is built by `npm test` before the suites run; packing does not rebuild it.
    [packed] = JSON.parse(await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], repoRoot)) as PackResult[];
    app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await npm(['install', '--prefer-offline', '--ignore-scripts', '--no-package-lock', join(work, packed.filename)], app);
    // Scripts were skipped: reuse the project's own build of the native SQLite driver when it is the same version.
    const installed = join(app, 'node_modules', 'better-sqlite3');
    const own = join(repoRoot, 'node_modules', 'better-sqlite3');
    const version = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    if (version(installed) === version(own)) cpSync(join(own, 'build'), join(installed, 'build'), { recursive: true });
    else await npm(['rebuild', 'better-sqlite3'], app);
    bin = join(app, 'node_modules', '.bin', 'content-api');
    for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(app, entry), { recursive: true });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('ships the built plugin, its schemas and the explorer page, and no tests, fixtures or databases', () => {
    const paths = packed.files.map((file) => file.path);
    for (const shipped of ['package.json', 'README.md', 'dist/plugin/index.js', 'dist/plugin/index.d.ts', 'dist/plugin/cli.js', 'dist/plugin/testing/index.js', 'plugin/schema/content-type.schema.json', 'plugin/schema/component.schema.json', 'plugin/explorer/explorer.html']) {
      expect(paths, shipped).to.include(shipped);
    }
    const unwanted = paths.filter((path) => /^(dist\/)?(test|bench|examples)\/|\.db$|^content-types\/|^components\/|permissions\.yaml$|\.tsbuildinfo$/.test(path));
    expect(unwanted).to.deep.equal([]);
  });

  it('runs no script when installed (npm runs these on install), and builds before packing and starting', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'koa-content-api', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    const onInstall = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'].filter((script) => installed.scripts?.[script] !== undefined);
    expect(onInstall).to.deep.equal([]);
    // A fresh clone: `npm install && npm start` builds through start; `npm pack` and `npm publish` through prepack.
    expect(installed.scripts?.prepack).to.equal('tsc -p tsconfig.json');
    expect(installed.scripts?.start).to.match(/^tsc -p tsconfig\.json && /);
  });

  it('prints the usage and every command\'s help through the bin', async () => {
    const help = await cli(['--help']);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.match(/^usage: content-api <command>/);
    for (const command of ['serve', 'sync', 'seed', 'check', 'copy', 'explain', 'token', 'types', 'openapi', 'import-strapi']) {
      const result = await cli([command, '--help']);
      expect(result.code, command).to.equal(0);
      expect(result.stdout, command).to.match(new RegExp(`^usage: content-api ${command}`));
    }
    const unknown = await cli(['sync', '--nope']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.match(/content-api sync: Unknown option '--nope'/);
  });

  it('runs check, sync, seed, copy, explain, token, types, openapi and import-strapi', async () => {
    const database = `sqlite:${join(app, 'data', 'content.db')}`;
    expect((await cli(['check'])).stdout).to.match(/^schema ok/);
    expect((await cli(['sync', '--database', database])).code).to.equal(0);
    expect((await cli(['seed', '--database', database])).code).to.equal(0);
    expect((await cli(['copy', '--from', database, '--to', `sqlite:${join(app, 'data', 'copy.db')}`])).code).to.equal(0);
    expect((await cli(['explain', '/api/articles?populate=category'])).stdout).to.match(/^-- statement\nWITH "counted" AS MATERIALIZED \(SELECT count/);
    expect((await cli(['token', 'create', '--role', 'public', '--name', 'packed'])).code).to.equal(0);
    expect((await cli(['types', '--out', 'api.d.ts'])).code).to.equal(0);
    expect(readFileSync(join(app, 'api.d.ts'), 'utf8')).to.include('export interface Article {');
    expect(JSON.parse((await cli(['openapi'])).stdout).openapi).to.equal('3.1.0');
    const imported = await cli(['import-strapi', join(conformanceKitDir(), 'strapi-app'), '--out', 'imported']);
    expect(imported.code, imported.stdout + imported.stderr).to.equal(0);
    expect(existsSync(join(app, 'imported', 'content-types', 'article.yaml'))).to.equal(true);
  });

  it('serves through the bin', async () => {
    const database = `sqlite:${join(app, 'data', 'content.db')}`;
    const server = await startServer({ database, root: app, command: [bin, 'serve', '--port', '0', '--no-sync', '--database', database] });
    try {
      const response = await fetch(`${server.baseUrl}/api/articles?fields[0]=title&pagination[pageSize]=1`);
      expect(response.status).to.equal(200);
      expect(((await response.json()) as { data: unknown[] }).data).to.have.length(1);
    } finally {
      await server.stop();
    }
  });

  it('its published types compile in a strict TypeScript app that checks libraries too', async () => {
    // What a Koa app in TypeScript that tests with the kit has of its own: koa's, node's and
    // supertest's types; nothing of the package's dev dependencies.
    const own = (name: string) => (JSON.parse(readFileSync(join(repoRoot, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')) as { version: string }).version;
    const types = ['@types/koa', '@types/node', 'supertest', '@types/supertest'].map((name) => `${name}@${own(name)}`);
    await npm(['install', '--prefer-offline', '--ignore-scripts', '--no-package-lock', ...types], app);
    writeFileSync(
      join(app, 'app.ts'),
      `import Koa from 'koa';
import { contentApi, type ContentApiOptions } from 'koa-content-api';
import { createTestApi } from 'koa-content-api/testing';
const options: ContentApiOptions = { root: '.', database: 'sqlite:data/content.db', cors: { origin: ['https://a.example'] } };
const app = new Koa();
const api = await contentApi(options);
app.use(api.routes());
export { app, createTestApi };
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', types: ['node'] }, files: ['app.ts'] }),
    );
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(compiled.code, compiled.stdout).to.equal(0);
  });

  it('imports from an ESM script: the plugin and the testing kit', async () => {
    writeFileSync(join(app, 'use.mjs'), `
      import { contentApi } from 'koa-content-api';
      import { createTestApi } from 'koa-content-api/testing';
      const api = await contentApi({ root: '.', database: 'sqlite:data/content.db', sync: false });
      console.log(api.registry.contentTypes.length, typeof createTestApi);
      await api.close();
    `);
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: app });
    expect(stdout.trim()).to.equal('5 function');
  });
});

/** The paths a text cites (links and `code` spans) that are the package's own: under plugin/, dist/ or docs/, as installed or in the repository. */
function citedPackagePaths(text: string): string[] {
  const cited = [...text.matchAll(/\]\(([^)#\s]+)/g), ...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  const own = cited.map((path) => path.replace(/^(?:\.\.\/)*node_modules\/koa-content-api\//, '')).filter((path) => /^(plugin|dist|docs)\/[\w./-]+\.\w+$/.test(path));
  return [...new Set(own)].sort();
}

describe('the packed package: what it cites and points to', function () {
  this.timeout(120_000);
  let paths: Set<string>;

  before(async () => {
    // A listing, nothing written; dist/ is the one the suites were built into.
    const [listed] = JSON.parse(await npm(['pack', '--dry-run', '--json', '--ignore-scripts'], repoRoot)) as PackResult[];
    paths = new Set(listed.files.map((file) => file.path));
  });

  it('ships every file of the package the README cites', () => {
    const cited = citedPackagePaths(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    expect(cited).to.include.members(['plugin/sql/README.md', 'plugin/schema/content-type.schema.json', 'docs/webhooks.md']);
    expect(cited.filter((path) => !paths.has(path))).to.deep.equal([]);
  });

  it('ships the source every source map names, so a stack trace points at a file of the package', () => {
    const maps = [...paths].filter((path) => path.endsWith('.js.map'));
    expect(maps).to.include('dist/plugin/webhooks/config.js.map');
    const unresolved: string[] = [];
    for (const map of maps) {
      const { sources, sourceRoot } = JSON.parse(readFileSync(join(repoRoot, map), 'utf8')) as { sources: string[]; sourceRoot?: string };
      for (const source of sources) {
        const resolved = relative(repoRoot, resolve(repoRoot, dirname(map), sourceRoot ?? '', source)).split(sep).join('/');
        if (!paths.has(resolved)) unresolved.push(`${map} → ${resolved}`);
      }
    }
    expect(unresolved).to.deep.equal([]);
    expect(paths).to.include('plugin/webhooks/config.ts');
    expect([...paths].filter((path) => /\.test\.ts$/.test(path))).to.deep.equal([]);
  });
});
