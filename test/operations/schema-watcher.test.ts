/**
 * The watchers behind `serve --watch` (watchSchema) and a served permissions file (watchFile) keep
 * seeing a file however it is saved: edited in place by `sed -i` (a temp file renamed over it),
 * written to a temp file and renamed by an editor, or deleted and created again. Each save is
 * followed by a second, plain write that must be seen too: a watcher that followed the replaced
 * file would report the first save and miss every later one. Real files, real fs.watch.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { watchFile } from '../../plugin/access/watch-file.js';
import { watchSchema } from '../../plugin/cli/schema-watcher.js';

const SEEN_WITHIN_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `count()` exceeds `before`; fails after a bounded wait. */
async function seen(count: () => number, before: number, what: string): Promise<void> {
  const deadline = Date.now() + SEEN_WITHIN_MS;
  while (count() <= before) {
    if (Date.now() > deadline) throw new Error(`${what} was not seen within ${SEEN_WITHIN_MS} ms`);
    await sleep(20);
  }
}

const saves: Record<string, (file: string, text: string) => void> = {
  'sed -i': (file, text) => {
    execFileSync('sed', ['-i', `s/.*/${text}/`, file]);
  },
  'a write to a temp file renamed over it': (file, text) => {
    writeFileSync(`${file}.tmp`, `${text}\n`);
    renameSync(`${file}.tmp`, file);
  },
  'a delete then a create': (file, text) => {
    unlinkSync(file);
    writeFileSync(file, `${text}\n`);
  },
};

/**
 * Starts a watcher, makes the first save (`saveFirst`, described by `save`), then writes `path`
 * plainly: both must be reported.
 */
async function expectBothSeen(
  watchIt: (changed: () => void) => { close(): void },
  path: string,
  save: string,
  saveFirst: () => void,
): Promise<void> {
  let changes = 0;
  const watcher = watchIt(() => (changes += 1));
  try {
    await sleep(50);
    saveFirst();
    await seen(() => changes, 0, save);
    // Let the first save's burst settle, so the next change is the plain edit's alone.
    await sleep(200);
    const before = changes;
    writeFileSync(path, 'third: 3\n');
    await seen(() => changes, before, `the plain edit after ${save}`);
  } finally {
    watcher.close();
  }
}

describe('the schema watcher after a file is replaced', function () {
  this.timeout(20_000);
  let root: string;
  const watchRoot = (changed: () => void) => watchSchema(root, changed, 30);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-watch-'));
    mkdirSync(join(root, 'content-types'));
    mkdirSync(join(root, 'components', 'shared'), { recursive: true });
    writeFileSync(join(root, 'content-types', 'article.yaml'), 'first: 1\n');
    writeFileSync(join(root, 'components', 'shared', 'seo.yaml'), 'first: 1\n');
    writeFileSync(join(root, 'permissions.yaml'), 'first: 1\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  for (const file of ['content-types/article.yaml', 'components/shared/seo.yaml', 'permissions.yaml']) {
    for (const [save, write] of Object.entries(saves)) {
      it(`sees ${file} saved by ${save}, and a plain edit after it`, async () => {
        const path = join(root, file);
        await expectBothSeen(watchRoot, path, save, () => write(path, 'second: 2'));
      });
    }
  }

  it('sees a file in a component folder deleted and created again', async () => {
    const folder = join(root, 'components', 'shared');
    await expectBothSeen(watchRoot, join(folder, 'seo.yaml'), 'the folder made again', () => {
      rmSync(folder, { recursive: true });
      mkdirSync(folder);
      writeFileSync(join(folder, 'seo.yaml'), 'second: 2\n');
    });
  });
});

describe('the permissions file watcher after the file is replaced', function () {
  this.timeout(20_000);
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-watch-permissions-'));
    writeFileSync(join(root, 'permissions.yaml'), 'first: 1\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  for (const [save, write] of Object.entries(saves)) {
    it(`sees permissions.yaml saved by ${save}, and a plain edit after it`, async () => {
      const path = join(root, 'permissions.yaml');
      await expectBothSeen((changed) => watchFile(path, changed), path, save, () => write(path, 'second: 2'));
    });
  }
});
