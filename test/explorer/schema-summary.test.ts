/**
 * What the explorer page is given per role (no browser needed): files are listed by the media
 * library's route, `upload/files`, when the role may list them and the API serves the routes.
 */
import { expect } from 'chai';
import { grantsFor, parsePermissions } from '../../plugin/access/permissions.js';
import { explorerSchema } from '../../plugin/explorer/schema-summary.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { FILE_UID } from '../../plugin/schema/registry.js';
import { repoRoot } from '../support/api.js';

describe('explorer schema: files', () => {
  it('routes files to upload/files for a role that may list them, and to nothing otherwise', async () => {
    const registry = await loadSchema(repoRoot);
    const permissions = parsePermissions('roles:\n  lister: { file: [find], article: [find] }\n  reader: { file: [findOne], article: [find] }\n', 'permissions.yaml', registry);
    const lister = explorerSchema(registry, grantsFor(permissions, 'lister'));
    expect(lister[FILE_UID]!.route).to.equal('upload/files');
    expect(lister[FILE_UID]!.fields).to.include.members(['name', 'url', 'mime']);
    expect(lister['api::article.article']!.route).to.equal('articles');
    expect(explorerSchema(registry, grantsFor(permissions, 'reader'))[FILE_UID]!.route).to.equal(null);
    expect(explorerSchema(registry, grantsFor(permissions, 'lister'), false)[FILE_UID]!.route).to.equal(null);
  });
});
