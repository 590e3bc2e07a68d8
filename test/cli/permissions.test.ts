/**
 * `content-api permissions --role R`: what the role may do per type, its rules included, and with
 * `--explain` the statement a request of the role runs, the caller's variables as parameters.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliPath } from '../support/server.js';
import { repoRoot } from '../support/api.js';

const run = promisify(execFile);
const root = join(repoRoot, 'test/rules/app');

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cliPath, 'permissions', '--root', root, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('content-api permissions', () => {
  it('prints each type of the role with its actions, rows, forced values and fields', async () => {
    const { code, stdout } = await cli(['--role', 'author']);
    expect(code).to.equal(0);
    expect(stdout).to.contain('  note (api::note.note)\n');
    expect(stdout).to.contain('    create   any entry; sets owner = $user.id; every attribute but featured\n');
    expect(stdout).to.contain('    update   rows where {"owner":{"id":"$user.id"}}; every attribute but owner, featured\n');
    expect(stdout).to.contain('    delete   rows where {"owner":{"id":"$user.id"}}\n');
  });

  it('explains a request of the role with its rule in the statement', async () => {
    const { code, stdout } = await cli(['--role', 'public', '--explain', '/api/notes?populate=tag']);
    expect(code).to.equal(0);
    const [statement] = stdout.split('\n-- entries');
    expect(statement).to.match(/"featured" = /);
    expect(statement).to.match(/"public" = /);
    expect(statement).not.to.contain('internal_notes');
    const author = await cli(['--role', 'author', '--explain', '/api/notes/1']);
    expect(author.stdout).to.contain('"$user.id"');
  });

  it('refuses an unknown role, naming the known ones', async () => {
    const { code, stderr } = await cli(['--role', 'nobody']);
    expect(code).to.equal(1);
    expect(stderr).to.match(/^unknown role "nobody"; permissions.yaml has: public, author, /);
  });
});
