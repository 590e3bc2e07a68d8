/**
 * pagination over HTTP (SPEC §4 pagination; D4): page and offset modes, the defaults (25, with a
 * count), Strapi's clamps with the configured maximum (100), pages past the end, withCount and
 * the statements it costs, the meta of each mode, and the API options that change the limits.
 * The 130 tags (ids 1–130, stored out of id order) are paged through.
 */
import { expect } from 'chai';
import { serveApi, statementsOf, type ServedApi } from '../support/api.js';
import { ALL_TYPES_ROOT, bodyOf, entryIds, type Envelope } from './support/all-types.js';
import { TAG_COUNT } from './support/all-types-data.js';
import { caseTable } from './support/case-tables.js';
import { describeEachEngine } from './support/each-engine.js';

/** ids first…last */
const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);

type Case = readonly [query: string, ids: readonly number[], pagination: Record<string, number>];

const PAGE_MODE: readonly Case[] = [
  ['', range(1, 25), { page: 1, pageSize: 25, pageCount: 6, total: 130 }],
  ['pagination[page]=2', range(26, 50), { page: 2, pageSize: 25, pageCount: 6, total: 130 }],
  ['pagination[page]=2&pagination[pageSize]=50', range(51, 100), { page: 2, pageSize: 50, pageCount: 3, total: 130 }],
  ['pagination[page]=3&pagination[pageSize]=50', range(101, 130), { page: 3, pageSize: 50, pageCount: 3, total: 130 }],
  ['pagination[pageSize]=100', range(1, 100), { page: 1, pageSize: 100, pageCount: 2, total: 130 }],
  ['pagination[pageSize]=500', range(1, 100), { page: 1, pageSize: 100, pageCount: 2, total: 130 }],
  ['pagination[pageSize]=0', [1], { page: 1, pageSize: 1, pageCount: 130, total: 130 }],
  ['pagination[pageSize]=-1', [1], { page: 1, pageSize: 1, pageCount: 130, total: 130 }],
  ['pagination[page]=0&pagination[pageSize]=3', [1, 2, 3], { page: 1, pageSize: 3, pageCount: 44, total: 130 }],
  ['pagination[page]=-3&pagination[pageSize]=3', [1, 2, 3], { page: 1, pageSize: 3, pageCount: 44, total: 130 }],
  ['pagination[page]=44&pagination[pageSize]=3', [130], { page: 44, pageSize: 3, pageCount: 44, total: 130 }],
  ['pagination[page]=100', [], { page: 100, pageSize: 25, pageCount: 6, total: 130 }],
  ['pagination[page]=2&pagination[pageSize]=007', range(8, 14), { page: 2, pageSize: 7, pageCount: 19, total: 130 }],
  ['filters[name][$startsWith]=Tag%2012&pagination[pageSize]=4', [120, 121, 122, 123], { page: 1, pageSize: 4, pageCount: 3, total: 10 }],
  ['filters[name]=nothing', [], { page: 1, pageSize: 25, pageCount: 0, total: 0 }],
];

const OFFSET_MODE: readonly Case[] = [
  ['pagination[start]=10&pagination[limit]=5', range(11, 15), { start: 10, limit: 5, total: 130 }],
  ['pagination[start]=10', range(11, 35), { start: 10, limit: 25, total: 130 }],
  ['pagination[limit]=3', [1, 2, 3], { start: 0, limit: 3, total: 130 }],
  ['pagination[limit]=-1', range(1, 100), { start: 0, limit: 100, total: 130 }],
  ['pagination[limit]=0', [1], { start: 0, limit: 1, total: 130 }],
  ['pagination[limit]=500', range(1, 100), { start: 0, limit: 100, total: 130 }],
  ['pagination[start]=-5&pagination[limit]=2', [1, 2], { start: 0, limit: 2, total: 130 }],
  ['pagination[start]=125', range(126, 130), { start: 125, limit: 25, total: 130 }],
  ['pagination[start]=200', [], { start: 200, limit: 25, total: 130 }],
  ['pagination[start]=5&pagination[limit]=-1', range(6, 105), { start: 5, limit: 100, total: 130 }],
];

const WITHOUT_COUNT: readonly Case[] = [
  ['pagination[withCount]=false', range(1, 25), { page: 1, pageSize: 25 }],
  ['pagination[withCount]=f&pagination[page]=2&pagination[pageSize]=2', [3, 4], { page: 2, pageSize: 2 }],
  ['pagination[withCount]=0&pagination[start]=5&pagination[limit]=2', [6, 7], { start: 5, limit: 2 }],
  ['pagination[withCount]=FALSE&pagination[page]=99', [], { page: 99, pageSize: 25 }],
];

