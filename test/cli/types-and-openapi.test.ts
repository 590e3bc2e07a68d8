/**
 * `content-api types` and `content-api openapi`, run as a user runs them: each writes what its
 * generator produces for the schema folder, to a file or to stdout.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { grantsFor, loadPermissions } from '../../plugin/access/permissions.js';
import { graphqlSdlFor } from '../../plugin/graphql/schema/schema.js';
import { generateTypes } from '../../plugin/codegen/types.js';
import { generateOpenApi } from '../../plugin/openapi/document.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot } from '../support/api.js';
import { cliPath } from '../support/server.js';

const run = promisify(execFile);

describe('content-api types and openapi', () => {
  let out: string;
  before(() => {
    out = mkdtempSync(join(tmpdir(), 'content-api-codegen-'));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('types --out writes the declarations of the schema folder', async () => {
    const file = join(out, 'types', 'api.d.ts');
    const { stdout } = await run(process.execPath, [cliPath, 'types', '--root', repoRoot, '--out', file]);
    expect(stdout).to.equal(`wrote ${file}\n`);
    expect(readFileSync(file, 'utf8')).to.equal(generateTypes(await loadSchema(repoRoot)));
  });

  it('types --graphql adds the GraphQL schema as a constant of a .ts module, and refuses a .d.ts', async () => {
    const file = join(out, 'api.ts');
    await run(process.execPath, [cliPath, 'types', '--root', repoRoot, '--out', file, '--graphql']);
    const written = readFileSync(file, 'utf8');
    const sdl = graphqlSdlFor(await loadSchema(repoRoot));
    expect(written.endsWith(`export const graphqlSchema: string = ${JSON.stringify(sdl)};\n`)).to.equal(true);
    const refused = await run(process.execPath, [cliPath, 'types', '--root', repoRoot, '--out', join(out, 'api.d.ts'), '--graphql']).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).to.equal(2);
    expect(refused?.stderr).to.contain('give --out a .ts file');
  });

  it('openapi --role prints the document of that role', async () => {
    const { stdout } = await run(process.execPath, [cliPath, 'openapi', '--root', repoRoot, '--role', 'public'], { maxBuffer: 16 * 1024 * 1024 });
    const registry = await loadSchema(repoRoot);
    const permissions = (await loadPermissions(join(repoRoot, 'permissions.yaml'), 'permissions.yaml', registry))!;
    expect(JSON.parse(stdout)).to.deep.equal(generateOpenApi(registry, grantsFor(permissions, 'public')));
  });
});
