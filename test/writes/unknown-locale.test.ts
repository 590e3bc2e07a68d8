/**
 * A write in a locale the API does not take answers Strapi's error (ApplicationError 400, Strapi's
 * message, which the recorded replays compare) and says in `details` which locales are valid and
 * where they are set.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createTestApi, testDatabases, type TestApi } from '../../plugin/testing/index.js';
import { repoRoot } from '../support/api.js';

const recipes = join(repoRoot, 'examples', 'recipes');

describe('writes: an unknown locale', function () {
  this.timeout(60_000);
  let root: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-locales-'));
    for (const folder of ['content-types', 'components']) cpSync(join(recipes, folder), join(root, folder), { recursive: true });
    writeFileSync(join(root, 'permissions.yaml'), 'roles:\n  public:\n    recipe: [find, findOne, create]\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Strapi's 400 with its own message, and the valid locales and their source in its details. */
function expectUnknownDe(response: { status: number; body: { error: unknown } }, message: string): void {
  expect(response.status).to.equal(400);
  expect(response.body.error).to.deep.equal({
    status: 400,
    name: 'ApplicationError',
    message,
    details: { locale: 'de', locales: ['en', 'fr'], help: 'locale "de" is not one of en, fr (the locales option, or --locales)' },
  });
}

for (const database of testDatabases()) {
    describe(database, () => {
      let kit: TestApi;
      before(async () => {
        kit = await createTestApi({ root, database, locales: ['en', 'fr'], data: { text: 'recipe:\n  soup: { title: Soup }\n' } });
      });
      after(() => kit?.close());

      it('POST …/localizations: Strapi\'s "locale is invalid", the valid locales and their source in details', async () => {
        const id = kit.ids.get('api::recipe.recipe')!.get('soup')!;
        const response = await kit.request.post(`/api/recipes/${id}/localizations`).send({ locale: 'de', title: 'Suppe' });
        expectUnknownDe(response, 'locale is invalid');
      });

      it('POST: Strapi\'s "This locale doesn\'t exist", with the same details', async () => {
        const response = await kit.request.post('/api/recipes').send({ data: { title: 'Suppe', locale: 'de' } });
        expectUnknownDe(response, "This locale doesn't exist");
      });
    });
  }
});
