/**
 * `content-api serve --locales`, and serve's answer to an unknown path under /api, as a child
 * process over a new SQLite database.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/server.js';

describe('content-api serve flags', function () {
  this.timeout(60_000);
  let folder: string;
  let server: RunningServer | null = null;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'content-api-serve-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  const create = (locale: string) =>
    fetch(`${server!.baseUrl}/api/articles`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-editor-token', 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: `In ${locale}`, locale } }),
    });

  it('--locales en,de: entries may be written in de, not in a locale left out', async () => {
    server = await startServer({ database: `sqlite:${join(folder, 'locales.db')}`, args: ['--locales', 'en,de', '--quiet'] });
    const german = await create('de');
    expect(german.status, await german.clone().text()).to.equal(200);
    expect(((await german.json()) as { data: { attributes: { locale: string } } }).data.attributes.locale).to.equal('de');
    const french = await create('fr');
    expect(french.status).to.equal(400);
    expect(((await french.json()) as { error: { message: string } }).error.message).to.equal("This locale doesn't exist");
  });

  it('answers an unknown path under /api with the 404 envelope', async () => {
    server = await startServer({ database: `sqlite:${join(folder, 'not-found.db')}`, args: ['--quiet'] });
    const response = await fetch(`${server.baseUrl}/api/nowhere`);
    expect(response.status).to.equal(404);
    expect(await response.json()).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });
});
