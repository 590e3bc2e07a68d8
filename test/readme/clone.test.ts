/**
 * The README's two commands for a clone of the repository, near its top: `npm install && npm
 * start` and `npm test`. `npm start` is run as written, in a copy of the repository's tracked
 * files (what a fresh clone has), with this checkout's node_modules in place of `npm install`
 * (no registry is reached from a test): it builds, seeds the example schema into an embedded
 * SQLite database and serves it on 127.0.0.1 (PORT set to a free port, as `serve` reads it).
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { freePort, repoRoot } from '../support/server.js';

const run = promisify(execFile);
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The first ```sh block of the README, if it starts within its first `lines` lines. */
function firstShellBlock(lines: number): string | null {
  const match = /```sh\n([\s\S]*?)```/.exec(readme);
  if (!match) return null;
  return readme.slice(0, match.index).split('\n').length <= lines ? match[1]! : null;
}

describe("README's commands for a clone", () => {
  it('gives `npm install && npm start` and `npm test` near the top, and the install line of an app', () => {
    const block = firstShellBlock(20);
    expect(block, 'a ```sh block within the first 20 lines').to.be.a('string');
    const commands = block!.split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter(Boolean);
    expect(commands).to.deep.equal(['npm install && npm start', 'npm test']);
    expect(block).to.match(/npm start +# .*SQLite.*http:\/\/127\.0\.0\.1:1337\/api/);
    expect(readme.split('\n').slice(0, 25).join('\n')).to.include('`npm install koa-content-api koa`');
  });

  it('`npm start` from the tracked files serves the example API, seeded, on 127.0.0.1', async function () {
    this.timeout(240_000);
    if (!existsSync(join(repoRoot, '.git'))) this.skip();
    const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).to.match(/serve --seed$/);
    const clone = mkdtempSync(join(tmpdir(), 'content-api-clone-'));
    try {
      const { stdout } = await run('git', ['ls-files', '-z'], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
      for (const file of stdout.split('\0').filter(Boolean)) {
        if (!existsSync(join(repoRoot, file))) continue;
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        cpSync(join(repoRoot, file), join(clone, file));
      }
      symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
      const port = await freePort();
      // Its own process group: npm, the shell it starts and the server are stopped together.
      const child = spawn('npm', ['start'], { cwd: clone, env: { ...process.env, PORT: String(port), HOST: '', DATABASE_URL: '', npm_config_update_notifier: 'false' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        let body: { data: { attributes: { title: string } }[]; meta: { pagination: { total: number } } } | null = null;
        for (let attempt = 0; attempt < 2000 && !body && child.exitCode === null; attempt++) {
          body = await fetch(`http://127.0.0.1:${port}/api/articles?fields[0]=title`).then((response) => (response.ok ? (response.json() as Promise<typeof body>) : null), () => null);
          if (!body) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(body?.meta.pagination.total, output).to.be.greaterThan(0);
        expect(existsSync(join(clone, '.data', 'content.db'))).to.equal(true);
      } finally {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
