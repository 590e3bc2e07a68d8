/**
 * Strapi's own types through the GraphQL door, on every engine: the i18n locales (the list
 * `GET /i18n/locales` answers, with filters, sort and pagination applied as to any list) and the
 * upload folders (Strapi's tables, with their parent, children and files), each in one statement,
 * to the roles granted them only; and a role's permissions, read from permissions.yaml.
 */
import { expect } from 'chai';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { tokenHash } from '../../plugin/access/tokens.js';
import { serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { repoRoot } from '../support/server.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';

const EDITOR_TOKEN = 'editor-token-for-the-stock-types-suite';
/** A role granted the folders but not the files. */
const LIBRARIAN_TOKEN = 'librarian-token-for-the-stock-types-suite';

const PERMISSIONS = `
roles:
  public:
    locale: [find]
    article: [find]
    category: [find, findOne]
  editor:
    folder: [find, findOne]
    file: [find]
    role: [find]
  librarian:
    folder: [find]
tokens:
  - { name: editor, role: editor, hash: "${tokenHash(EDITOR_TOKEN, 'stock-types-salt-1')}" }
  - { name: librarian, role: librarian, hash: "${tokenHash(LIBRARIAN_TOKEN, 'stock-types-salt-2')}" }
`;

/** Two folders as Strapi's media library stores them: Photos, and Trips inside it holding files 1 and 2. */
function addFolders(file: string): void {
  const Database = createRequire(join(repoRoot, 'package.json'))('better-sqlite3');
  const sqlite = new Database(file);
  try {
    const at = Date.parse('2024-02-01T10:00:00Z');
    sqlite.prepare('INSERT INTO upload_folders (id, name, path_id, path, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(1, 'Photos', 1, '/1', at, at);
    sqlite.prepare('INSERT INTO upload_folders (id, name, path_id, path, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(2, 'Trips', 2, '/1/2', at, at);
    sqlite.prepare('INSERT INTO upload_folders_parent_links (folder_id, inv_folder_id, folder_order) VALUES (2, 1, 1)').run();
    sqlite.prepare('INSERT INTO files_folder_links (file_id, folder_id, file_order) VALUES (2, 2, 1), (1, 2, 2)').run();
  } finally {
    sqlite.close();
  }
}

interface Answer {
  body: { data?: Record<string, unknown> | null; errors?: { extensions: { code: string } }[] };
  statements: number | null;
}

async function ask(served: ServedApi, query: string, token?: string): Promise<Answer> {
  const request = served.request.post('/graphql').send({ query });
  const response = await (token ? request.set('Authorization', `Bearer ${token}`) : request);
  expect(response.status).to.equal(200);
  const timing = /statements=(\d+)/.exec(response.headers['server-timing'] ?? '');
  return { body: response.body, statements: timing ? Number(timing[1]) : null };
}

for (const kind of testDatabaseKinds()) {
  describe(`GraphQL: Strapi's own types (${kind.name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let served: ServedApi;
    before(async () => {
      fixture = await freshFixture(kind.client, PERMISSIONS, addFolders);
      served = await serveApi({ root: fixture.root, database: fixture.url, sync: false, graphql: true, serverTiming: true, users: { jwtSecret: 'stock-types-suite-secret' } });
    });
    after(async () => {
      await served?.close();
      await fixture?.drop();
    });

    it('lists the locales with their filters, sort and pagination, and one by id', async () => {
      const answer = await ask(
        served,
        `{ all: i18NLocales(sort: "code:desc") { data { id attributes { code name createdAt } } meta { pagination { total page pageSize pageCount } } }
           some: i18NLocales(filters: { or: [{ code: { eq: "fr" } }, { name: { containsi: "ENGLISH" } }], not: { id: { eq: 1 } } }) { data { id } }
           paged: i18NLocales(pagination: { start: 1, limit: 1 }) { data { attributes { code } } meta { pagination { total page pageSize pageCount } } }
           one: i18NLocale(id: 2) { data { __typename id attributes { code } } }
           none: i18NLocale(id: 9) { data { id } } }`,
      );
      expect(answer.body).to.deep.equal({
        data: {
          all: {
            data: [
              { id: '2', attributes: { code: 'fr', name: 'French (fr)', createdAt: '2024-01-01T09:00:00.000Z' } },
              { id: '1', attributes: { code: 'en', name: 'English (en)', createdAt: '2024-01-01T08:00:00.000Z' } },
            ],
            meta: { pagination: { total: 2, page: 1, pageSize: 10, pageCount: 1 } },
          },
          some: { data: [{ id: '2' }] },
          paged: { data: [{ attributes: { code: 'fr' } }], meta: { pagination: { total: 2, page: 2, pageSize: 1, pageCount: 2 } } },
          one: { data: { __typename: 'I18NLocaleEntity', id: '2', attributes: { code: 'fr' } } },
          none: { data: null },
        },
      });
      expect(answer.statements).to.equal(1);
    });

    it('refuses a bad argument of the locales as any list does', async () => {
      const answer = await ask(served, '{ i18NLocales(sort: "nope") { data { id } } }');
      expect(answer.body.data).to.deep.equal({ i18NLocales: null });
      expect(answer.body.errors!.map((error) => error.extensions.code)).to.deep.equal(['BAD_USER_INPUT']);
    });

    it('reads the upload folders with their parent, children and files, in one statement', async () => {
      const answer = await ask(
        served,
        `{ uploadFolders(sort: "path") { data { id attributes { name path pathId
             parent { data { id attributes { name } } }
             children { data { id attributes { name } } }
             files { data { id attributes { name } } } } } meta { pagination { total } } }
           uploadFolder(id: 2) { data { attributes { name } } } }`,
        EDITOR_TOKEN,
      );
      expect(answer.body).to.deep.equal({
        data: {
          uploadFolders: {
            data: [
              {
                id: '1',
                attributes: { name: 'Photos', path: '/1', pathId: 1, parent: { data: null }, children: { data: [{ id: '2', attributes: { name: 'Trips' } }] }, files: { data: [] } },
              },
              {
                id: '2',
                attributes: {
                  name: 'Trips',
                  path: '/1/2',
                  pathId: 2,
                  parent: { data: { id: '1', attributes: { name: 'Photos' } } },
                  children: { data: [] },
                  files: { data: [{ id: '2', attributes: { name: 'image-002.jpg' } }, { id: '1', attributes: { name: 'image-001.jpg' } }] },
                },
              },
            ],
            meta: { pagination: { total: 2 } },
          },
          uploadFolder: { data: { attributes: { name: 'Trips' } } },
        },
      });
      expect(answer.statements).to.equal(1);
    });

    it('answers a role\'s permissions from permissions.yaml, with their filters, sort and pagination', async () => {
      const answer = await ask(
        served,
        `{ usersPermissionsRoles(sort: "id") { data { attributes { type
             api: permissions(filters: { action: { startsWith: "api::" } }, sort: "action:desc") { data { attributes { action } } }
             first: permissions(pagination: { limit: 2 }) { __typename data { id attributes { action } } } } } } }`,
        EDITOR_TOKEN,
      );
      const roles = (answer.body.data as any).usersPermissionsRoles.data.map((role: any) => role.attributes);
      expect(roles.map((role: any) => [role.type, role.api.data.map((entry: any) => entry.attributes.action)])).to.deep.equal([
        ['authenticated', []],
        ['public', ['api::category.category.findOne', 'api::category.category.find', 'api::article.article.find']],
      ]);
      expect(roles.map((role: any) => role.first.data.map((entry: any) => entry.attributes.action))).to.deep.equal([
        ['plugin::users-permissions.auth.changePassword', 'plugin::users-permissions.user.me'],
        ['api::article.article.find', 'api::category.category.find'],
      ]);
      expect(roles[1].first.__typename).to.equal('UsersPermissionsPermissionRelationResponseCollection');
      expect(roles[1].first.data.every((entry: any) => /^\d+$/.test(entry.id))).to.equal(true);
      expect(answer.statements).to.equal(1);
    });

    it('answers the folders and the locales to the roles granted them only, as Strapi\'s scopes do', async () => {
      const publicAnswer = await ask(served, '{ uploadFolders { data { id } } i18NLocales { data { id } } }');
      expect(publicAnswer.body.data).to.deep.equal({ uploadFolders: null, i18NLocales: { data: [{ id: '1' }, { id: '2' }] } });
      expect(publicAnswer.body.errors!.map((error) => error.extensions.code)).to.deep.equal(['FORBIDDEN']);
      const editorAnswer = await ask(served, '{ i18NLocales { data { id } } }', EDITOR_TOKEN);
      expect(editorAnswer.body.data).to.deep.equal({ i18NLocales: null });
    });

    it("shows a folder's files only to a role that may read files", async () => {
      const answer = await ask(served, '{ uploadFolders(sort: "path") { data { id attributes { name files { data { id attributes { name } } } } } } }', LIBRARIAN_TOKEN);
      expect(JSON.stringify(answer.body)).to.not.contain('image-00');
      expect(answer.body.data).to.deep.equal({
        uploadFolders: { data: [{ id: '1', attributes: { name: 'Photos', files: null } }, { id: '2', attributes: { name: 'Trips', files: null } }] },
      });
      expect(answer.body.errors!.map((error) => error.extensions.code)).to.deep.equal(['FORBIDDEN', 'FORBIDDEN']);
      expect(answer.statements).to.equal(1);
    });
  });
}
