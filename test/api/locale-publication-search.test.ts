/**
 * locale, publicationState and _q over HTTP (SPEC §4, §5; D6, D7, D10, D15).
 *
 * posts (draft & publish, i18n): 1 Hello en, 2 World en, 3 Draft en (draft), 4 Bonjour fr,
 * 5 Brouillon fr (draft); 1↔4 and 3↔5 are localizations of each other. The public role reads
 * posts without `preview`; the editor role (API token, or resolveRole) has it.
 */
import { expect } from 'chai';
import { serveApi, type ServedApi } from '../support/api.js';
import { ALL_TYPES_ROOT, bodyOf, EDITOR_TOKEN, expectError, idsOf } from './support/all-types.js';
import { itListsIds, refusedTable, type IdsCase, type RefusedCase } from './support/case-tables.js';
import { describeEachEngine } from './support/each-engine.js';

const editor = { Authorization: `Bearer ${EDITOR_TOKEN}` };

const LOCALES: readonly IdsCase[] = [
  ['', [1, 2]],
  ['locale=en', [1, 2]],
  ['locale=fr', [4]],
  ['locale=all', [1, 2, 4]],
  ['locale[0]=fr&locale[1]=en', [1, 2, 4]],
  ['locale=fr&locale=en', [1, 2, 4]],
  ['locale[0]=fr&locale[1]=all', [1, 2, 4]],
  ['locale=de', []],
  ['locale[0]=de&locale[1]=fr', [4]],
  ['locale=', []],
  ['locale=FR', []],
  // A locale filter is ANDed with the locale parameter (the default locale when absent).
  ['filters[locale]=fr', []],
  ['filters[locale]=fr&locale=fr', [4]],
  ['filters[locale]=fr&locale=all', [4]],
  ['locale=all&sort=title', [4, 1, 2]],
];

/** As the editor, who may preview drafts. */
const PREVIEW: readonly IdsCase[] = [
  ['publicationState=preview', [1, 2, 3]],
  ['publicationState=preview&locale=fr', [4, 5]],
  ['publicationState=preview&locale=all', [1, 2, 3, 4, 5]],
  ['publicationState=live&locale=all', [1, 2, 4]],
  ['publicationState=preview&filters[publishedAt][$null]=true&locale=all', [3, 5]],
  ['filters[publishedAt][$null]=true', []],
  ['publicationState=preview&sort=views:desc', [3, 2, 1]],
];

