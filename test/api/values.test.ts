/**
 * Value formats in responses (SPEC §4 envelope; D8): bigintegers as exact strings, decimals and
 * floats as numbers, dates `YYYY-MM-DD`, times `HH:mm:ss.SSS`, datetimes ISO-8601 with
 * milliseconds and `Z`, booleans, json as stored (objects, arrays, strings, numbers, booleans),
 * NULL as null — byte for byte the same on SQLite (epoch milliseconds, 0/1, json text) and
 * PostgreSQL (native types). Attributes come in schema order, private and password ones never.
 */
import { expect } from 'chai';
import { bodyOf, EDITOR_TOKEN } from './support/all-types.js';
import { describeEachEngine } from './support/each-engine.js';

const created = (id: number) => new Date(Date.UTC(2024, 0, 1) + id * 3_600_000).toISOString();

function item(id: number, attributes: Record<string, unknown>): { id: number; attributes: Record<string, unknown> } {
  return { id, attributes: { ...attributes, createdAt: created(id), updatedAt: created(id) } };
}

/** Every item as the API returns it by default: schema order, then createdAt, updatedAt. */
const ITEMS = [
  item(1, {
    name: 'Alpha', body: 'First item, 50% off', notes: '# Notes\nSome **rich** text', status: 'alpha', email: 'alpha@example.com', code: 'alpha',
    amount: 10, big: '9007199254740993', ratio: 1.5, price: 10.25, active: true, day: '2024-01-15', clock: '08:30:00.000',
    moment: '2024-01-15T08:30:00.123Z', stamp: '2024-01-15T08:30:00.000Z', data: { a: 1, list: [1, 2] },
  }),
  item(2, {
    name: 'beta', body: 'second_item', notes: null, status: 'beta', email: 'Beta@Example.COM', code: 'beta',
    amount: 20, big: '9007199254740992', ratio: 2.25, price: 5.5, active: false, day: '2024-02-29', clock: '12:00:00.000',
    moment: '2024-02-29T12:00:00.000Z', stamp: '2024-02-29T12:00:00.500Z', data: [1, 'two', null],
  }),
  item(3, {
    name: 'Gamma 100%', body: 'percent sign', notes: 'Plain', status: 'gamma', email: 'gamma@example.org', code: 'gamma-100',
    amount: -5, big: '-9007199254740993', ratio: -0.5, price: 0, active: true, day: '2023-12-31', clock: '23:59:59.999',
    moment: '2023-12-31T23:59:59.999Z', stamp: null, data: 'just text',
  }),
  item(4, {
    name: 'delta_x', body: 'UNDER_score', notes: null, status: 'alpha', email: 'delta@example.com', code: 'delta-x',
    amount: 0, big: '0', ratio: 0, price: 99.99, active: false, day: '2024-03-01', clock: '00:00:00.000',
    moment: '2024-03-01T00:00:00.000Z', stamp: null, data: 42,
  }),
  item(5, {
    name: 'Epsilon', body: null, notes: null, status: null, email: null, code: 'epsilon',
    amount: null, big: null, ratio: null, price: null, active: null, day: null, clock: null,
    moment: null, stamp: null, data: null,
  }),
  item(6, {
    name: 'epsilon', body: 'lower case twin', notes: null, status: 'beta', email: 'epsilon@example.com', code: 'epsilon-2',
    amount: 20, big: '42', ratio: 1.5, price: 10.25, active: true, day: '2024-01-15', clock: '08:30:00.000',
    moment: '2024-01-15T08:30:00.123Z', stamp: null, data: { a: 2 },
  }),
  item(7, {
    name: 'Delta-X', body: 'dash', notes: null, status: 'gamma', email: 'DELTA@example.com', code: 'delta-x-2',
    amount: 7, big: '7', ratio: 3.75, price: 1.1, active: false, day: '2024-06-30', clock: '18:45:30.250',
    moment: '2024-06-30T18:45:30.250Z', stamp: null, data: true,
  }),
  item(8, {
    name: 'Æon', body: 'unicode ünïcödé', notes: null, status: 'beta', email: 'aeon@example.com', code: 'aeon',
    amount: 100, big: '100', ratio: 100.5, price: 100, active: true, day: '1999-12-31', clock: '06:00:00.000',
    moment: '1999-12-31T23:00:00.000Z', stamp: null, data: [],
  }),
  item(9, {
    name: 'Zeta', body: 'last letter', notes: null, status: 'alpha', email: 'zeta@example.com', code: 'zeta',
    amount: 3, big: '3', ratio: 0.1, price: 0.1, active: false, day: '2025-01-01', clock: '09:15:00.000',
    moment: '2025-01-01T00:00:00.000Z', stamp: null, data: {},
  }),
  item(10, {
    name: 'alphabet', body: 'letters', notes: null, status: 'gamma', email: 'ab@example.com', code: 'alphabet',
    amount: 15, big: '9223372036854775807', ratio: 7, price: 7, active: true, day: '2024-01-16', clock: '08:30:00.001',
    moment: '2024-01-15T08:30:00.124Z', stamp: null, data: { nested: { deep: [true, false] } },
  }),
];

