/**
 * fields over HTTP (SPEC §4 fields; D9): the array, single-name, comma-list (D9) and `*` forms,
 * `id` alone, the implicit timestamps, publishedAt and locale, on find and findOne; attributes
 * always in schema order and `id` always present; private and password attributes never
 * returned, and a 400 when asked for, like relations, media, components and dynamic zones.
 */
import { expect } from 'chai';
import { bodyOf, expectValidationError } from './support/all-types.js';
import { refusedTable, type RefusedCase } from './support/case-tables.js';
import { describeEachEngine } from './support/each-engine.js';

interface Entry {
  id: number;
  attributes: Record<string, unknown>;
}

const DEFAULT_KEYS = [
  'name', 'body', 'notes', 'status', 'email', 'code', 'amount', 'big', 'ratio', 'price', 'active',
  'day', 'clock', 'moment', 'stamp', 'data', 'createdAt', 'updatedAt',
];

/** fields → the attribute keys of item 1, in order. */
const SELECTIONS: readonly (readonly [query: string, keys: readonly string[]])[] = [
  ['fields=name', ['name']],
  ['fields[0]=name', ['name']],
  ['fields[]=name&fields[]=amount', ['name', 'amount']],
  ['fields[0]=amount&fields[1]=name', ['name', 'amount']],
  ['fields=amount&fields=name', ['name', 'amount']],
  ['fields=name,amount', ['name', 'amount']],
  ['fields=amount, name ,code', ['name', 'code', 'amount']],
  ['fields[0]=data,big&fields[1]=day', ['big', 'day', 'data']],
  ['fields[0]=name&fields[1]=name', ['name']],
  ['fields=*', DEFAULT_KEYS],
  ['fields[0]=*&fields[1]=name', DEFAULT_KEYS],
  ['fields=name,*', DEFAULT_KEYS],
  ['fields', DEFAULT_KEYS],
  ['fields=id', []],
  ['fields[0]=id&fields[1]=name', ['name']],
  ['fields[0]=createdAt&fields[1]=updatedAt', ['createdAt', 'updatedAt']],
  ['fields[0]=clock&fields[1]=moment&fields[2]=stamp', ['clock', 'moment', 'stamp']],
];

/** Names fields refuses, and the parameter named. */
const REFUSED: readonly RefusedCase[] = [
  ['fields[0]=secret', 'fields[0]'],
  ['fields=pin', 'fields'],
  ['fields=name,secret', 'fields'],
  ['fields[0]=name&fields[1]=pin', 'fields[1]'],
  ['fields[0]=group', 'fields[0]'],
  ['fields[0]=tags', 'fields[0]'],
  ['fields[0]=cover', 'fields[0]'],
  ['fields[0]=detail', 'fields[0]'],
  ['fields[0]=blocks', 'fields[0]'],
  ['fields[0]=createdBy', 'fields[0]'],
  ['fields[0]=Name', 'fields[0]'],
  ['fields[0]=created_at', 'fields[0]'],
  ['fields[0]=publishedAt', 'fields[0]'],
  ['fields=', 'fields'],
];

describeEachEngine('api: fields', (app) => {
  describe('find', function () {
    for (const [query, keys] of SELECTIONS) {
      it(`${query} → {${keys.join(', ')}}`, async function () {
        const body = await bodyOf(app(), `/api/items?${query}&filters[id]=1`);
        const [entry] = body.data as Entry[];
        expect(entry.id).to.equal(1);
        expect(Object.keys(entry.attributes)).to.deep.equal(keys);
      });
    }

    it('returns the selected values of every entry', async function () {
      const body = await bodyOf(app(), '/api/items?fields=name,big&sort=big:desc&pagination[pageSize]=3');
      expect(body.data).to.deep.equal([
        { id: 10, attributes: { name: 'alphabet', big: '9223372036854775807' } },
        { id: 1, attributes: { name: 'Alpha', big: '9007199254740993' } },
        { id: 2, attributes: { name: 'beta', big: '9007199254740992' } },
      ]);
    });

    it('filters and sorts on fields it does not return', async function () {
      const body = await bodyOf(app(), '/api/items?fields=id&filters[amount][$gt]=15&sort=amount:desc');
      expect(body.data).to.deep.equal([{ id: 8, attributes: {} }, { id: 2, attributes: {} }, { id: 6, attributes: {} }]);
    });

    it('selects publishedAt and locale on draft & publish, i18n types', async function () {
      const body = await bodyOf(app(), '/api/posts?fields[0]=locale&fields[1]=publishedAt&fields[2]=title');
      expect(body.data).to.deep.equal([
        { id: 1, attributes: { title: 'Hello', publishedAt: '2024-01-02T00:00:00.000Z', locale: 'en' } },
        { id: 2, attributes: { title: 'World', publishedAt: '2024-01-03T00:00:00.000Z', locale: 'en' } },
      ]);
    });
  });

  describe('findOne', function () {
    it('fields[0]=name', async function () {
      expect(await bodyOf(app(), '/api/items/1?fields[0]=name')).to.deep.equal({ data: { id: 1, attributes: { name: 'Alpha' } }, meta: {} });
    });

    it('fields=name,price (D9)', async function () {
      expect(await bodyOf(app(), '/api/items/4?fields=name,price')).to.deep.equal({ data: { id: 4, attributes: { name: 'delta_x', price: 99.99 } }, meta: {} });
    });

    it('fields=id', async function () {
      expect(await bodyOf(app(), '/api/items/5?fields=id')).to.deep.equal({ data: { id: 5, attributes: {} }, meta: {} });
    });

    it('fields=* and no fields return every public field', async function () {
      for (const url of ['/api/items/1?fields=*', '/api/items/1']) {
        const body = await bodyOf(app(), url);
        expect(Object.keys((body.data as Entry).attributes), url).to.deep.equal(DEFAULT_KEYS);
      }
    });

    it('refuses private fields', async function () {
      await expectValidationError(app(), '/api/items/1?fields[0]=secret', 'fields[0]');
    });

    it('selects locale and publishedAt', async function () {
      expect(await bodyOf(app(), '/api/posts/4?fields[0]=publishedAt&fields[1]=locale')).to.deep.equal({
        data: { id: 4, attributes: { publishedAt: '2024-01-05T00:00:00.000Z', locale: 'fr' } },
        meta: {},
      });
    });
  });

  describe('private and password attributes', function () {
    it('are never returned by default, on find or findOne', async function () {
      for (const url of ['/api/items', '/api/items/1', '/api/items?fields=*', '/api/items?_q=alpha']) {
        const response = await app().request.get(url);
        expect(response.status, url).to.equal(200);
        expect(response.text, url).not.to.include('topsecret');
        expect(response.text, url).not.to.include('hunter2');
        expect(response.text, url).not.to.match(/"(secret|pin)"/);
      }
    });
  });

  refusedTable(app, 'refused', REFUSED);
});
