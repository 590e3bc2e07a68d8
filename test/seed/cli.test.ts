/**
 * `content-api seed` and `content-api serve --seed` as a user runs them: the compiled CLI in a
 * child process, its exit codes and what it prints.
 */
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { repoRoot, startServer } from '../support/server.js';
import { runCli } from '../support/run-node.js';

/** A database URL of `kind` that nothing has written to yet, and how to remove it. */
async function emptyDatabase(client: DatabaseClient): Promise<{ url: string; drop(): Promise<void> }> {
  if (client === 'postgres') {
    const database: TestDatabase = await createTestDatabase('postgres');
    return { url: database.url, drop: () => database.drop() };
  }
  const folder = mkdtempSync(join(tmpdir(), 'content-api-seed-cli-'));
  // A folder that does not exist yet: the command creates it, as `serve` does.
  return { url: `sqlite:${join(folder, 'data', 'demo.db')}`, drop: async () => rmSync(folder, { recursive: true, force: true }) };
}

describe('content-api seed: usage', function () {
  this.timeout(60_000);

  it('exits 2 on an unknown option, with the usage', async () => {
    const result = await runCli(['seed', '--bogus']);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include('usage: content-api seed [--root DIR] [--database URL]');
  });

  it('exits 1 with a clear message on a schema that is not the example', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'content-api-seed-cli-'));
    try {
      mkdirSync(join(folder, 'content-types'));
      writeFileSync(join(folder, 'content-types', 'note.yaml'), 'kind: collectionType\ncollectionName: notes\ninfo: { singularName: note, pluralName: notes, displayName: Note }\nattributes:\n  body: { type: text }\n');
      const result = await runCli(['seed', '--root', folder, '--database', `sqlite:${join(folder, 'notes.db')}`]);
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(/^content-api seed: the demo data is written for the example schema; this schema lacks api::article\.article, /);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('is listed in the help', async () => {
    const result = await runCli(['--help']);
    expect(result.stdout).to.match(/^ {2}seed +fill an empty database with the demo data/m);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`content-api seed and serve --seed (${kind.name})`, function () {
    this.timeout(120_000);
    let database: { url: string; drop(): Promise<void> };
    beforeEach(async () => {
      database = await emptyDatabase(kind.client);
    });
    afterEach(() => database?.drop());

    it('seeds an empty database (exit 0, a line per table), then refuses to seed it again (exit 1)', async () => {
      const first = await runCli(['seed', '--root', repoRoot, '--database', database.url]);
      expect(first.code, first.stderr).to.equal(0);
      expect(first.stdout).to.match(/^created the layout \(\d+ changes\)$/m);
      expect(first.stdout).to.match(/^ {2}articles +32 rows$/m);
      expect(first.stdout).to.match(/^ {2}files_related_morphs +\d+ rows$/m);
      expect(first.stdout.trim().split('\n').at(-1)).to.match(/^seeded \d+ rows in 32 tables$/);
      const second = await runCli(['seed', '--root', repoRoot, '--database', database.url]);
      expect(second.code).to.equal(1);
      expect(second.stderr).to.match(/^content-api seed: the database already has entries \(articles: 32, categories: 12, .*\); seed only fills an empty database\n$/);
      expect(second.stdout).to.not.include('rows');
    });

    it('serve --seed seeds on the first start only, then serves the demo data', async () => {
      const first = await startServer({ database: database.url, args: ['--seed'] });
      try {
        expect(first.output()).to.match(/^seeded \d+ rows in 32 tables$/m);
        const response = await fetch(`${first.baseUrl}/api/articles?fields[0]=title&pagination[pageSize]=1`);
        expect(((await response.json()) as { meta: { pagination: { total: number } } }).meta.pagination.total).to.equal(20);
      } finally {
        await first.stop();
      }
      const second = await startServer({ database: database.url, args: ['--seed'] });
      try {
        expect(second.output()).to.not.include('seeded');
        const response = await fetch(`${second.baseUrl}/api/categories?pagination[pageSize]=1`);
        expect(((await response.json()) as { meta: { pagination: { total: number } } }).meta.pagination.total).to.equal(12);
      } finally {
        await second.stop();
      }
    });
  });
}