async function expectPage(app: ServedApi, url: string, ids: readonly number[], pagination: Record<string, number>): Promise<void> {
  const body = await bodyOf(app, url);
  expect(entryIds(body), url).to.deep.equal(ids);
  // deep.equal: the meta has exactly these keys, no more.
  expect(body.meta, url).to.deep.equal({ pagination });
}

describeEachEngine('api: pagination', (app) => {
  const table = (title: string, cases: readonly Case[]) =>
    caseTable(
      title,
      cases,
      (query, ids, pagination) => `${query || '(none)'} → ${ids.length ? `${ids[0]}…${ids[ids.length - 1]}` : 'nothing'}, ${JSON.stringify(pagination)}`,
      (query, ids, pagination) => expectPage(app(), `/api/tags?fields=id&${query}`, ids, pagination),
    );

  it(`serves ${TAG_COUNT} tags`, async function () {
    expect((await bodyOf(app(), '/api/tags?fields=id&pagination[withCount]=true')).meta?.pagination?.total).to.equal(TAG_COUNT);
  });

  table('page mode', PAGE_MODE);
  table('offset mode', OFFSET_MODE);
  table('withCount=false: no total, no pageCount', WITHOUT_COUNT);

  describe('statements per request', function () {
    it('one statement without the count', async function () {
      const response = await app().request.get('/api/tags?pagination[withCount]=false');
      expect(response.status).to.equal(200);
      expect(statementsOf(response)).to.equal(1);
    });

    it('one statement with the count (the default): the count is inside it', async function () {
      const response = await app().request.get('/api/tags');
      expect(response.status).to.equal(200);
      expect(statementsOf(response)).to.equal(1);
    });

    it('one statement with withCount=true, in offset mode too', async function () {
      const response = await app().request.get('/api/tags?pagination[withCount]=t&pagination[start]=3');
      expect(response.status).to.equal(200);
      expect(statementsOf(response)).to.equal(1);
      expect((response.body as Envelope).meta).to.deep.equal({ pagination: { start: 3, limit: 25, total: 130 } });
    });

    it('one statement for findOne, whose meta is empty', async function () {
      const response = await app().request.get('/api/tags/7');
      expect(response.status).to.equal(200);
      expect(statementsOf(response)).to.equal(1);
      expect((response.body as Envelope).meta).to.deep.equal({});
    });
  });

  it('pages follow the sort, ties broken by id', async function () {
    await expectPage(app(), '/api/items?fields=id&sort=amount:desc&pagination[page]=2&pagination[pageSize]=3', [10, 1, 7], {
      page: 2,
      pageSize: 3,
      pageCount: 4,
      total: 10,
    });
  });

  it('findOne ignores pagination', async function () {
    const body = await bodyOf(app(), '/api/tags/130?pagination[page]=9&pagination[pageSize]=1');
    expect(body).to.deep.equal({ data: { id: 130, attributes: { name: 'Tag 130', createdAt: '2024-01-06T10:00:00.000Z', updatedAt: '2024-01-06T10:00:00.000Z' } }, meta: {} });
  });

  describe('configured limits', function () {
    let limited: ServedApi;

    before(async function () {
      limited = await serveApi({ root: ALL_TYPES_ROOT, database: app().api.knex, sync: false, defaultLimit: 10, maxLimit: 50, withCount: false });
    });

    after(async function () {
      await limited?.close();
    });

    it('defaultLimit is the page size when none is asked for, withCount: false drops the count', async function () {
      await expectPage(limited, '/api/tags?fields=id', range(1, 10), { page: 1, pageSize: 10 });
      const response = await limited.request.get('/api/tags');
      expect(statementsOf(response)).to.equal(1);
    });

    it('maxLimit caps pageSize and limit, and -1', async function () {
      await expectPage(limited, '/api/tags?fields=id&pagination[pageSize]=80', range(1, 50), { page: 1, pageSize: 50 });
      await expectPage(limited, '/api/tags?fields=id&pagination[limit]=-1&pagination[start]=100', range(101, 130), { start: 100, limit: 50 });
    });

    it('withCount=true asks for the count anyway', async function () {
      await expectPage(limited, '/api/tags?fields=id&pagination[withCount]=true&pagination[pageSize]=60', range(1, 50), {
        page: 1,
        pageSize: 50,
        pageCount: 3,
        total: 130,
      });
    });
  });
});
