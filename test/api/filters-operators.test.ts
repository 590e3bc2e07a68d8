/**
 * filters on scalar fields over HTTP (SPEC §4 filters; D14, D15): every comparison operator on
 * every value type it applies to, implicit $eq/$in, lists on non-list operators, the logical
 * operators, NULL semantics, and casting errors — with the exact ids each query returns, the
 * same on SQLite and PostgreSQL. The data set is described in support/all-types-data.ts.
 */
import { expect } from 'chai';
import { idsOf } from './support/all-types.js';
import { idsTable, refusedTable, type IdsCase, type RefusedCase } from './support/case-tables.js';
import { describeEachEngine } from './support/each-engine.js';

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** Every item but those listed. */
const except = (...ids: number[]) => ALL.filter((id) => !ids.includes(id));

const MOMENT_1 = Date.parse('2024-01-15T08:30:00.123Z');

/** Cases per value type (attribute of `items`), each `query → ids in id order`. */
const CASES: Record<string, readonly IdsCase[]> = {
  'string (name)': [
    ['filters[name]=beta', [2]],
    ['filters[name][$eq]=beta', [2]],
    ['filters[name][$eq]=Beta', []],
    ['filters[name][$eqi]=EPSILON', [5, 6]],
    ['filters[name][$ne]=beta', except(2)],
    ['filters[name][$nei]=EPSILON', except(5, 6)],
    // Code-point order on both engines: upper case sorts before lower case, Æ after z.
    ['filters[name][$lt]=a', [1, 3, 5, 7, 9]],
    ['filters[name][$lte]=Delta-X', [1, 7]],
    ['filters[name][$gt]=epsilon', [8]],
    ['filters[name][$gte]=epsilon', [6, 8]],
    ['filters[name][$between][0]=B&filters[name][$between][1]=Z', [3, 5, 7]],
    ['filters[name][$in][0]=beta&filters[name][$in][1]=Zeta', [2, 9]],
    ['filters[name][$in]=beta', [2]],
    ['filters[name][$notIn][0]=beta&filters[name][$notIn][1]=Zeta', except(2, 9)],
    ['filters[name][$notIn]=beta', except(2)],
    ['filters[name][$contains]=lpha', [1, 10]],
    ['filters[name][$containsi]=ALPHA', [1, 10]],
    ['filters[name][$notContainsi]=ALPHA', except(1, 10)],
    ['filters[name][$startsWithi]=e', [5, 6]],
    ['filters[name][$endsWith]=a', [1, 2, 9]],
    ['filters[name][$endsWithi]=x', [4, 7]],
    ['filters[name][$null]=true', []],
    ['filters[name][$notNull]=true', ALL],
  ],
  'text (body)': [
    ['filters[body]=dash', [7]],
    ['filters[body][$contains]=item', [1, 2]],
    ['filters[body][$containsi]=under', [4]],
    ['filters[body][$startsWith]=let', [10]],
    ['filters[body][$endsWith]=ter', [9]],
    ['filters[body][$notContains]=e', [7]],
    ['filters[body][$ne]=dash', except(5, 7)],
    ['filters[body][$null]=true', [5]],
    ['filters[body][$notNull]=true', except(5)],
  ],
  'richtext (notes)': [
    ['filters[notes][$containsi]=RICH', [1]],
    ['filters[notes][$eq]=Plain', [3]],
    ['filters[notes][$null]=false', [1, 3]],
  ],
  'enumeration (status)': [
    ['filters[status]=alpha', [1, 4, 9]],
    ['filters[status][$eqi]=GAMMA', [3, 7, 10]],
    ['filters[status][$ne]=alpha', [2, 3, 6, 7, 8, 10]],
    ['filters[status][$lt]=beta', [1, 4, 9]],
    ['filters[status][$in][0]=beta&filters[status][$in][1]=gamma', [2, 3, 6, 7, 8, 10]],
    ['filters[status][$notIn][0]=beta', [1, 3, 4, 7, 9, 10]],
    ['filters[status][$startsWith]=g', [3, 7, 10]],
    // Not one of the enum values: nothing matches (no error, as in Strapi).
    ['filters[status]=delta', []],
    ['filters[status][$null]=true', [5]],
  ],
  'email (email)': [
    ['filters[email]=alpha@example.com', [1]],
    ['filters[email][$eqi]=beta@example.com', [2]],
    ['filters[email][$endsWith]=.com', [1, 4, 6, 7, 8, 9, 10]],
    ['filters[email][$endsWithi]=.com', [1, 2, 4, 6, 7, 8, 9, 10]],
    ['filters[email][$startsWith]=delta', [4]],
    ['filters[email][$startsWithi]=delta', [4, 7]],
    ['filters[email][$contains]=example.org', [3]],
    ['filters[email][$notContainsi]=EXAMPLE.COM', [3]],
  ],
  'uid (code)': [
    ['filters[code]=delta-x', [4]],
    ['filters[code][$startsWith]=delta-x', [4, 7]],
    ['filters[code][$in][0]=alpha&filters[code][$in][1]=zeta', [1, 9]],
    ['filters[code][$gt]=epsilon', [3, 6, 9]],
    ['filters[code][$containsi]=100', [3]],
    ['filters[code][$nei]=ALPHA', except(1)],
  ],
  'integer (amount)': [
    ['filters[amount]=20', [2, 6]],
    ['filters[amount][$eq]=-5', [3]],
    ['filters[amount][$ne]=20', [1, 3, 4, 7, 8, 9, 10]],
    ['filters[amount][$lt]=7', [3, 4, 9]],
    ['filters[amount][$lte]=7', [3, 4, 7, 9]],
    ['filters[amount][$gt]=15', [2, 6, 8]],
    ['filters[amount][$gte]=15', [2, 6, 8, 10]],
    ['filters[amount][$between][0]=3&filters[amount][$between][1]=10', [1, 7, 9]],
    ['filters[amount][$in][0]=0&filters[amount][$in][1]=100', [4, 8]],
    ['filters[amount][$notIn][0]=20&filters[amount][$notIn][1]=0', [1, 3, 7, 8, 9, 10]],
    ['filters[amount][$null]=true', [5]],
    ['filters[amount][$null]=false', except(5)],
    ['filters[amount][$notNull]=true', except(5)],
    ['filters[amount][$notNull]=false', [5]],
    // LIKE-style operators compare the number's text.
    ['filters[amount][$containsi]=0', [1, 2, 4, 6, 8]],
    ['filters[amount][$startsWith]=-', [3]],
  ],
  'biginteger (big), exact beyond 2^53': [
    ['filters[big]=9007199254740993', [1]],
    ['filters[big][$eq]=9007199254740992', [2]],
    ['filters[big][$ne]=9007199254740993', [2, 3, 4, 6, 7, 8, 9, 10]],
    ['filters[big][$gt]=9007199254740992', [1, 10]],
    ['filters[big][$gte]=9007199254740993', [1, 10]],
    ['filters[big][$lt]=0', [3]],
    ['filters[big][$lte]=-9007199254740993', [3]],
    ['filters[big][$in][0]=9007199254740993&filters[big][$in][1]=-9007199254740993', [1, 3]],
    ['filters[big][$notIn][0]=9007199254740992', [1, 3, 4, 6, 7, 8, 9, 10]],
    ['filters[big][$between][0]=9007199254740993&filters[big][$between][1]=9223372036854775807', [1, 10]],
    ['filters[big]=9223372036854775807', [10]],
    ['filters[big][$contains]=9007199254740993', [1, 3]],
    ['filters[big][$null]=true', [5]],
  ],
  'float (ratio)': [
    ['filters[ratio]=1.5', [1, 6]],
    ['filters[ratio][$eq]=0.1', [9]],
    ['filters[ratio][$ne]=1.5', [2, 3, 4, 7, 8, 9, 10]],
    ['filters[ratio][$lt]=0', [3]],
    ['filters[ratio][$gte]=2.25', [2, 7, 8, 10]],
    ['filters[ratio][$gt]=1e2', [8]],
    ['filters[ratio][$between][0]=0&filters[ratio][$between][1]=1.5', [1, 4, 6, 9]],
    ['filters[ratio][$in][0]=7&filters[ratio][$in][1]=-0.5', [3, 10]],
    ['filters[ratio][$null]=true', [5]],
  ],
  'decimal (price)': [
    ['filters[price]=10.25', [1, 6]],
    ['filters[price][$eq]=99.99', [4]],
    ['filters[price][$eq]=1.1', [7]],
    ['filters[price][$eq]=0.1', [9]],
    ['filters[price][$lt]=1.1', [3, 9]],
    ['filters[price][$lte]=1.1', [3, 7, 9]],
    ['filters[price][$gt]=99.99', [8]],
    ['filters[price][$between][0]=5.5&filters[price][$between][1]=10.25', [1, 2, 6, 10]],
    ['filters[price][$notIn][0]=0', [1, 2, 4, 6, 7, 8, 9, 10]],
    ['filters[price][$notNull]=true', except(5)],
  ],
  'boolean (active)': [
    ['filters[active]=true', [1, 3, 6, 8, 10]],
    ['filters[active]=t', [1, 3, 6, 8, 10]],
    ['filters[active]=1', [1, 3, 6, 8, 10]],
    ['filters[active]=TRUE', [1, 3, 6, 8, 10]],
    ['filters[active]=false', [2, 4, 7, 9]],
    ['filters[active][$eq]=f', [2, 4, 7, 9]],
    ['filters[active][$eq]=0', [2, 4, 7, 9]],
    ['filters[active][$ne]=true', [2, 4, 7, 9]],
    ['filters[active][$in][0]=true&filters[active][$in][1]=false', except(5)],
    ['filters[active][$notIn][0]=true', [2, 4, 7, 9]],
    ['filters[active][$null]=true', [5]],
  ],
  'date (day)': [
    ['filters[day]=2024-01-15', [1, 6]],
    ['filters[day][$ne]=2024-01-15', [2, 3, 4, 7, 8, 9, 10]],
    ['filters[day][$gt]=2024-02-29', [4, 7, 9]],
    ['filters[day][$gte]=2024-02-29', [2, 4, 7, 9]],
    ['filters[day][$lt]=2024-01-01', [3, 8]],
    ['filters[day][$lte]=2024-01-15', [1, 3, 6, 8]],
    ['filters[day][$between][0]=2024-01-01&filters[day][$between][1]=2024-02-29', [1, 2, 6, 10]],
    ['filters[day][$in][0]=1999-12-31&filters[day][$in][1]=2025-01-01', [8, 9]],
    ['filters[day][$startsWith]=2024-01', [1, 6, 10]],
    ['filters[day][$null]=true', [5]],
  ],
  'time (clock)': [
    ['filters[clock]=08:30:00.000', [1, 6]],
    ['filters[clock]=08:30', [1, 6]],
    ['filters[clock][$gt]=08:30:00', [2, 3, 7, 9, 10]],
    ['filters[clock][$lt]=08:30', [4, 8]],
    ['filters[clock][$gte]=23:59:59.999', [3]],
    ['filters[clock][$between][0]=08:30:00.001&filters[clock][$between][1]=12:00', [2, 9, 10]],
    ['filters[clock][$in][0]=00:00&filters[clock][$in][1]=18:45:30.250', [4, 7]],
    ['filters[clock][$null]=true', [5]],
  ],
  'datetime (moment)': [
    ['filters[moment]=2024-01-15T08:30:00.123Z', [1, 6]],
    [`filters[moment][$eq]=${MOMENT_1}`, [1, 6]],
    ['filters[moment][$ne]=2024-01-15T08:30:00.123Z', [2, 3, 4, 7, 8, 9, 10]],
    ['filters[moment][$gt]=2024-01-15T08:30:00.123Z', [2, 4, 7, 9, 10]],
    ['filters[moment][$lt]=2024-01-01', [3, 8]],
    ['filters[moment][$lte]=2023-12-31T23:59:59.999Z', [3, 8]],
    ['filters[moment][$gte]=2024-01-01T00:00:00%2B01:00', [1, 2, 3, 4, 6, 7, 9, 10]],
    ['filters[moment][$between][0]=2024-01-15T08:30:00.124Z&filters[moment][$between][1]=2024-03-01T00:00:00.000Z', [2, 4, 10]],
    ['filters[moment][$in][0]=2025-01-01T00:00:00Z&filters[moment][$in][1]=1999-12-31T23:00:00.000Z', [8, 9]],
    ['filters[moment][$null]=true', [5]],
  ],
  'timestamp (stamp) and the implicit timestamps': [
    ['filters[stamp][$notNull]=true', [1, 2]],
    ['filters[stamp][$gt]=2024-02-29T12:00:00.499Z', [2]],
    ['filters[createdAt][$lte]=2024-01-01T03:00:00.000Z', [1, 2, 3]],
    ['filters[updatedAt][$gt]=2024-01-01T08:00:00Z', [9, 10]],
  ],
  'json (data)': [
    ['filters[data][$null]=true', [5]],
    ['filters[data][$notNull]=true', except(5)],
    ['filters[data][$eq]=42', [4]],
  ],
  id: [
    ['filters[id]=3', [3]],
    ['filters[id][$ne]=3', except(3)],
    ['filters[id][$in][0]=1&filters[id][$in][1]=10', [1, 10]],
    ['filters[id][$notIn][0]=1', except(1)],
    ['filters[id][$gt]=8', [9, 10]],
    ['filters[id][$lte]=2', [1, 2]],
    ['filters[id][$between][0]=2&filters[id][$between][1]=4', [2, 3, 4]],
    ['filters[id][$null]=true', []],
    ['filters[id]=999', []],
  ],
};

