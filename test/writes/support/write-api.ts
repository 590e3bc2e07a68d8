/**
 * A writable API over a fresh copy of the small fixture, for the write suites: an `editor` role
 * with every action on the content types (token `editor-token`), a `reader` role that may read
 * but not write (token `reader-token`), a `noFiles` role that may write articles but not read
 * files or categories (token `nofiles-token`), and `public` with the example's read permissions.
 */
import type supertest from 'supertest';
import { tokenHash } from '../../../plugin/access/tokens.js';
import type { DatabaseClient } from '../../../plugin/storage/database.js';
import { serveApi, type ServedApi } from '../../support/api.js';
import { freshFixture, type FreshFixture } from './fixture.js';

const SALT = 'write-suite-salt-0001';
const ALL = '[find, findOne, preview, create, update, delete]';

export const WRITE_PERMISSIONS = `
roles:
  public:
    article: [find, findOne]
    category: [find, findOne]
    file: [find]
  editor:
    article: ${ALL}
    category: ${ALL}
    restaurant: ${ALL}
    user: [find, findOne]
    file: [find, findOne]
  reader:
    article: [find, findOne, preview]
    category: [find, findOne]
    file: [find]
  noFiles:
    article: ${ALL}
tokens:
  - { name: editor, role: editor, hash: "${tokenHash('editor-token', SALT)}" }
  - { name: reader, role: reader, hash: "${tokenHash('reader-token', SALT)}" }
  - { name: nofiles, role: noFiles, hash: "${tokenHash('nofiles-token', SALT)}" }
`;

export interface WriteApi extends ServedApi {
  readonly fixture: FreshFixture;
  /** A request as the editor. */
  as(token: 'editor' | 'reader' | 'nofiles' | null): Caller;
}

export interface Caller {
  post(path: string, body: unknown): supertest.Test;
  put(path: string, body: unknown): supertest.Test;
  delete(path: string): supertest.Test;
  get(path: string): supertest.Test;
}

export async function writeApi(client: DatabaseClient): Promise<WriteApi> {
  const fixture = await freshFixture(client, WRITE_PERMISSIONS);
  const served = await serveApi({ root: fixture.root, database: fixture.url, watchPermissions: false });
  const as = (token: 'editor' | 'reader' | 'nofiles' | null): Caller => {
    const auth = (test: supertest.Test) => (token ? test.set('Authorization', `Bearer ${token}-token`) : test);
    return {
      post: (path, body) => auth(served.request.post(path)).send(body as object),
      put: (path, body) => auth(served.request.put(path)).send(body as object),
      delete: (path) => auth(served.request.delete(path)),
      get: (path) => auth(served.request.get(path)),
    };
  };
  return {
    ...served,
    fixture,
    as,
    close: async () => {
      await served.close();
      await fixture.drop();
    },
  };
}
