/**
 * `content-api --version`, and each command's `--help`: every flag on a line of its own with an
 * explanation, run as a user runs them; and output cut short by its reader ends quietly.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { repoRoot } from '../support/api.js';
import { cliPath } from '../support/server.js';

function runCli(...args: string[]) {
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: tmpdir(), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The flags each command takes (others may be added; these must be explained). */
const FLAGS: Record<string, string[]> = {
  serve: ['root', 'database', 'host', 'port', 'no-sync', 'no-server-timing', 'default-locale', 'locales', 'seed', 'openapi', 'dev', 'timeout', 'cors', 'quiet', 'watch', 'workers', 'replica'],
  sync: ['root', 'database'],
  seed: ['root', 'database'],
  check: ['root', 'database'],
  'import-strapi': ['out', 'custom-field', 'database'],
  token: ['root', 'role', 'name', 'expires'],
  copy: ['from', 'to', 'root'],
  explain: ['root', 'dialect', 'role', 'prefix'],
  types: ['root', 'out'],
  'graphql-schema': ['root', 'out'],
  openapi: ['root', 'role', 'prefix', 'out'],
};

describe('content-api --version', () => {
  it("prints package.json's version, as --version and -v", () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const result = runCli(flag);
      expect(result.status, flag).to.equal(0);
      expect(result.stdout, flag).to.equal(`${version}\n`);
    }
    expect(runCli('--help').stdout).to.include('--version');
  });
});

describe('content-api <command> --help', () => {
  for (const [command, flags] of Object.entries(FLAGS)) {
    it(`${command}: the usage, then each flag with a one-line explanation`, () => {
      const result = runCli(command, '--help');
      expect(result.status).to.equal(0);
      const [synopsis, ...rest] = result.stdout.split('\n\noptions:\n');
      expect(synopsis).to.match(new RegExp(`^usage: content-api ${command} `));
      const lines = rest.join('').trimEnd().split('\n');
      const explained = new Map<string, string>();
      for (const line of lines) {
        const match = /^ {2}(?:-\w, )?--([\w-]+)(?: \S+)? {2,}(\S.*)$/.exec(line);
        expect(match, `an option line: "${line}"`).to.not.equal(null);
        explained.set(match![1]!, match![2]!);
      }
      for (const flag of [...flags, 'help']) expect(explained.get(flag), `--${flag}`).to.be.a('string').and.have.length.above(10);
      // Every flag the usage line names is explained.
      for (const [, flag] of synopsis!.matchAll(/--([\w-]+)/g)) expect(explained.has(flag!), `--${flag} of the usage line`).to.equal(true);
      expect(runCli('help', command).stdout, '`help <command>` is the same').to.equal(result.stdout);
    });
  }
});

describe('content-api --help: the summary of each command', () => {
  it("names a flag's choices as the command's own usage does (explain: sqlite|postgres|mysql)", () => {
    const summaries = runCli('--help').stdout.split('\n').map((line) => /^ {2}([\w-]+) +(.*)$/.exec(line)).filter((match) => match !== null);
    expect(summaries.find((match) => match![1] === 'explain')![2]).to.include('[--dialect sqlite|postgres|mysql]');
    for (const [, command, summary] of summaries.map((match) => match!)) {
      const usage = runCli(command!, '--help').stdout;
      for (const [, flag, choices] of summary!.matchAll(/--([\w-]+) ([\w-]+(?:\|[\w-]+)+)/g)) {
        expect(usage, `${command} --${flag}`).to.include(`--${flag} ${choices}`);
      }
    }
  });
});

describe('content-api output read by a reader that stops early', () => {
  it('ends quietly, exit 0, when the pipe closes before the output is written (`| head -1`)', async () => {
    // The OpenAPI document (about 240 kB) is more than a pipe holds: the reader goes away mid-write.
    const child = spawn(process.execPath, [cliPath, 'openapi', '--root', repoRoot], { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
  });
});
