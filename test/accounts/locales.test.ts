/**
 * `GET /api/i18n/locales` on every engine: Strapi's rows of `i18n_locale` (copied with the
 * fixture to PostgreSQL and MariaDB), to the roles granted `find` on `locale` only; the `locales`
 * option, or the content's codes, when the database has no such table; and always the locales a
 * write takes. And how a locale is named, and granted in permissions.yaml.
 */
import { expect } from 'chai';
import { grantsFor, LOCALE_UID, parsePermissions } from '../../plugin/access/permissions.js';
import type { ContentApiOptions } from '../../plugin/index.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { describeLocale } from '../../plugin/storage/strapi-locales.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';

const PERMISSIONS = `roles:
  public:
    locale: [find]
    article: [find, create]
  reader:
    article: [find]
`;

/** The two rows of the fixture, as Strapi 4.26.2 answers them (test/accounts/recorded/locales.json). */
const STRAPI_ROWS = [
  { id: 1, name: 'English (en)', code: 'en', createdAt: '2024-01-01T08:00:00.000Z', updatedAt: '2024-01-01T08:00:00.000Z', isDefault: true },
  { id: 2, name: 'French (fr)', code: 'fr', createdAt: '2024-01-01T09:00:00.000Z', updatedAt: '2024-01-01T09:00:00.000Z', isDefault: false },
];

for (const { client, name } of testDatabaseKinds()) {
  describe(`locales: GET /api/i18n/locales (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    const served: ServedApi[] = [];

    before(async () => {
      fixture = await freshFixture(client, PERMISSIONS);
    });

    after(async () => {
      for (const api of served) await api.close();
      await fixture?.drop();
    });

    async function serve(options: Partial<ContentApiOptions> = {}): Promise<ServedApi> {
      const api = await serveApi({ root: fixture.root, database: fixture.url, sync: false, watchPermissions: false, sqliteReadWorkers: 0, resolveRole: (ctx) => ctx.get('x-role') || null, ...options });
      served.push(api);
      return api;
    }

    /** The codes a write takes: those a write in an unknown locale is told. */
    async function writableCodes(api: ServedApi): Promise<unknown> {
      const answer = await api.request.post('/api/articles?locale=xx').send({ data: { title: 'T' } }).expect(400);
      return answer.body.error.details.locales;
    }

    it('lists the rows of Strapi’s i18n_locale to a role granted find on locale, as Strapi answers them', async () => {
      const api = await serve();
      const answer = await api.request.get('/api/i18n/locales?sort=code:desc&fields[0]=code').expect(200);
      expect(answer.body).to.deep.equal(STRAPI_ROWS);
      expect(await writableCodes(api)).to.deep.equal(['en', 'fr']);
    });

    it('is Strapi’s 403 for a role without the grant, and a 401 for an unknown token', async () => {
      const api = await serve();
      const refused = await api.request.get('/api/i18n/locales').set('x-role', 'reader').expect(403);
      expect(refused.body).to.deep.equal({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
      await api.request.get('/api/i18n/locales').set('Authorization', 'Bearer not-a-token').expect(401);
    });

    it('lists the locales option: the table’s rows for its codes, a name made from the code for the others', async () => {
      const api = await serve({ locales: ['fr', 'en', 'de-CH'] });
      const answer = await api.request.get('/api/i18n/locales').expect(200);
      expect(answer.body).to.deep.equal([...STRAPI_ROWS, { id: 3, name: 'German (Switzerland) (de-CH)', code: 'de-CH', createdAt: null, updatedAt: null, isDefault: false }]);
      expect(await writableCodes(api)).to.deep.equal(['en', 'fr', 'de-CH']);
    });

    it('lists the default locale and the codes the content uses when the database has no i18n_locale', async () => {
      const knex = openDatabase(fixture.url);
      try {
        await knex.schema.dropTable('i18n_locale');
      } finally {
        await knex.destroy();
      }
      const api = await serve({ defaultLocale: 'fr' });
      const answer = await api.request.get('/api/i18n/locales').expect(200);
      expect(answer.body).to.deep.equal([
        { id: 1, name: 'French (fr)', code: 'fr', createdAt: null, updatedAt: null, isDefault: true },
        { id: 2, name: 'English (en)', code: 'en', createdAt: null, updatedAt: null, isDefault: false },
      ]);
      expect(await writableCodes(api)).to.deep.equal(['fr', 'en']);
    });
  });
}

describe('locales: names and grants', () => {
  it('names a locale as Strapi’s list does', () => {
    expect(describeLocale('en')).to.equal('English (en)');
    expect(describeLocale('en-GB')).to.equal('English (United Kingdom) (en-GB)');
    expect(describeLocale('zh-Hans')).to.equal('Chinese (Simplified) (zh-Hans)');
    expect(describeLocale('not a code')).to.equal('not a code');
  });

  it('grants the list as find on locale, locales or its uid, and nothing else on it', async () => {
    const registry = await loadSchema(repoRoot);
    for (const name of ['locale', 'locales', LOCALE_UID]) {
      const permissions = parsePermissions(`roles:\n  public:\n    ${name}: [find]\n  other:\n    ${name}: { find: true }\n`, 'permissions.yaml', registry);
      expect(grantsFor(permissions, 'public').can(LOCALE_UID, 'find'), name).to.equal(true);
      expect(grantsFor(permissions, 'other').can(LOCALE_UID, 'find'), name).to.equal(true);
    }
    const refused = (text: string) => {
      try {
        parsePermissions(text, 'permissions.yaml', registry);
      } catch (error) {
        if (error instanceof SchemaError) return error.problems.map((problem) => `${problem.path}: ${problem.message}`);
        throw error;
      }
      return [];
    };
    expect(refused('roles:\n  public:\n    locale: [find, create]\n')).to.deep.equal(['roles.public.locale.1: expected [find]: the locales are listed to a role whose grant holds find, and take no rule']);
    expect(refused('roles:\n  public:\n    locale: { find: { where: { code: en } } }\n')).to.deep.equal(['roles.public.locale.find: expected [find]: the locales are listed to a role whose grant holds find, and take no rule']);
  });
});