/** Case-sensitive LIKE-style operators, identical on SQLite (whose LIKE ignores case) and PostgreSQL (D14). */
const CASE_SENSITIVE: readonly IdsCase[] = [
  ['filters[name][$contains]=alpha', [10]],
  ['filters[name][$notContains]=alpha', except(10)],
  ['filters[name][$startsWith]=E', [5]],
  ['filters[name][$startsWith]=e', [6]],
  ['filters[name][$endsWith]=X', [7]],
  ['filters[body][$contains]=under', []],
  ['filters[body][$contains]=UNDER', [4]],
  ['filters[email][$endsWith]=.COM', [2]],
];

/** `%` and `_` are literal text in every LIKE-style operator (D15); as wildcards they would match more. */
const LITERAL_WILDCARDS: readonly IdsCase[] = [
  ['filters[name][$contains]=%25', [3]],
  ['filters[name][$contains]=_', [4]],
  ['filters[name][$containsi]=A_X', [4]],
  ['filters[name][$notContains]=%25', except(3)],
  ['filters[name][$notContainsi]=_', except(4)],
  ['filters[name][$eqi]=DELTA_X', [4]],
  ['filters[name][$eqi]=%25', []],
  ['filters[name][$nei]=delta_x', except(4)],
  ['filters[name][$startsWith]=delta_', [4]],
  ['filters[name][$startsWithi]=DELTA_', [4]],
  ['filters[name][$endsWith]=%25', [3]],
  ['filters[name][$endsWithi]=_X', [4]],
  ['filters[body][$containsi]=%25', [1]],
  ['filters[name][$contains]=%5C', []],
];

