import { spawnSync } from 'node:child_process';
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
    expect(result.stdout).to.equal('schema ok: 5 content types, 10 components\n');
  });

  it('exits 1 and prints every problem as file:line:column path: message', () => {
    const root = schemaFixture('several-errors');
    const result = runCli('check', `--root=${root}`);
    expect(result.status).to.equal(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).to.have.length(6);
    expect(lines[1]).to.equal(`${join(root, 'content-types/article.yaml')}:17:13 attributes.writer.target: unknown target "api::author.author"; no content type of this schema has that uid or singular name`);
    expect(lines[5]).to.equal('5 schema problems');
  });

  it('reports an invalid attribute and an unknown relation target of the same file in one run', () => {
    const root = schemaFixture('all-stages');
    const result = runCli('check', `--root=${root}`);
    expect(result.status).to.equal(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith(join(root, 'content-types/post.yaml')))).to.have.length(2);
    expect(lines).to.include(`${join(root, 'content-types/post.yaml')}:16:13 attributes.writer.target: unknown target "api::autor.autor"; did you mean "api::author.author"?`);
    expect(lines[lines.length - 1]).to.equal('6 schema problems');
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
