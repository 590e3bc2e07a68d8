/**
 * Malformed queries (SPEC §4, §6; D1, D13): each is a 400 with the exact error envelope
 * `{ data: null, error: { status: 400, name: 'ValidationError', message, details: { path } } }`,
 * the offending parameter named in `details.path` and in the message — never a 500. Then a few
 * hundred hostile query strings from a seeded generator: whatever they hold, the answer is a
 * well-formed JSON envelope below 500, without a stack trace.
 */
import { expect } from 'chai';
import { picker, seededRandom } from '../support/seeded-random.js';
import { entryIds, expectValidationError, type Envelope } from './support/all-types.js';
import { caseTable, type RefusedCase } from './support/case-tables.js';
import { describeEachEngine } from './support/each-engine.js';

/** The URL of a case: its query is sent to /api/items unless it starts with a slash. */
const urlOf = (query: string) => (query.startsWith('/') ? query : `/api/items?${query}`);
/** A URL as a test name: at most 100 characters, as some queries hold a thousand parameters. */
const nameOf = (url: string) => (url.length > 100 ? `${url.slice(0, 100)}…` : url);

const FIELDS: readonly RefusedCase[] = [
  ['fields=', 'fields'],
  ['fields[name]=1', 'fields'],
  ['fields[0][name]=1', 'fields[0]'],
  ['fields[0]=secret', 'fields[0]'],
  ['fields=pin', 'fields'],
  ['fields[0]=group', 'fields[0]'],
  ['fields[0]=nope', 'fields[0]'],
  ['fields=name,,code', 'fields'],
  ['fields[0]=name&fields[1]=blocks', 'fields[1]'],
];

const FILTERS: readonly RefusedCase[] = [
  ['filters=abc', 'filters'],
  ['filters[nope]=1', 'filters.nope'],
  ['filters[$fake]=1', 'filters.$fake'],
  ['filters[$eq]=1', 'filters.$eq'],
  ['filters[name][$STARTSWITH]=a', 'filters.name.$STARTSWITH'],
  ['filters[name][nope]=a', 'filters.name.nope'],
  ['filters[amount][$eq]=abc', 'filters.amount.$eq'],
  ['filters[amount][$in][0][a]=1', 'filters.amount.$in[0]'],
  ['filters[name][$eq][a]=1', 'filters.name.$eq'],
  ['filters[name][$lt]', 'filters.name.$lt'],
  ['filters[day][$gt]=notadate', 'filters.day.$gt'],
  ['filters[moment][$lt]=garbage', 'filters.moment.$lt'],
  ['filters[active]=yes', 'filters.active'],
  ['filters[amount][$null]=maybe', 'filters.amount.$null'],
  ['filters[$or]=x', 'filters.$or'],
  ['filters[$and][name]=x', 'filters.$and'],
  ['filters[$or][0]=x', 'filters.$or[0]'],
  ['filters[amount][$between]=5', 'filters.amount.$between'],
  ['filters[amount][$between][0]=1', 'filters.amount.$between'],
  ['filters[amount][$in][0]=1&filters[amount][$in][1]', 'filters.amount.$in[1]'],
  ['filters[secret]=topsecret', 'filters.secret'],
  ['filters[pin][$null]=false', 'filters.pin'],
  ['filters[blocks][text]=x', 'filters.blocks'],
  ['filters[vault][name]=x', 'filters.vault'],
  ['filters[group][$null]=true&filters[group][name]=Food', 'filters.group'],
  ['filters[createdBy][id]=1', 'filters.createdBy'],
  ['filters[cover][folderPath]=/1', 'filters.cover.folderPath'],
  ['filters[detail][hint]=x', 'filters.detail.hint'],
  ['filters[cover]=1', 'filters.cover'],
  ['filters[name][$contains]=a%00b', 'filters.name.$contains'],
];