/** A key without `=` is null: IS NULL for $eq, IS NOT NULL for $ne, and "false" for $null. */
const NULL_VALUES: readonly IdsCase[] = [
  ['filters[amount]', [5]],
  ['filters[amount][$eq]', [5]],
  ['filters[amount][$ne]', except(5)],
  ['filters[amount][$null]', except(5)],
  ['filters[amount][$null]=', except(5)],
  ['filters[body]', [5]],
  ['filters[amount][$ne]=20&filters[amount][$ne]=0', except(5)],
];

/** Several values: implicit $in, and "any of" on operators that take one value. */
const LISTS: readonly IdsCase[] = [
  ['filters[amount][0]=20&filters[amount][1]=-5', [2, 3, 6]],
  ['filters[name]=beta&filters[name]=Zeta', [2, 9]],
  ['filters[amount][$eq][0]=20&filters[amount][$eq][1]=7', [2, 6, 7]],
  ['filters[name][$contains][0]=lpha&filters[name][$contains][1]=eta', [1, 2, 9, 10]],
  ['filters[name][$startsWith][0]=Z&filters[name][$startsWith][1]=b', [2, 9]],
  ['filters[day][$lt][0]=2000-01-01&filters[day][$gt][0]=2024-12-31', []],
  // "≠ 20 or ≠ 7" holds for every value; NULL still never matches $ne.
  ['filters[amount][$ne][0]=20&filters[amount][$ne][1]=7', except(5)],
];

