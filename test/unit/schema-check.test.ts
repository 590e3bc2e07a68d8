import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { repoRoot, schemaFixture } from './schema-fixtures.js';

const CLI = join(repoRoot, 'dist', 'plugin', 'cli.js');

function runCli(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: tmpdir(), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('content-api check', () => {
  it('exits 0 with a summary when the schema loads', () => {
    const result = runCli('check', '--root', repoRoot);
    expect(result.status).to.equal(0);
    expect(result.stdout).to.equal('schema ok: 5 content types, 10 components\npermissions.yaml ok: 2 roles, 1 token\n');
  });

  it('exits 1 and prints every problem as file:line:column path: message', () => {
    const root = schemaFixture('several-errors');
    const result = runCli('check', `--root=${root}`, '--allow-missing-permissions');
    expect(result.status).to.equal(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).to.have.length(6);
    expect(lines[1]).to.equal(`${join(root, 'content-types/article.yaml')}:17:13 attributes.writer.target: unknown target "api::author.author"; no content type of this schema has that uid or singular name`);
    expect(lines[5]).to.equal('5 schema problems');
  });

  it('reports an invalid attribute and an unknown relation target of the same file in one run', () => {
    const root = schemaFixture('all-stages');
    const result = runCli('check', `--root=${root}`, '--allow-missing-permissions');
    expect(result.status).to.equal(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith(join(root, 'content-types/post.yaml')))).to.have.length(2);
    expect(lines).to.include(`${join(root, 'content-types/post.yaml')}:16:13 attributes.writer.target: unknown target "api::autor.autor"; did you mean "api::author.author"?`);
    expect(lines[lines.length - 1]).to.equal('6 schema problems');
  });

  describe('permissions.yaml', () => {
    let root: string;
    const file = () => join(root, 'permissions.yaml');
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'content-api-check-'));
      for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('reports a misspelled action, an unknown type and an unknown role of a token, all at once, and exits 1', () => {
      const hash = `sha256:${'a'.repeat(22)}:${'0'.repeat(64)}`;
      writeFileSync(file(), `roles:\n  public:\n    article: [find, fndOne]\n    widget: [find]\ntokens:\n  - { name: ci, role: editr, hash: "${hash}" }\n`);
      const result = runCli('check', '--root', root);
      expect(result.status).to.equal(1);
      expect(result.stdout.trimEnd().split('\n')).to.deep.equal([
        `${file()}:3:21 roles.public.article.1: unknown action "fndOne"; expected find, findOne, preview, create, update or delete (and on file: upload, destroy)`,
        `${file()}:4:5 roles.public.widget: unknown content type "widget"`,
        `${file()}:6:23 tokens.0.role: expected one of the roles: public`,
        '3 schema problems',
      ]);
    });

    it('reports broken YAML with its position, and exits 1', () => {
      writeFileSync(file(), 'roles:\n  public:\n    article: [find, findOne\n');
      const result = runCli('check', '--root', root);
      expect(result.status).to.equal(1);
      expect(result.stdout).to.match(new RegExp(`^${file()}:\\d+:\\d+ .*YAML syntax error`));
    });

    it('reports an empty file, which serve refuses: a closed API says roles: {}', () => {
      writeFileSync(file(), '# nothing yet\n');
      const empty = runCli('check', '--root', root);
      expect(empty.status).to.equal(1);
      expect(empty.stdout).to.include(`${file()}:1:1 the file is empty`);
      writeFileSync(file(), 'roles: {}\n');
      const closed = runCli('check', '--root', root);
      expect(closed.status, closed.stdout).to.equal(0);
      expect(closed.stdout).to.equal('schema ok: 5 content types, 10 components\npermissions.yaml ok: 0 roles, 0 tokens\n');
    });

    it('reports a missing file, unless --allow-missing-permissions says the API is meant to be closed', () => {
      const missing = runCli('check', '--root', root);
      expect(missing.status).to.equal(1);
      expect(missing.stdout).to.include(`${file()}: no such file`);
      expect(missing.stdout).to.include('--allow-missing-permissions');
      const allowed = runCli('check', '--root', root, '--allow-missing-permissions');
      expect(allowed.status, allowed.stdout).to.equal(0);
    });

    it('reports a broken permissions file together with the schema problems', () => {
      rmSync(root, { recursive: true, force: true });
      cpSync(schemaFixture('several-errors'), root, { recursive: true });
      writeFileSync(file(), 'roles:\n  public: [find\n');
      const result = runCli('check', '--root', root);
      expect(result.status).to.equal(1);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines.filter((line) => line.startsWith(join(root, 'content-types')) || line.startsWith(join(root, 'components')))).to.have.length(5);
      expect(lines.filter((line) => line.startsWith(`${file()}:`) && line.includes('YAML syntax error'))).to.have.length(1);
      expect(lines[lines.length - 1]).to.equal('6 schema problems');
    });
  });

  it('exits 2 on a usage error', () => {
    const result = runCli('check', '--rot', repoRoot);
    expect(result.status).to.equal(2);
    expect(result.stderr).to.match(/^content-api check: Unknown option '--rot'.*\nusage: content-api check/);
  });
});

describe('content-api import-strapi', () => {
  let outDir: string;
  before(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'import-cli-'));
  });
  after(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('writes the files, prints what it wrote and dropped, and exits 0 when the result loads', async () => {
    const result = runCli('import-strapi', join(conformanceKitDir(), 'strapi-app'), '--out', outDir);
    expect(result.status, result.stderr).to.equal(0);
    expect(result.stdout).to.include(`wrote   ${join(outDir, 'content-types/article.yaml')}`);
    expect(result.stdout).to.include(`dropped ${join(outDir, 'content-types/role.yaml')} attributes.permissions: target plugin::users-permissions.permission`);
    expect(result.stdout.trimEnd().split('\n').pop()).to.equal('schema ok: 5 content types, 10 components');
    expect((await readdir(join(outDir, 'content-types'))).sort()).to.deep.equal(['article.yaml', 'category.yaml', 'restaurant.yaml', 'role.yaml', 'user.yaml']);
  });

  it('exits 2 without an app folder', () => {
    expect(runCli('import-strapi', '--out', outDir).status).to.equal(2);
  });
});
