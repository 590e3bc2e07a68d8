/**
 * Serving a Strapi database: its i18n default locale (strapi_core_store_settings) is the API's,
 * unless the host says otherwise.
 */
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../plugin/storage/database.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { repoRoot, serveApi } from '../support/api.js';

describe("a Strapi database's default locale", () => {
  let dir: string;
  let url: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'content-api-locale-'));
    copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), join(dir, 'strapi.db'));
    url = `sqlite:${join(dir, 'strapi.db')}`;
    const knex = openDatabase(url);
    await knex('strapi_core_store_settings').where({ key: 'plugin_i18n_default_locale' }).update({ value: '"fr"' });
    await knex.destroy();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const locales = async (options: { defaultLocale?: string }) => {
    const served = await serveApi({ root: repoRoot, database: url, sync: false, ...options });
    try {
      const response = await served.request.get('/api/articles?fields[0]=locale&pagination[pageSize]=100');
      return [...new Set(response.body.data.map((entry: { attributes: { locale: string } }) => entry.attributes.locale))];
    } finally {
      await served.close();
    }
  };

  it('is read from the database', async () => {
    expect(await locales({})).to.deep.equal(['fr']);
  });

  it('gives way to the defaultLocale option', async () => {
    expect(await locales({ defaultLocale: 'en' })).to.deep.equal(['en']);
  });
});