const ATTRIBUTE_ORDER = [
  'name', 'body', 'notes', 'status', 'email', 'code', 'amount', 'big', 'ratio', 'price', 'active',
  'day', 'clock', 'moment', 'stamp', 'data', 'createdAt', 'updatedAt',
];

describeEachEngine('api: value formats', (app) => {
  it('returns every value of every type exactly', async function () {
    const body = await bodyOf(app(), '/api/items');
    expect(body.data).to.deep.equal(ITEMS);
    expect(body.meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 10 } });
  });

  for (const expected of ITEMS) {
    it(`findOne /api/items/${expected.id} returns the same entry`, async function () {
      expect(await bodyOf(app(), `/api/items/${expected.id}`)).to.deep.equal({ data: expected, meta: {} });
    });
  }

  it('keeps the attributes in schema order, then the timestamps', async function () {
    const body = await bodyOf(app(), '/api/items/1');
    expect(Object.keys((body.data as { attributes: object }).attributes)).to.deep.equal(ATTRIBUTE_ORDER);
    const list = await bodyOf(app(), '/api/items?pagination[pageSize]=1');
    expect(Object.keys((list.data as { attributes: object }[])[0].attributes)).to.deep.equal(ATTRIBUTE_ORDER);
  });

  it('writes bigintegers beyond 2^53 as exact strings in the response text (D8)', async function () {
    const response = await app().request.get('/api/items?fields[0]=big&sort=big:desc&pagination[pageSize]=3');
    expect(response.status).to.equal(200);
    expect(response.text).to.include('"big":"9223372036854775807"');
    expect(response.text).to.include('"big":"9007199254740993"');
    expect(response.text).to.include('"big":"9007199254740992"');
  });

  it('writes numbers as JSON numbers and booleans as JSON booleans in the response text', async function () {
    const response = await app().request.get('/api/items/7?fields[0]=amount&fields[1]=ratio&fields[2]=price&fields[3]=active');
    expect(response.status).to.equal(200);
    expect(JSON.parse(response.text)).to.deep.equal({ data: { id: 7, attributes: { amount: 7, ratio: 3.75, price: 1.1, active: false } }, meta: {} });
    expect(response.text).to.match(/"price":1\.1\b/);
    expect(response.text).to.include('"active":false');
  });

  it('answers application/json', async function () {
    const response = await app().request.get('/api/items/1');
    expect(response.headers['content-type']).to.match(/^application\/json/);
  });

  it('returns draft & publish and i18n attributes: publishedAt and locale, after the timestamps', async function () {
    const body = await bodyOf(app(), '/api/posts?publicationState=preview&locale=all', { Authorization: `Bearer ${EDITOR_TOKEN}` });
    expect(body.data).to.deep.equal([
      { id: 1, attributes: { title: 'Hello', views: 10, createdAt: created(1), updatedAt: created(1), publishedAt: '2024-01-02T00:00:00.000Z', locale: 'en' } },
      { id: 2, attributes: { title: 'World', views: 20, createdAt: created(2), updatedAt: created(2), publishedAt: '2024-01-03T00:00:00.000Z', locale: 'en' } },
      { id: 3, attributes: { title: 'Draft', views: 30, createdAt: created(3), updatedAt: created(3), publishedAt: null, locale: 'en' } },
      { id: 4, attributes: { title: 'Bonjour', views: 40, createdAt: created(4), updatedAt: created(4), publishedAt: '2024-01-05T00:00:00.000Z', locale: 'fr' } },
      { id: 5, attributes: { title: 'Brouillon', views: 50, createdAt: created(5), updatedAt: created(5), publishedAt: null, locale: 'fr' } },
    ]);
  });

  it('returns types without draft & publish without publishedAt or locale', async function () {
    expect(await bodyOf(app(), '/api/groups/3')).to.deep.equal({
      data: { id: 3, attributes: { name: 'Empty', rank: null, createdAt: created(3), updatedAt: created(3) } },
      meta: {},
    });
  });
});
