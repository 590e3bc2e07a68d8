/**
 * Write bodies a stranger can send, generated from a seed: attribute names of the schema and
 * others, every kind of JSON value at every depth (huge numbers, NUL characters, `__proto__`
 * keys, deep nesting, relation operations with junk positions, zone items of any component).
 * Every answer is a 2xx or a 4xx in the error envelope, never a 5xx, and Object.prototype stays
 * clean.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { picker, seededRandom } from '../support/seeded-random.js';
import { writeApi, type WriteApi } from './support/write-api.js';

const ARTICLE_KEYS = ['title', 'slug', 'kind', 'views', 'viewsTotal', 'rating', 'price', 'featured', 'metadata', 'publishDate', 'publishTime', 'scheduledAt', 'publishedAt', 'locale', 'category', 'categories', 'featuredIn', 'author', 'relatedRestaurants', 'headerImage', 'gallery', 'seo', 'links', 'related', 'blocks', 'localizations', 'accessCode', 'id', 'createdAt', '__proto__', 'constructor', 'nope'];
const NESTED_KEYS = ['id', '__component', 'label', 'url', 'metaTitle', 'metaSocial', 'body', 'title', 'category', 'file', 'files', 'connect', 'disconnect', 'set', 'position', 'before', 'after', 'start', 'end', '__proto__'];
const STRINGS = ['', 'x', 'shared.quote', 'shared.rich-text', 'shared.nothing', '2024-02-30', '2024-06-01T14:00:00+02:00', '25:99', '12', '-0', '1e999', '9223372036854775808', 'a\u0000b', 'é'.repeat(300), '<script>', "'; DROP TABLE articles; --", 'fr', 'de'];
const NUMBERS = [0, -1, 1, 2, 3, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 999999];

function value(random: () => number, depth: number): unknown {
  const pick = picker(random);
  const kind = Math.floor(random() * (depth > 3 ? 5 : 8));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick(NUMBERS);
    case 3:
    case 4:
      return pick(STRINGS);
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => value(random, depth + 1));
    default:
      return object(random, NESTED_KEYS, depth + 1);
  }
}

function object(random: () => number, keys: readonly string[], depth: number): Record<string, unknown> {
  const pick = picker(random);
  const entries: [string, unknown][] = Array.from({ length: 1 + Math.floor(random() * 4) }, () => [pick(keys), value(random, depth)]);
  // Object.fromEntries keeps `__proto__` as an own key, as JSON.parse does for a body arriving over HTTP.
  return Object.fromEntries(entries);
}

for (const kind of testDatabaseKinds()) {
  describe(`hostile write bodies (${kind.name})`, function () {
    this.timeout(120_000);
    let api: WriteApi;
    before(async () => {
      api = await writeApi(kind.client);
    });
    after(async () => api?.close());

    it('answers 600 generated bodies with a 2xx or a 4xx envelope, never a 5xx', async () => {
      const random = seededRandom(kind.client === 'sqlite' ? 11 : 12);
      const routes = [
        (body: unknown) => api.as('editor').post('/api/articles', body),
        (body: unknown) => api.as('editor').put('/api/articles/2', body),
        (body: unknown) => api.as('editor').post('/api/categories', body),
        (body: unknown) => api.as('editor').post('/api/articles/3/localizations', body),
      ];
      const failures: string[] = [];
      for (let index = 0; index < 600; index++) {
        const data = object(random, ARTICLE_KEYS, 0);
        const body = random() < 0.9 ? { data } : data;
        const response = await routes[index % routes.length]!(body);
        const ok = response.status < 300 || (response.status < 500 && response.body?.data === null && typeof response.body?.error?.name === 'string');
        if (!ok) failures.push(`${response.status} ${JSON.stringify(body).slice(0, 300)} → ${response.text.slice(0, 200)}`);
      }
      expect(failures, failures.slice(0, 5).join('\n')).to.deep.equal([]);
      expect(Object.keys(Object.prototype)).to.deep.equal([]);
    });
  });
}