const SORT: readonly RefusedCase[] = [
  ['sort=name:up', 'sort'],
  ['sort=:desc', 'sort'],
  ['sort=name:asc:desc', 'sort'],
  ['sort=name,', 'sort'],
  ['sort[name]=up', 'sort.name'],
  ['sort[name]=1', 'sort.name'],
  ['sort[name][0]=asc', 'sort.name'],
  ['sort=nope', 'sort'],
  ['sort=secret', 'sort'],
  ['sort=group', 'sort'],
  ['sort=group.', 'sort'],
  ['sort=blocks.title', 'sort'],
  ['sort[0]=name&sort[1][amount]=desc', 'sort[1]'],
  ['sort=vault.name', 'sort'],
  ['sort[group][name]=sideways', 'sort.group.name'],
];

const PAGINATION: readonly RefusedCase[] = [
  ['pagination[page]=abc', 'pagination.page'],
  ['pagination[page]=1.5', 'pagination.page'],
  ['pagination[pageSize]=x', 'pagination.pageSize'],
  ['pagination[pageSize]=', 'pagination.pageSize'],
  ['pagination[start]=x', 'pagination.start'],
  ['pagination[limit]=1e2', 'pagination.limit'],
  ['pagination[limit][0]=5', 'pagination.limit'],
  ['pagination[page]=1&pagination[limit]=5', 'pagination'],
  ['pagination[withCount]=maybe', 'pagination.withCount'],
  ['pagination=5', 'pagination'],
  ['pagination[foo]=1', 'pagination.foo'],
  ['page=2', 'page'],
  ['pageSize=2', 'pageSize'],
  ['start=5', 'start'],
  ['limit=5', 'limit'],
  ['limit=5&pagination[withCount]=false', 'limit'],
];

const OTHERS: readonly RefusedCase[] = [
  ['/api/posts?publicationState=draft', 'publicationState'],
  ['/api/posts?publicationState=', 'publicationState'],
  ['publicationState[a]=live', 'publicationState'],
  ['/api/posts?locale[a]=b', 'locale'],
  ['/api/posts?locale[0][a]=b', 'locale'],
  ['_q[0]=a', '_q'],
  ['/api/items/1?fields[0]=secret', 'fields[0]'],
  ['/api/items/1?page=1', 'page'],
];

/** Over qs's limits (depth 20, 100 array items, 1000 parameters): a 400, never a silent reshape. */
const TOO_DEEP_KEY = `filters${'[$and][0]'.repeat(11)}[name]`;
const LIMITS: readonly RefusedCase[] = [
  [Array.from({ length: 101 }, (_, index) => `filters[id][$in][]=${index}`).join('&'), 'filters.id.$in'],
  ['filters[id][$in][100]=1', 'filters.id.$in[100]'],
  [`${TOO_DEEP_KEY}=x`, `filters${'.$and[0]'.repeat(11)}.name`],
  [Array.from({ length: 1001 }, (_, index) => `x${index}=1`).join('&'), 'x1000'],
];

/**
 * Values at the edges of what the engines store, each answered below 500 and alike on both
 * engines: either a 200 with the rows a correct comparison finds (`ids`), or a 400 naming the
 * parameter (`path`) — whichever the entry allows — or exactly `status`.
 */
interface Edge {
  readonly url: string;
  readonly ids?: readonly number[];
  readonly path?: string;
  readonly status?: number;
}

