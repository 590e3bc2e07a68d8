/**
 * Progress bars of `seed`, `copy` and `import-strapi`: drawn with `\r` on a terminal (a real
 * pseudo-terminal, through util-linux's `script`), and nothing of them when the output is piped,
 * as in CI and in these tests; the commands' ordinary lines are the same either way.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { progressBar } from '../../plugin/cli/progress.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { cliPath, repoRoot } from '../support/server.js';

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function run(command: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The CLI with its stdout piped (not a terminal). */
const piped = (args: readonly string[]) => run(process.execPath, [cliPath, ...args]);

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
/** The CLI on a pseudo-terminal: `script` runs it and copies the terminal's output. */
const onTerminal = (args: readonly string[]) => run('script', ['-qfec', [process.execPath, cliPath, ...args].map(quote).join(' '), '/dev/null']);

function scriptAvailable(): boolean {
  try {
    execFileSync('script', ['-qfec', 'true', '/dev/null'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const NO_BAR = /\r|\x1b/;

for (const kind of testDatabaseKinds()) {
  describe(`progress bars, output piped (${kind.name})`, function () {
    this.timeout(120_000);
    let dir: string;
    let target: TestDatabase | null = null;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'content-api-progress-'));
    });
    after(async () => {
      await target?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('seed, copy and import-strapi print their lines and no \\r or escape', async () => {
      const source = `sqlite:${join(dir, 'source.db')}`;
      const seeded = await piped(['seed', '--database', source]);
      expect(seeded.code, seeded.output).to.equal(0);
      expect(seeded.output).to.match(/seeded \d+ rows in \d+ tables/);
      expect(seeded.output).to.not.match(NO_BAR);

      let to = `sqlite:${join(dir, 'target.db')}`;
      if (kind.client === 'postgres') to = (target = await createTestDatabase('postgres')).url;
      const copied = await piped(['copy', '--from', source, '--to', to]);
      expect(copied.code, copied.output).to.equal(0);
      expect(copied.output).to.match(/^articles: \d+ rows$/m).and.to.match(/copied \d+ rows in \d+ tables/);
      expect(copied.output).to.not.match(NO_BAR);

      const imported = await piped(['import-strapi', join(conformanceKitDir(), 'strapi-app'), '--out', join(dir, 'imported')]);
      expect(imported.code, imported.output).to.equal(0);
      expect(imported.output).to.match(/^wrote /m).and.to.match(/schema ok/);
      expect(imported.output).to.not.match(NO_BAR);
    });
  });
}

const terminal = scriptAvailable();
(terminal ? describe : describe.skip)(`progress bars on a terminal${terminal ? '' : " (skipped: util-linux's script is not installed)"}`, function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'content-api-progress-tty-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('redraw one line with \\r while seed, copy and import-strapi work, then clear it', async () => {
    const source = `sqlite:${join(dir, 'source.db')}`;
    const seeded = await onTerminal(['seed', '--database', source]);
    expect(seeded.code, seeded.output).to.equal(0);
    expect(seeded.output).to.include('\r\x1b[Kseeding [').and.to.match(/\] 4\/5 articles/);
    expect(seeded.output).to.match(/seeded \d+ rows in \d+ tables/);

    const copied = await onTerminal(['copy', '--from', source, '--to', `sqlite:${join(dir, 'target.db')}`]);
    expect(copied.code, copied.output).to.equal(0);
    expect(copied.output).to.include('\r\x1b[Kcopying [');
    expect(copied.output).to.match(/\r\x1b\[Karticles: \d+ rows/);

    const imported = await onTerminal(['import-strapi', join(conformanceKitDir(), 'strapi-app'), '--out', join(dir, 'imported')]);
    expect(imported.code, imported.output).to.equal(0);
    expect(imported.output).to.include('\r\x1b[Kconverting [');
  });
});

describe('the progress line', () => {
  it('fits the terminal width, and keeps output lines above it', () => {
    let written = '';
    const stream = { isTTY: true, columns: 40, write: (text: string) => (written += text) };
    const bar = progressBar(stream, 'copying');
    bar.update(3, 12, 'a_table_with_a_rather_long_name_indeed');
    expect(written).to.equal('\r\x1b[Kcopying [######------------------] 3/12');
    written = '';
    bar.line('articles: 5 rows');
    expect(written).to.match(/^\r\x1b\[Karticles: 5 rows\ncopying \[/);
    written = '';
    bar.finish();
    expect(written).to.equal('\r\x1b[K');
  });

  it('writes only the lines when the stream is not a terminal', () => {
    let written = '';
    const bar = progressBar({ isTTY: false, write: (text: string) => (written += text) }, 'copying');
    bar.update(1, 2, 'x');
    bar.line('done');
    bar.finish();
    expect(written).to.equal('done\n');
  });
});
