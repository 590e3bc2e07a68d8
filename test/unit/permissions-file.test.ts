/**
 * permissions.yaml: roles, actions per type and token records are validated at start, every
 * problem reported at once with its line and column; the grants it yields.
 */
import { expect } from 'chai';
import { grantsFor, parsePermissions } from '../../plugin/access/permissions.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { repoRoot } from '../support/api.js';

const HASH = `sha256:${'a'.repeat(22)}:${'0'.repeat(64)}`;

function problemsOf(text: string, registry: Registry) {
  try {
    parsePermissions(text, 'permissions.yaml', registry);
  } catch (error) {
    if (error instanceof SchemaError) return error.problems.map((problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`);
    throw error;
  }
  return [];
}

describe('permissions.yaml', () => {
  let registry: Registry;
  before(async () => {
    registry = await loadSchema(repoRoot);
  });

  it('names types by singular name, plural name or uid, and the media file type', () => {
    const permissions = parsePermissions(
      'roles:\n  public:\n    article: [find]\n    categories: [findOne]\n    plugin::users-permissions.user: [find, findOne]\n    file: [find]\n',
      'permissions.yaml',
      registry,
    );
    const grants = grantsFor(permissions, 'public');
    expect(grants.can('api::article.article', 'find')).to.equal(true);
    expect(grants.can('api::article.article', 'findOne')).to.equal(false);
    expect(grants.can('api::category.category', 'findOne')).to.equal(true);
    expect(grants.can('plugin::users-permissions.user', 'findOne')).to.equal(true);
    expect(grants.can('plugin::upload.file', 'find')).to.equal(true);
    expect(grantsFor(permissions, 'nobody').can('api::article.article', 'find')).to.equal(false);
  });

  it('reports every problem at once, with line and column', () => {
    const text = [
      'roles:',
      '  public:',
      '    article: [find, remove]',
      '    nope: [find]',
      '    category: find',
      'tokens:',
      '  - { name: ci, role: ghost, hash: "x" }',
      `  - { name: ok, role: public, hash: "${HASH}", expiresAt: "soon" }`,
      'extra: 1',
    ].join('\n');
    expect(problemsOf(text, registry)).to.deep.equal([
      '3:21 roles.public.article.1: unknown action "remove"; expected find, findOne, preview, create, update or delete (and on file: upload, destroy)',
      '4:5 roles.public.nope: unknown content type "nope"',
      '5:15 roles.public.category: expected a list of actions (find, findOne, preview, create, update, delete), or a map of actions to their rules',
      '7:23 tokens.0.role: expected one of the roles: public',
      '8:146 tokens.1.expiresAt: expected an ISO-8601 date',
      '9:1 extra: unknown key "extra"; expected roles or tokens',
    ]);
  });

  it('reports a YAML syntax error with its position', () => {
    const [problem] = problemsOf('roles:\n  public: [find\n', registry);
    expect(problem).to.match(/^\d+:\d+ : /);
  });

  it('a bad file keeps the API from starting', async () => {
    const { contentApi } = await import('../../plugin/index.js');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'content-api-permissions-'));
    writeFileSync(join(dir, 'permissions.yaml'), 'roles:\n  public:\n    nope: [find]\n');
    let failure: unknown;
    try {
      await contentApi({ root: repoRoot, permissionsFile: join(dir, 'permissions.yaml'), database: 'sqlite::memory:', sync: false });
    } catch (error) {
      failure = error;
    }
    expect(failure).to.be.instanceOf(SchemaError);
  });
});