const EDGES: readonly Edge[] = [
  // Integer columns are 32-bit on PostgreSQL: a larger integer must find nothing, not fail.
  { url: '/api/items?fields=id&filters[amount][$gt]=3000000000', ids: [], path: 'filters.amount.$gt' },
  { url: '/api/items?fields=id&filters[amount][$lt]=3000000000', ids: [1, 2, 3, 4, 6, 7, 8, 9, 10], path: 'filters.amount.$lt' },
  { url: '/api/items?fields=id&filters[amount]=-3000000000', ids: [], path: 'filters.amount' },
  { url: '/api/items?fields=id&filters[id]=3000000000', ids: [], path: 'filters.id' },
  { url: '/api/items?fields=id&filters[id][$in][0]=1&filters[id][$in][1]=3000000000', ids: [1], path: 'filters.id.$in[1]' },
  { url: '/api/items?fields=id&filters[group]=3000000000', ids: [], path: 'filters.group' },
  { url: '/api/items?fields=id&_q=3000000000', ids: [] },
  { url: '/api/items/9999999999', status: 404 },
  { url: '/api/items/9007199254740993', status: 404 },
  // Dates and datetimes outside years 1–9999, which PostgreSQL cannot store, must not reach it.
  { url: '/api/items?fields=id&filters[day]=0000-01-01', ids: [], path: 'filters.day' },
  { url: '/api/items?fields=id&filters[day][$lt]=0001-01-01T00:00:00%2B01:00', ids: [], path: 'filters.day.$lt' },
  { url: '/api/items?fields=id&filters[moment][$gt]=0000-01-01T00:00:00Z', ids: [1, 2, 3, 4, 6, 7, 8, 9, 10], path: 'filters.moment.$gt' },
  { url: '/api/items?fields=id&filters[moment][$lt]=9999-12-31T23:59:59.999-23:59', ids: [1, 2, 3, 4, 6, 7, 8, 9, 10], path: 'filters.moment.$lt' },
  { url: '/api/items?fields=id&filters[moment][$gt]=-8640000000000000', ids: [1, 2, 3, 4, 6, 7, 8, 9, 10], path: 'filters.moment.$gt' },
  { url: '/api/items?fields=id&filters[createdAt][$lt]=8640000000000000', ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], path: 'filters.createdAt.$lt' },
  { url: '/api/items?fields=id&filters[moment][$gt]=-271821-04-20', path: 'filters.moment.$gt' },
  // PostgreSQL refuses NUL in text: `_q` and `locale` must not send it (filter values are a 400).
  { url: '/api/items?fields=id&_q=a%00b', ids: [], path: '_q' },
  { url: '/api/posts?locale=%00', ids: [], path: 'locale' },
  { url: '/api/items?fields=id&pagination[page]=9007199254740991', ids: [] },
  { url: '/api/items?fields=id&pagination[start]=9007199254740991', ids: [] },
  { url: '/api/items?fields=id&filters[ratio]=1e308', ids: [] },
  { url: '/api/items?fields=id&filters[big]=-9223372036854775808', ids: [] },
];

const HOSTILE_PATHS = ['/api/items', '/api/items', '/api/posts', '/api/tags', '/api/groups', '/api/items/1', '/api/posts/3', '/api/items/2'];
const HOSTILE_KEYS = [
  'filters', 'filters', 'filters', 'sort', 'fields', 'populate', 'pagination', 'locale', 'publicationState', '_q',
  'page', 'limit', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', '[', ']', 'filters]',
  '%5B', 'a.b', '%00', '%F0%9F%92%A5', 'filters%5Bname%5D', '$where',
];
const HOSTILE_SEGMENTS = [
  '[name]', '[name]', '[amount]', '[big]', '[moment]', '[day]', '[active]', '[data]', '[id]', '[secret]', '[pin]',
  '[$eq]', '[$in]', '[$between]', '[$null]', '[$contains]', '[$eqi]', '[$or]', '[$and]', '[$not]', '[$STARTSWITH]',
  '[0]', '[1]', '[]', '[100]', '[-1]', '[1e3]', '[__proto__]', '[constructor]', '[prototype]', '[group]', '[tags]',
  '[parent]', '[detail]', '[steps]', '[blocks]', '[cover]', '[vault]', '[on]', '[populate]', '[fields]', '[sort]',
  '[count]', '[page]', '[pageSize]', '[start]', '[limit]', '[withCount]', '[', ']', '][', '[[', ']]', '[%00]',
  '[%F0%9F%98%80]', '[ ]', '[.]', '[a.b]', '[%5B]', '[*]',
];
const HOSTILE_VALUES = [
  '', 'x', '1', '-1', '0', '2.5', '3000000000', '99999999999999999999999', '1e999', 'NaN', 'Infinity', 'true', 'null',
  '%00', 'a%00b', '%', '%zz', '%E0%A4%A', '%ED%A0%80', '%F0%9F%98%80', '%C3%86on', 'a'.repeat(1500), '*', 'name:desc',
  ':desc', 'name,,', 'name.', '__proto__', 'constructor', '%7B%22a%22%3A1%7D', '%5B1%2C2%5D', '2024-02-30', '08:30',
  '25:61', 'preview', 'live', 'all', 'fr', '$eq', "'%3B%20DROP%20TABLE%20items%3B%20--", '%5C', '%27', '%22', '%25%25',
  '_', 'group.name', 'tags.name:desc', 'cover', 'blocks', '%E2%80%AE', '%EF%BB%BF',
];