const LOGICAL: readonly IdsCase[] = [
  ['filters[status]=alpha&filters[active]=false', [4, 9]],
  ['filters[0][status]=alpha&filters[1][active]=true', [1]],
  ['filters[$or][0][name]=beta&filters[$or][1][amount]=100', [2, 8]],
  ['filters[$and][0][status]=alpha&filters[$and][1][amount][$gt]=5', [1]],
  ['filters[$not][status]=alpha', [2, 3, 6, 7, 8, 10]],
  ['filters[name][$not][$eq]=beta', except(2)],
  ['filters[$not][$or][0][status]=alpha&filters[$not][$or][1][status]=beta', [3, 7, 10]],
  ['filters[$or][0][$and][0][status]=beta&filters[$or][0][$and][1][active]=true&filters[$or][1][name][$startsWith]=Z', [6, 8, 9]],
  ['filters[amount][$or][0][$lt]=0&filters[amount][$or][1][$gt]=50', [3, 8]],
  ['filters[amount][$and][0][$gt]=0&filters[amount][$and][1][$lt]=10', [7, 9]],
  ['filters[$and][0][$or][0][amount]=20&filters[$and][0][$or][1][amount]=10&filters[$and][1][active]=true', [1, 6]],
  ['filters[$not][$not][name]=beta', [2]],
];

