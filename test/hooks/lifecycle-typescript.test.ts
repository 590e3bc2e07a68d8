/**
 * `content-types/<name>.lifecycles.ts` (and `.mts`, `.cts`): imported when the process can import
 * TypeScript — here through a registered loader hook that strips types with the project's own
 * TypeScript, as tsx does — and refused with what to do when it cannot (plain Node 20), by serve
 * and by `content-api check` alike, never silently left unrun.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentApi } from '../../plugin/index.js';
import { runCli, runNode } from '../support/run-node.js';
import { cliPath, repoRoot } from '../support/server.js';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'apps', 'hooks');
const HOOKS = `import type { LifecycleHooks } from 'koa-content-api';

const hooks: LifecycleHooks = {
  beforeCreate(event) {
    const title: string = String(event.data.title);
    event.data.title = \`\${title} (typescript)\`;
  },
};
export default hooks;
`;

/** Node's own type stripping (22.18 and later): the refusal cannot happen there. */
const nodeImportsTypeScript = Boolean((process.features as { typescript?: unknown }).typescript);

/** A loader hook as tsx registers one: `.ts`, `.mts` and `.cts` files, their types stripped by TypeScript. */
function writeLoader(folder: string): string {
  const typescript = pathToFileURL(join(repoRoot, 'node_modules', 'typescript', 'lib', 'typescript.js')).href;
  writeFileSync(
    join(folder, 'ts-loader.mjs'),
    `import { readFile } from 'node:fs/promises';
import ts from ${JSON.stringify(typescript)};
export async function load(url, context, next) {
  if (!/\\.[mc]?ts$/.test(url)) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true } });
  return { format: 'module', source: outputText, shortCircuit: true };
}
`,
  );
  writeFileSync(join(folder, 'register.mjs'), `import { register } from 'node:module';\nregister('./ts-loader.mjs', import.meta.url);\n`);
  return join(folder, 'register.mjs');
}

describe('lifecycle modules in TypeScript', function () {
  this.timeout(60_000);
  let root: string;
  let work: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'lifecycle-ts-'));
    cpSync(FIXTURE, root, { recursive: true });
    work = mkdtempSync(join(tmpdir(), 'lifecycle-ts-loader-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  for (const extension of ['.ts', '.mts', '.cts']) {
    it(`refuses a ${extension} module at start, saying how to load it, where Node cannot import TypeScript`, async function () {
      if (nodeImportsTypeScript) this.skip();
      writeFileSync(join(root, 'content-types', `post.lifecycles${extension}`), HOOKS);
      const failure = await contentApi({ root, database: `sqlite:${join(work, 'content.db')}`, resolveRole: () => 'writer' }).then(
        (api) => api.close().then(() => null),
        (error: Error) => error,
      );
      const file = join(root, 'content-types', `post.lifecycles${extension}`);
      expect(failure?.message).to.equal(
        `${file}: this Node (${process.version}) cannot import TypeScript; run the app under a TypeScript loader (tsx app.ts, or node --import tsx), on a Node that strips types (22.18 or later), or compile it to ${join(root, 'content-types', 'post.lifecycles.js')}`,
      );
    });
  }

  it('check reports a .ts module it cannot load, with what to do', async function () {
    if (nodeImportsTypeScript) this.skip();
    writeFileSync(join(root, 'content-types', 'post.lifecycles.ts'), HOOKS);
    const check = await runCli(['check'], root);
    expect(check.code).to.equal(1);
    expect(check.stdout).to.equal(
      `content-types/post.lifecycles.ts: this Node (${process.version}) cannot import TypeScript; run the app under a TypeScript loader (tsx app.ts, or node --import tsx), on a Node that strips types (22.18 or later), or compile it to content-types/post.lifecycles.js\n1 schema problem\n`,
    );
  });

  it('check reports a module whose export is not a hook', async () => {
    writeFileSync(join(root, 'content-types', 'post.lifecycles.mjs'), 'export function beforeCreat() {}\n');
    const check = await runCli(['check'], root);
    expect(check.code).to.equal(1);
    expect(check.stdout).to.match(/^content-types\/post\.lifecycles\.mjs: beforeCreat is not a lifecycle hook; expected one of beforeCreate, /);
  });

  it('imports a .ts module and runs its hooks under a TypeScript loader; check says ok there', async () => {
    writeFileSync(join(root, 'content-types', 'post.lifecycles.ts'), HOOKS);
    const register = writeLoader(work);
    const kit = pathToFileURL(join(repoRoot, 'dist', 'plugin', 'testing', 'index.js')).href;
    writeFileSync(
      join(work, 'post.mjs'),
      `import { createTestApi } from ${JSON.stringify(kit)};
const api = await createTestApi({ root: ${JSON.stringify(root)}, resolveRole: () => 'writer' });
try {
  const response = await api.request.post('/api/posts').send({ data: { title: 'hello' } });
  console.log(response.status, response.body.data.attributes.title);
} finally {
  await api.close();
}
`,
    );
    const posted = await runNode(['--import', pathToFileURL(register).href, join(work, 'post.mjs')], work);
    expect(posted.stderr).to.not.match(/Error/);
    expect(posted.stdout.trim()).to.equal('200 hello (typescript)');
    const check = await runNode(['--import', pathToFileURL(register).href, cliPath, 'check'], root);
    expect(check.code, check.stdout).to.equal(0);
    expect(check.stdout).to.equal('schema ok: 2 content types, 1 component\npermissions.yaml ok: 1 role, 0 tokens\n');
  });
});