const ATTRIBUTES = ['name', 'body', 'amount', 'big', 'ratio', 'price', 'active', 'day', 'clock', 'moment', 'data', 'id', 'group', 'tags', 'detail', 'cover', 'title', 'views', 'locale'];
const OPERATORS = ['$eq', '$eqi', '$ne', '$lt', '$gte', '$in', '$notIn', '$contains', '$startsWithi', '$null', '$between', '$not'];

/** A well-formed parameter around a hostile value, to get past the names into casting and SQL. */
function plausibleParameter(random: () => number, pick: <T>(list: readonly T[]) => T): string {
  const value = pick(HOSTILE_VALUES);
  switch (Math.floor(random() * 6)) {
    case 0:
      return `filters[${pick(ATTRIBUTES)}][${pick(OPERATORS)}]${random() < 0.3 ? '[0]' : ''}=${value}`;
    case 1:
      return `filters[${pick(ATTRIBUTES)}]=${value}`;
    case 2:
      return `sort=${pick(ATTRIBUTES)}${random() < 0.5 ? `:${value}` : ''}`;
    case 3:
      return `${pick(['_q', 'locale', 'publicationState'])}=${value}`;
    case 4:
      return `pagination[${pick(['page', 'pageSize', 'start', 'limit', 'withCount'])}]=${value}`;
    default:
      return `fields=${random() < 0.5 ? pick(ATTRIBUTES) : value}`;
  }
}

/** One query string of 1–6 parameters made of keys, bracket segments and values. */
function hostileQuery(random: () => number): string {
  const pick = picker(random);
  const parameters = Array.from({ length: 1 + Math.floor(random() * 6) }, () => {
    if (random() < 0.4) return plausibleParameter(random, pick);
    let key = pick(HOSTILE_KEYS);
    const depth = Math.floor(random() * 7);
    for (let index = 0; index < depth; index += 1) key += pick(HOSTILE_SEGMENTS);
    const roll = random();
    if (roll < 0.1) return key;
    if (roll < 0.15) return `${key}=${pick(HOSTILE_VALUES)}=${pick(HOSTILE_VALUES)}`;
    return `${key}=${pick(HOSTILE_VALUES)}`;
  });
  return parameters.join(random() < 0.9 ? '&' : pick(['&&', '&=&', ';', '&&&']));
}

const HOSTILE_COUNT = 400;