/** _q on items: text fields case-insensitively, numeric fields when the text is a number, never private ones. */
const SEARCH: readonly IdsCase[] = [
  ['_q=alpha', [1, 4, 9, 10]],
  ['_q=ALPHA', [1, 4, 9, 10]],
  ['_q=RiCh', [1]],
  ['_q=example.org', [3]],
  ['_q=100', [3, 8]],
  ['_q=1.5', [1, 6]],
  ['_q=9007199254740993', [1]],
  ['_q=-5', [3]],
  ['_q=7', [7, 10]],
  ['_q=nothing%20like%20this', []],
  // D10: secret is private, pin a password.
  ['_q=topsecret', []],
  ['_q=hunter2', []],
  // D15: literal % and _.
  ['_q=%25', [1, 3]],
  ['_q=_', [2, 4]],
  ['_q=0%25', [1, 3]],
  ['_q=a%25', []],
  ['_q=', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ['_q=alpha&filters[amount][$gt]=5', [1, 10]],
  ['_q=alpha&sort=name:desc', [4, 10, 9, 1]],
];

/** Full URLs, each a 400 naming the parameter. */
const MALFORMED: readonly RefusedCase[] = [
  ['/api/posts?publicationState=draft', 'publicationState'],
  ['/api/posts?publicationState=', 'publicationState'],
  ['/api/posts?publicationState=LIVE', 'publicationState'],
  ['/api/posts?publicationState[0]=live', 'publicationState'],
  ['/api/items?publicationState=bogus', 'publicationState'],
  ['/api/posts/1?publicationState=bogus', 'publicationState'],
  ['/api/posts?locale[code]=fr', 'locale'],
  ['/api/items?_q[0]=alpha', '_q'],
  ['/api/items?_q[text]=alpha', '_q'],
];

describeEachEngine('api: locale, publicationState and _q', (app) => {
  describe('locale', function () {
    itListsIds(app, LOCALES, { prefix: '/api/posts?', none: '(none: the default locale)' });

    it('unknown codes answer an empty page with its meta', async function () {
      expect((await bodyOf(app(), '/api/posts?locale=de')).meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } });
    });

    it('is ignored on types that are not localized', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&locale=fr')).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('findOne reads an entry of any locale', async function () {
      expect(await bodyOf(app(), '/api/posts/4?fields[0]=title')).to.deep.equal({ data: { id: 4, attributes: { title: 'Bonjour' } }, meta: {} });
    });

    describe('with another default locale', function () {
      let french: ServedApi;

      before(async function () {
        french = await serveApi({ root: ALL_TYPES_ROOT, database: app().api.knex, sync: false, defaultLocale: 'fr' });
      });

      after(async function () {
        await french?.close();
      });

      it('lists that locale when none is asked for', async function () {
        expect(await idsOf(french, '/api/posts')).to.deep.equal([4]);
        expect(await idsOf(french, '/api/posts?locale=en')).to.deep.equal([1, 2]);
      });
    });
  });

  describe('publicationState', function () {
    it('is live by default and with live: published entries only', async function () {
      expect(await idsOf(app(), '/api/posts')).to.deep.equal([1, 2]);
      expect(await idsOf(app(), '/api/posts?publicationState=live')).to.deep.equal([1, 2]);
      expect((await bodyOf(app(), '/api/posts')).meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } });
    });

    it('preview is a 403 for a role without the preview permission (D7)', async function () {
      await expectError(app(), '/api/posts?publicationState=preview', 403, 'ForbiddenError');
      await expectError(app(), '/api/posts/3?publicationState=preview', 403, 'ForbiddenError');
    });

    it('preview needs no permission on a type without draft & publish', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&publicationState=preview&pagination[pageSize]=3')).to.deep.equal([1, 2, 3]);
    });

    describe('as a role with the preview permission, through an API token', function () {
      itListsIds(app, PREVIEW, { prefix: '/api/posts?', headers: editor });

      it('counts drafts in the total', async function () {
        expect((await bodyOf(app(), '/api/posts?publicationState=preview&locale=all', editor)).meta).to.deep.equal({
          pagination: { page: 1, pageSize: 25, pageCount: 1, total: 5 },
        });
      });
    });

    describe('findOne (D6)', function () {
      it('a draft is a 404 under live, the default', async function () {
        await expectError(app(), '/api/posts/3', 404, 'NotFoundError');
        await expectError(app(), '/api/posts/5?publicationState=live', 404, 'NotFoundError');
        await expectError(app(), '/api/posts/3', 404, 'NotFoundError', editor);
      });

      it('a draft is returned under preview to a role that may preview', async function () {
        expect(await bodyOf(app(), '/api/posts/3?publicationState=preview&fields[0]=title&fields[1]=publishedAt', editor)).to.deep.equal({
          data: { id: 3, attributes: { title: 'Draft', publishedAt: null } },
          meta: {},
        });
      });

      it('a published entry is returned under live and preview', async function () {
        expect(((await bodyOf(app(), '/api/posts/1')).data as { id: number }).id).to.equal(1);
        expect(((await bodyOf(app(), '/api/posts/1?publicationState=preview', editor)).data as { id: number }).id).to.equal(1);
      });

      it('a missing or malformed id is a 404', async function () {
        await expectError(app(), '/api/posts/999', 404, 'NotFoundError');
        await expectError(app(), '/api/posts/abc', 404, 'NotFoundError');
        await expectError(app(), '/api/posts/0', 404, 'NotFoundError');
        await expectError(app(), '/api/posts/-1', 404, 'NotFoundError');
      });
    });

    describe('a role resolved by the host app', function () {
      let hosted: ServedApi;

      before(async function () {
        hosted = await serveApi({
          root: ALL_TYPES_ROOT,
          database: app().api.knex,
          sync: false,
          resolveRole: (ctx) => ctx.get('x-test-role') || null,
        });
      });

      after(async function () {
        await hosted?.close();
      });

      it('previews drafts when the resolved role may', async function () {
        expect(await idsOf(hosted, '/api/posts?publicationState=preview', { 'x-test-role': 'editor' })).to.deep.equal([1, 2, 3]);
      });

      it('falls back to public, which may not', async function () {
        await expectError(hosted, '/api/posts?publicationState=preview', 403, 'ForbiddenError');
      });

      it('an API token wins over the resolved role', async function () {
        const response = await hosted.request.get('/api/posts/3?publicationState=preview').set(editor).set('x-test-role', 'public');
        expect(response.status).to.equal(200);
      });

      it('a bad token is a 401, whatever the resolved role', async function () {
        await expectError(hosted, '/api/posts', 401, 'UnauthorizedError', { Authorization: 'Bearer not-a-token', 'x-test-role': 'editor' });
      });
    });
  });

  describe('_q', function () {
    itListsIds(app, SEARCH);

    it('counts what it finds', async function () {
      expect((await bodyOf(app(), '/api/items?_q=alpha')).meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 4 } });
    });

    it('searches within the locale and publication state', async function () {
      expect(await idsOf(app(), '/api/posts?_q=o')).to.deep.equal([1, 2]);
      expect(await idsOf(app(), '/api/posts?_q=BON&locale=fr')).to.deep.equal([4]);
      expect(await idsOf(app(), '/api/posts?_q=draft')).to.deep.equal([]);
      expect(await idsOf(app(), '/api/posts?_q=draft&publicationState=preview', editor)).to.deep.equal([3]);
    });
  });

  refusedTable(app, 'malformed', MALFORMED, '');
});
