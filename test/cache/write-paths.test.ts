/**
 * The write paths beside the entries' routes drop the answers they change before they answer:
 * the media library (an upload attached to an entry, a file destroyed) and registration of end
 * users. On every engine.
 */
import { expect } from 'chai';
import { createTestApi, testDatabases, type TestApi } from '../../plugin/testing/index.js';
import { repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { testFile, uploadApi, UPLOAD_PERMISSIONS, type UploadApi } from '../uploads/support/upload-api.js';
import { cacheOutcome, sleep } from './support.js';

/** The answer of `path` once it is kept (the echo of earlier writes heard first). */
async function kept(get: () => PromiseLike<{ headers: Record<string, string>; body: unknown }>): Promise<unknown> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await get();
    if (cacheOutcome(response) === 'hit') return response.body;
    await sleep(20);
  }
  throw new Error('never kept');
}

for (const kind of testDatabaseKinds()) {
  describe(`the media library drops the answers it changes (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    before(async () => (api = await uploadApi(kind.client, {}, {}, UPLOAD_PERMISSIONS, { cache: { maxBytes: '8MB' } })));
    after(async () => api?.close());

    const headerImage = (body: unknown) => (body as { data: { attributes: { headerImage: { data: { id: number; attributes: { name: string } } | null } } } }).data.attributes.headerImage.data;
    const read = () => api.request.get('/api/articles/1?populate[headerImage][fields][0]=name');

    it('shows an upload attached to an entry, and a file destroyed, to the next read', async () => {
      await kept(read);
      const upload = await api.as('editor', api.request.post('/api/upload')).field('ref', 'api::article.article').field('refId', '1').field('field', 'headerImage').attach('files', testFile('photo.jpg'), 'cached-header.jpg');
      expect(upload.status, JSON.stringify(upload.body)).to.equal(200);
      const attached = headerImage((await read()).body);
      expect(attached?.attributes.name).to.equal('cached-header.jpg');
      await kept(read);
      const destroyed = await api.as('editor', api.request.delete(`/api/upload/files/${attached!.id}`));
      expect(destroyed.status).to.equal(200);
      expect(headerImage((await read()).body)).to.equal(null);
    });
  });
}

for (const database of testDatabases()) {
  describe(`registration drops the answers it changes (${database})`, function () {
    this.timeout(60_000);
    let api: TestApi;
    before(async () => (api = await createTestApi({ root: repoRoot, database, serverTiming: true, users: { jwtSecret: 'a secret for tests only', register: true }, cache: { maxBytes: '8MB' } })));
    after(async () => api?.close());

    it('shows a registered user to the next read of the users', async () => {
      const users = () => api.request.get('/api/users');
      const names = (body: unknown) => (body as { data: { attributes: { username: string } }[] }).data.map((user) => user.attributes.username);
      expect(names(await kept(users))).not.to.include('cached-ada');
      const registered = await api.request.post('/api/auth/local/register').send({ username: 'cached-ada', email: 'cached-ada@example.com', password: 'Password-1!' });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      expect(names((await users()).body)).to.include('cached-ada');
    });
  });
}