/** A value that cannot be cast to the field's type is a 400 naming its parameter. */
const BAD_VALUES: readonly RefusedCase[] = [
  ['filters[amount][$eq]=abc', 'filters.amount.$eq'],
  ['filters[amount]=1.5', 'filters.amount'],
  ['filters[amount][$in][1]=x&filters[amount][$in][0]=1', 'filters.amount.$in[1]'],
  ['filters[amount][$gt]=9007199254740993', 'filters.amount.$gt'],
  ['filters[id][$lt]=abc', 'filters.id.$lt'],
  ['filters[big]=12.5', 'filters.big'],
  ['filters[big]=9223372036854775808', 'filters.big'],
  ['filters[ratio][$gt]=abc', 'filters.ratio.$gt'],
  ['filters[price][$between][0]=1&filters[price][$between][1]=lots', 'filters.price.$between[1]'],
  ['filters[active]=yes', 'filters.active'],
  ['filters[active][$ne]=maybe', 'filters.active.$ne'],
  ['filters[day][$gt]=notadate', 'filters.day.$gt'],
  ['filters[day]=2024-02-30', 'filters.day'],
  ['filters[day]=2023-02-29', 'filters.day'],
  ['filters[clock]=25:00', 'filters.clock'],
  ['filters[clock][$lt]=noon', 'filters.clock.$lt'],
  ['filters[moment][$lt]=garbage', 'filters.moment.$lt'],
  ['filters[moment]=2024-13-01T00:00:00Z', 'filters.moment'],
  ['filters[stamp][$gte]=yesterday', 'filters.stamp.$gte'],
  ['filters[createdAt][$gt]=notadate', 'filters.createdAt.$gt'],
];

describeEachEngine('api: filter operators on every type', (app) => {
  for (const [type, cases] of Object.entries(CASES)) idsTable(app, type, cases);
  idsTable(app, '$contains, $startsWith, $endsWith are case-sensitive (D14)', CASE_SENSITIVE);
  idsTable(app, '% and _ are literal (D15)', LITERAL_WILDCARDS);
  idsTable(app, 'missing values and NULL', NULL_VALUES);
  idsTable(app, 'several values', LISTS);
  idsTable(app, '$and, $or, $not', LOGICAL);
  refusedTable(app, 'values that do not fit the type are a 400', BAD_VALUES);

  describe('engines agree on non-ASCII text and on non-text columns', function () {
    // SQLite's own LOWER() folds ASCII only; the …i operators must fold every letter on both
    // engines, as PostgreSQL does, and find "Æon" from "æon".
    it('filters[name][$eqi]=æon → [8] (case-insensitive beyond ASCII)', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&filters[name][$eqi]=%C3%A6on')).to.deep.equal([8]);
    });

    it('filters[body][$containsi]=ÜNÏ → [8]', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&filters[body][$containsi]=%C3%9CN%C3%8F')).to.deep.equal([8]);
    });

    // Text operators on non-string columns compare the text the API returns for the value, not
    // each engine's stored form (epoch milliseconds and 1/0 on SQLite; `2024-01-15 08:30:00.123`,
    // 5.50, `08:30:00` and jsonb spacing on PostgreSQL), so both engines find the same rows.
    it('filters[moment][$startsWith]=2024-01-15T08:30 (datetime as returned) → [1, 6, 10]', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&filters[moment][$startsWith]=2024-01-15T08:30')).to.deep.equal([1, 6, 10]);
    });

    it('filters[clock][$endsWith]=.000 (time as returned) → [1, 2, 4, 6, 8, 9]', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&filters[clock][$endsWith]=.000')).to.deep.equal([1, 2, 4, 6, 8, 9]);
    });

    it('filters[active][$eqi]=TRUE (boolean as returned) → [1, 3, 6, 8, 10]', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&filters[active][$eqi]=TRUE')).to.deep.equal([1, 3, 6, 8, 10]);
    });

    it('filters[ratio][$eqi]=7 (float as returned) → [10]', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&filters[ratio][$eqi]=7')).to.deep.equal([10]);
    });

    it('filters[price][$endsWith]=.5 (decimal as returned) → [2]', async function () {
      expect(await idsOf(app(), '/api/items?fields=id&filters[price][$endsWith]=.5')).to.deep.equal([2]);
    });

    it('filters[data][$eq]={"a":2} (json compared as JSON) → [6]', async function () {
      expect(await idsOf(app(), `/api/items?fields=id&filters[data][$eq]=${encodeURIComponent('{"a":2}')}`)).to.deep.equal([6]);
    });
  });
});
