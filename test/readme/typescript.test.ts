/**
 * The README's and docs' code as a TypeScript user runs it: the Install section's Koa code
 * compiled by tsc in a CommonJS project (`npm init`'s, no "type": "module") and in an ES module
 * project, each run with Node and answering; the lifecycle hooks example of docs/writes.md
 * type-checked strict; the testing example's suite showing the real error when its `before`
 * fails, not one of its `after`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { runNode } from '../support/run-node.js';
import { freePort, repoRoot } from '../support/server.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The blocks of `language` in the README section headed `## <title>`, in order. */
function sectionBlocks(markdown: string, title: string, language: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${title}\n`)) ?? '';
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

/** A project folder with node_modules as npm leaves it: this package and its dependencies beside it. */
function project(manifest: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'readme-ts-project-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(repoRoot, 'node_modules'))) symlinkSync(join(repoRoot, 'node_modules', name), join(dir, 'node_modules', name));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'koa-content-api'));
  return dir;
}

const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

describe("README's Koa code in a TypeScript project", function () {
  this.timeout(120_000);
  const [contentType, permissions] = sectionBlocks(readme, 'Install', 'yaml');
  const [koaCode] = sectionBlocks(readme, 'Install', 'ts');

  it('names the packages its examples import in the install line', () => {
    const install = sectionBlocks(readme, 'Install', 'sh')[0]!;
    for (const name of ['koa-content-api', 'koa', 'typescript', '@types/koa', 'chai', '@types/chai', 'mocha', 'supertest']) expect(install.split(/\s+/)).to.include(name);
  });

  it('says the package is an ES module that CommonJS projects require on Node 20.19 and later', () => {
    expect(readme).to.include('The package is an ES module. It works as well from a CommonJS project');
    expect(readme).to.include('Node 20.19 and later, the versions it\nsupports, load an ES module with `require()`');
  });

  for (const kind of ['commonjs', 'module'] as const) {
    it(`compiles with tsc and serves in a ${kind === 'commonjs' ? 'CommonJS project, as npm init makes it' : 'project of "type": "module"'}`, async () => {
      const dir = project(kind === 'commonjs' ? { name: 'app', version: '1.0.0' } : { name: 'app', version: '1.0.0', type: 'module' });
      try {
        mkdirSync(join(dir, 'content-types'));
        writeFileSync(join(dir, 'content-types', 'recipe.yaml'), contentType!);
        writeFileSync(join(dir, 'permissions.yaml'), permissions!);
        const port = await freePort();
        expect(koaCode).to.include('app.listen(1337)');
        writeFileSync(join(dir, 'main.ts'), koaCode!.replace('app.listen(1337)', `app.listen(${port}, '127.0.0.1')`));
        // What `tsc --init` writes, and what a project of either kind compiles with.
        const tsconfig = { compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, esModuleInterop: true, skipLibCheck: true, outDir: 'dist', types: ['node'] }, files: ['main.ts'] };
        writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
        const compiled = await runNode([tsc, '-p', '.'], dir);
        expect(compiled.code, compiled.stdout).to.equal(0);
        const output = readFileSync(join(dir, 'dist', 'main.js'), 'utf8');
        expect(output).to.include(kind === 'commonjs' ? 'require("koa-content-api")' : "from 'koa-content-api'");
        const child = spawn(process.execPath, ['dist/main.js'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        try {
          let body: unknown = null;
          for (let attempt = 0; attempt < 150 && !body && child.exitCode === null; attempt++) {
            body = await fetch(`http://127.0.0.1:${port}/api/recipes`).then((response) => response.json(), () => null);
            if (!body) await new Promise((resolve) => setTimeout(resolve, 100));
          }
          expect(body, stderr).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
        } finally {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        expect(stderr).to.equal('');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe("docs/writes.md's lifecycle hooks example", () => {
  it('type-checks strict against the package', function () {
    this.timeout(60_000);
    const page = readFileSync(join(repoRoot, 'docs', 'writes.md'), 'utf8');
    const section = page.slice(page.indexOf('## Lifecycle hooks and events'));
    const [hooks] = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(hooks).to.include('lifecycles: {');
    // Inside the repository, 'koa-content-api' resolves to the package itself, by its exports.
    mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(repoRoot, '.tmp', 'writes-ts-'));
    try {
      // The page's free names, as the app would have them.
      const declared = 'declare function slugify(text: string): string;\ndeclare const searchIndex: { put(entry: unknown): void };\n';
      writeFileSync(join(dir, 'hooks.ts'), `${hooks}\n${declared}export {};\n`);
      const program = ts.createProgram([join(dir, 'hooks.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ['node'],
      });
      const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      expect(errors).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("README's testing example", () => {
  it("shows the error of a before() that failed, not one of its after()", async function () {
    this.timeout(60_000);
    const [suite] = sectionBlocks(readme, 'Testing your schema', 'ts');
    mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(repoRoot, '.tmp', 'readme-testing-'));
    try {
      // A schema the kit refuses: before() fails.
      mkdirSync(join(dir, 'content-types'));
      writeFileSync(join(dir, 'content-types', 'recipe.yaml'), 'kind: collectionType\ncollectionName: recipes\ninfo: { singularName: recipe, pluralName: recipes, displayName: Recipe }\nattributes:\n  title: { type: strin }\n');
      writeFileSync(join(dir, 'permissions.yaml'), 'roles: {}\n');
      const output = ts.transpileModule(suite!, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
      writeFileSync(join(dir, 'recipes.test.mjs'), output.outputText);
      const run = await runNode([join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-color', '--no-config', 'recipes.test.mjs'], dir, { ...process.env, TEST_DATABASE_URL: '', TEST_MYSQL_URL: '' });
      expect(run.code).to.equal(1);
      expect(run.stdout).to.include('attributes.title.type');
      expect(run.stdout).to.not.include("reading 'close'");
      expect(run.stdout).to.match(/1 failing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
