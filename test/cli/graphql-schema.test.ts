/**
 * `content-api graphql-schema`, run as a user runs it: the SDL of the schema folder, printed or
 * written to a file, the same text as the generator's.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildSchema } from 'graphql';
import { graphqlSdlFor } from '../../plugin/graphql/schema/schema.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot } from '../support/api.js';
import { cliPath } from '../support/server.js';

const run = promisify(execFile);

describe('content-api graphql-schema', () => {
  let out: string;
  before(() => {
    out = mkdtempSync(join(tmpdir(), 'content-api-graphql-schema-'));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("prints the schema folder's SDL, a schema graphql-js reads back", async () => {
    const { stdout } = await run(process.execPath, [cliPath, 'graphql-schema', '--root', repoRoot], { maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).to.equal(graphqlSdlFor(await loadSchema(repoRoot)));
    const schema = buildSchema(stdout);
    expect(Object.keys(schema.getQueryType()!.getFields())).to.include.members(['article', 'articles', 'categories', 'restaurant']);
    expect(schema.getType('ArticleBlocksDynamicZone')).to.not.equal(undefined);
  });

  it('--out writes it to a file', async () => {
    const file = join(out, 'graphql', 'schema.graphql');
    const { stdout } = await run(process.execPath, [cliPath, 'graphql-schema', '--root', repoRoot, '--out', file]);
    expect(stdout).to.equal(`wrote ${file}\n`);
    expect(readFileSync(file, 'utf8')).to.equal(graphqlSdlFor(await loadSchema(repoRoot)));
  });
});
