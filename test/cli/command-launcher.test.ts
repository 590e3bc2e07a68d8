/**
 * The package's `content-api` command (bin/content-api.js), as npm links it and a shell runs it:
 * it gives the server glibc's fixed mmap threshold unless the environment sets its own, leaves no
 * shell behind (the server is the process started), and passes arguments and exit codes through.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/api.js';
import { commandPath, startServer } from '../support/server.js';
import { createScratchFolder } from '../storage/fixtures.js';

/** The environment a process was started with, from Linux's /proc. */
function environmentOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

/** This environment without a threshold of its own (spawn leaves out a variable set to undefined). */
const withoutThreshold = (): NodeJS.ProcessEnv => ({ ...process.env, MALLOC_MMAP_THRESHOLD_: undefined });

describe('the content-api command (bin/content-api.js)', function () {
  this.timeout(60_000);

  it('is the package\'s bin, shipped and executable', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
    expect(join(repoRoot, manifest.bin['content-api']!)).to.equal(commandPath);
    expect(manifest.files).to.include('bin');
    expect(statSync(commandPath).mode & 0o111).to.equal(0o111);
  });

  it('passes arguments, output and exit codes through', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const ok = spawnSync(commandPath, ['--version'], { cwd: tmpdir(), encoding: 'utf8', env: withoutThreshold() });
    expect([ok.status, ok.stdout]).to.deep.equal([0, `${version}\n`]);
    const unknown = spawnSync(commandPath, ['no-such-command'], { cwd: tmpdir(), encoding: 'utf8', env: withoutThreshold() });
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.include('unknown command "no-such-command"');
  });

  for (const [title, env, expected] of [
    ['gives the server the fixed mmap threshold, with no shell left between', withoutThreshold(), '262144'],
    ['keeps a threshold the environment sets', { ...withoutThreshold(), MALLOC_MMAP_THRESHOLD_: '131072' }, '131072'],
  ] as const) {
    it(title, async () => {
      const folder = createScratchFolder();
      const server = await startServer({ database: `sqlite:${join(folder.path, 'content.db')}`, args: ['--quiet'], viaCommand: true, env });
      try {
        const pid = server.child.pid!;
        // exec replaced the shell: the process started is Node, serving.
        expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).to.equal('node');
        expect(environmentOf(pid).get('MALLOC_MMAP_THRESHOLD_')).to.equal(expected);
        expect((await fetch(`${server.baseUrl}/api/articles`)).status).to.equal(200);
      } finally {
        await server.stop();
        folder.remove();
      }
    });
  }
});