/** The envelope of any answer: `{ data, meta }` for a success, `{ data: null, error }` otherwise. */
function expectWellFormed(url: string, status: number, text: string, contentType: string | undefined): void {
  expect(status, `${url}: ${text.slice(0, 500)}`).to.be.below(500);
  expect(contentType, url).to.match(/^application\/json/);
  expect(text, url).not.to.match(/\n\s+at |node_modules|\.js:\d+|Error:/);
  const body = JSON.parse(text) as Envelope;
  if (status < 300) {
    expect(Object.keys(body).sort(), url).to.deep.equal(['data', 'meta']);
    return;
  }
  expect(Object.keys(body).sort(), url).to.deep.equal(['data', 'error']);
  expect(body.data, url).to.equal(null);
  expect(Object.keys(body.error!).sort(), url).to.deep.equal(['details', 'message', 'name', 'status']);
  expect(body.error!.status, url).to.equal(status);
  expect(body.error!.name, url).to.be.a('string');
  expect(body.error!.message, url).to.be.a('string');
  expect(body.error!.details, url).to.be.an('object');
}

describeEachEngine('api: malformed queries', (app) => {
  const table = (title: string, cases: readonly RefusedCase[]) =>
    caseTable(title, cases, (query, path) => `${nameOf(urlOf(query))} → 400 at ${path}`, (query, path) => expectValidationError(app(), urlOf(query), path));

  it(`has at least 45 malformed queries`, function () {
    expect(FIELDS.length + FILTERS.length + SORT.length + PAGINATION.length + OTHERS.length + LIMITS.length).to.be.at.least(45);
  });

  table('fields', FIELDS);
  table('filters', FILTERS);
  table('sort', SORT);
  table('pagination', PAGINATION);
  table('publicationState, locale, _q, findOne', OTHERS);
  // qs's limits (depth, array items, parameters) are 400s that name the parameter over the limit.
  table('query-string limits', LIMITS);

  it('100 array items are still accepted', async function () {
    const query = Array.from({ length: 100 }, (_, index) => `filters[id][$in][]=${index + 1}`).join('&');
    const response = await app().request.get(`/api/items?fields=id&${query}`);
    expect(response.status).to.equal(200);
    expect((response.body as Envelope).data).to.have.length(10);
  });

  it('20 levels of nesting are still accepted', async function () {
    const response = await app().request.get(`/api/items?fields=id&filters${'[$and][0]'.repeat(9)}[name]=beta`);
    expect(response.status).to.equal(200);
    expect((response.body as Envelope).data).to.deep.equal([{ id: 2, attributes: {} }]);
  });

  describe('values at the edges', function () {
    for (const edge of EDGES) {
      const outcomes = [
        ...(edge.ids ? [`200 [${edge.ids.join(', ')}]`] : []),
        ...(edge.path ? [`400 at ${edge.path}`] : []),
        ...(edge.status ? [String(edge.status)] : []),
      ];
      it(`${edge.url} → ${outcomes.join(' or ')}`, async function () {
        const response = await app().request.get(edge.url);
        expectWellFormed(edge.url, response.status, response.text, response.headers['content-type']);
        if (response.status === 200 && edge.ids) {
          expect(entryIds(response.body as Envelope)).to.deep.equal(edge.ids);
        } else if (response.status === 400 && edge.path) {
          await expectValidationError(app(), edge.url, edge.path);
        } else {
          expect(response.status, `${edge.url}: ${response.text.slice(0, 300)}`).to.equal(edge.status ?? (edge.ids ? 200 : 400));
        }
      });
    }
  });

  it(`answers ${HOSTILE_COUNT} hostile query strings with a well-formed envelope below 500`, async function () {
    const random = seededRandom(20_240_101);
    const failures: string[] = [];
    for (let index = 0; index < HOSTILE_COUNT; index += 1) {
      const url = `${HOSTILE_PATHS[Math.floor(random() * HOSTILE_PATHS.length)]}?${hostileQuery(random)}`;
      const response = await app().request.get(url);
      try {
        expectWellFormed(url, response.status, response.text, response.headers['content-type']);
      } catch (error) {
        failures.push(`#${index} ${(error as Error).message.slice(0, 400)}`);
      }
    }
    expect(failures, `${failures.length} of ${HOSTILE_COUNT} failed:\n${failures.slice(0, 10).join('\n')}`).to.deep.equal([]);
  });
});
