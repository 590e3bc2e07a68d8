import { expect } from 'chai';
import { castValue } from '../../plugin/query/cast-value.js';
import type { ComparisonOperator, Filter, FilterValue } from '../../plugin/query/tree.js';
import { NO_CONSTRAINTS, type ScalarAttribute, type StoredScalarType } from '../../plugin/schema/registry.js';
import { article, filterOf } from '../support/article-registry.js';
import { expectValidationError } from '../support/query-string.js';

/** A scalar field of any type, for casting tests that need a type no fixture attribute has. */
function fieldOf(type: StoredScalarType, name = `a${type}`): ScalarAttribute {
  return { kind: 'scalar', name, type, column: name, hidden: false, searchable: false, required: false, unique: false, enum: null, default: null, constraints: NO_CONSTRAINTS, localized: true, implicit: false };
}

const TYPED_OPERATORS: readonly ComparisonOperator[] = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte'];
const TEXT_OPERATORS: readonly ComparisonOperator[] = [
  '$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
];

/** One article attribute of each type, a value as written in the URL and its cast. */
const SAMPLES: readonly [attribute: string, text: string, cast: FilterValue][] = [
  ['title', 'Hello World', 'Hello World'],
  ['slug', 'hello-world', 'hello-world'],
  ['description', 'plain text', 'plain text'],
  ['content', '# Title', '# Title'],
  ['kind', 'review', 'review'],
  ['contactEmail', 'a@example.com', 'a@example.com'],
  ['metadata', '{"a":1}', '{"a":1}'],
  ['views', '42', 42],
  ['readingMinutes', '-7', -7],
  ['viewsTotal', '9007199254740993', '9007199254740993'],
  ['rating', '4.5', 4.5],
  ['price', '100', 100],
  ['featured', 'T', true],
  ['publishDate', '2024-03-01', '2024-03-01'],
  ['publishTime', '20:00', '20:00:00.000'],
  ['scheduledAt', '2024-10-01T00:00:00.000Z', Date.UTC(2024, 9, 1)],
  ['createdAt', '2024-03-27', Date.UTC(2024, 2, 27)],
  ['locale', 'fr', 'fr'],
];

describe('parseFilters: operators and value casting', () => {
  function expectCompare(query: string, name: string, operator: ComparisonOperator, values: readonly FilterValue[]): void {
    const filter = filterOf(query);
    expect(filter, query).to.deep.include({ kind: 'compare', operator, values });
    expect((filter as Filter & { kind: 'compare' }).field, query).to.equal(article.attributes.get(name));
  }

  for (const [name, text, cast] of SAMPLES) {
    it(`every operator on ${name} (${text} → ${JSON.stringify(cast)})`, () => {
      const encoded = encodeURIComponent(text);
      expectCompare(`filters[${name}]=${encoded}`, name, '$eq', [cast]);
      for (const operator of TYPED_OPERATORS) expectCompare(`filters[${name}][${operator}]=${encoded}`, name, operator, [cast]);
      for (const operator of TEXT_OPERATORS) expectCompare(`filters[${name}][${operator}]=${encoded}`, name, operator, [text]);
      for (const operator of ['$in', '$notIn', '$between'] as const) {
        expectCompare(`filters[${name}][${operator}][0]=${encoded}&filters[${name}][${operator}][1]=${encoded}`, name, operator, [cast, cast]);
      }
      expectCompare(`filters[${name}][$in]=${encoded}`, name, '$in', [cast]);
      expectCompare(`filters[${name}][$notIn]=${encoded}`, name, '$notIn', [cast]);
      expectCompare(`filters[${name}][0]=${encoded}&filters[${name}][1]=${encoded}`, name, '$in', [cast, cast]);
      expectCompare(`filters[${name}][$null]=true`, name, '$null', [true]);
      expectCompare(`filters[${name}][$notNull]=false`, name, '$notNull', [false]);
    });
  }

  it('keeps LIKE values literal and uncast whatever the field type (D15)', () => {
    expectCompare('filters[title][$contains]=%25', 'title', '$contains', ['%']);
    expectCompare('filters[title][$startsWith]=a_b', 'title', '$startsWith', ['a_b']);
    expectCompare('filters[views][$containsi]=4_', 'views', '$containsi', ['4_']);
    expectCompare('filters[publishDate][$startsWith]=2024-0', 'publishDate', '$startsWith', ['2024-0']);
    expectCompare('filters[featured][$eqi]=yes', 'featured', '$eqi', ['yes']);
  });

  it('reads the $null/$notNull flag as Strapi, but rejects words that are not booleans', () => {
    const flag = (query: string) => (filterOf(query) as Filter & { kind: 'compare' }).values[0];
    for (const word of ['true', 't', '1', 'TRUE', 'T']) expect(flag(`filters[views][$null]=${word}`)).to.equal(true);
    for (const word of ['false', 'f', '0', 'False', '']) expect(flag(`filters[views][$null]=${word}`)).to.equal(false);
    expect(flag('filters[views][$null]')).to.equal(false);
    expect(flag('filters[views][$notNull]')).to.equal(false);
    expectValidationError(() => filterOf('filters[views][$notNull]=abc'), 'filters.views.$notNull', /true or false/);
  });

  it('compares with an empty string and with null', () => {
    expectCompare('filters[title]=', 'title', '$eq', ['']);
    expectCompare('filters[title][$ne]=', 'title', '$ne', ['']);
    expectCompare('filters[title]', 'title', '$eq', [null]);
    expectCompare('filters[views][$ne]', 'views', '$ne', [null]);
  });

  it('keeps a biginteger exact (D8) and canonical', () => {
    expectCompare('filters[viewsTotal][$eq]=9007199254740993', 'viewsTotal', '$eq', ['9007199254740993']);
    expectCompare('filters[viewsTotal][$gt]=-0009', 'viewsTotal', '$gt', ['-9']);
  });

  describe('castValue by type', () => {
    const accepted: [type: StoredScalarType, input: unknown, cast: FilterValue][] = [
      ['integer', '007', 7],
      ['integer', '-0', 0],
      ['integer', '9007199254740991', 9007199254740991],
      ['integer', 12, 12],
      ['biginteger', '-9223372036854775808', '-9223372036854775808'],
      ['biginteger', '9223372036854775807', '9223372036854775807'],
      ['biginteger', '000', '0'],
      ['float', '-.5', -0.5],
      ['float', '1e3', 1000],
      ['float', '1.', 1],
      ['float', '-0', 0],
      ['decimal', '10.25', 10.25],
      ['decimal', 2.5, 2.5],
      ['boolean', 'TRUE', true],
      ['boolean', 'f', false],
      ['boolean', '1', true],
      ['boolean', false, false],
      ['date', '2024-02-29', '2024-02-29'],
      ['date', '2000-02-29', '2000-02-29'],
      ['date', '0001-01-01', '0001-01-01'],
      ['date', '2024-03-01T10:00:00Z', '2024-03-01'],
      ['date', '2024-03-01T10:00', '2024-03-01'],
      ['date', '2024-03-01T23:30:00-02:00', '2024-03-02'],
      ['date', '2024-03-01T00:30:00+01:00', '2024-02-29'],
      ['time', '20:00', '20:00:00.000'],
      ['time', '00:00:05', '00:00:05.000'],
      ['time', '23:59:59.1', '23:59:59.100'],
      ['time', '12:34:56.789', '12:34:56.789'],
      ['datetime', '2024-01-01', Date.UTC(2024, 0, 1)],
      ['datetime', '2024-01-01T08:00:00Z', Date.UTC(2024, 0, 1, 8)],
      ['datetime', '2024-01-01T08:00:00.123456Z', Date.UTC(2024, 0, 1, 8, 0, 0, 123)],
      ['datetime', '2024-01-01T08:00:00,5Z', Date.UTC(2024, 0, 1, 8, 0, 0, 500)],
      ['datetime', '2024-01-01T10:00:00+02:00', Date.UTC(2024, 0, 1, 8)],
      ['datetime', '2024-01-01T10:00:00+0200', Date.UTC(2024, 0, 1, 8)],
      ['datetime', '2024-01-01T10:00+02', Date.UTC(2024, 0, 1, 8)],
      ['datetime', '2024-01-01T03:30:00-04:30', Date.UTC(2024, 0, 1, 8)],
      ['datetime', '2024-01-01T08:00:00', Date.UTC(2024, 0, 1, 8)],
      ['datetime', '2024-01-01 08:00:00z', Date.UTC(2024, 0, 1, 8)],
      ['datetime', '0050-06-01T00:00:00Z', Date.parse('0050-06-01T00:00:00Z')],
      ['datetime', '1704096000000', 1704096000000],
      ['datetime', '-1000', -1000],
      ['datetime', '2024', 2024],
      ['timestamp', '2024-01-01T08:00:00.000Z', Date.UTC(2024, 0, 1, 8)],
      ['timestamp', 1704096000000, 1704096000000],
      ['string', '', ''],
      ['text', 'x'.repeat(100_000), 'x'.repeat(100_000)],
      ['email', 'A@B.C', 'A@B.C'],
      ['uid', 'my-slug', 'my-slug'],
      ['enumeration', 'not-in-the-enum', 'not-in-the-enum'],
      ['richtext', '**b**', '**b**'],
      ['json', '[1,2]', '[1,2]'],
      ['string', 42, '42'],
    ];
    for (const [type, input, cast] of accepted) {
      it(`${type} ${JSON.stringify(input).slice(0, 40)} → ${JSON.stringify(cast).slice(0, 40)}`, () => {
        expect(castValue(fieldOf(type), input, 'p')).to.equal(cast);
      });
    }

    const rejected: [type: StoredScalarType, input: unknown, message: RegExp][] = [
      ['integer', '', /expected an integer/],
      ['integer', '1.5', /expected an integer/],
      ['integer', '1e3', /expected an integer/],
      ['integer', ' 1', /expected an integer/],
      ['integer', '+1', /expected an integer/],
      ['integer', '0x10', /expected an integer/],
      ['integer', '9007199254740992', /expected an integer/],
      ['integer', 'abc', /expected an integer/],
      ['integer', 1.5, /expected an integer/],
      ['integer', true, /expected an integer/],
      ['biginteger', '9223372036854775808', /64-bit integer/],
      ['biginteger', '-9223372036854775809', /64-bit integer/],
      ['biginteger', '1'.repeat(100_000), /64-bit integer/],
      ['biginteger', '1.0', /64-bit integer/],
      ['float', '1e400', /finite number/],
      ['float', 'NaN', /finite number/],
      ['float', 'Infinity', /finite number/],
      ['float', '1,5', /finite number/],
      ['float', '', /finite number/],
      ['decimal', '.', /finite number/],
      ['decimal', Number.NaN, /finite number/],
      ['boolean', 'yes', /expected a boolean/],
      ['boolean', '', /expected a boolean/],
      ['boolean', '2', /expected a boolean/],
      ['date', 'notadate', /^Invalid format, expected yyyy-MM-dd/],
      ['date', '2023-02-29', /^Invalid format, expected yyyy-MM-dd/],
      ['date', '2024-13-01', /^Invalid format, expected yyyy-MM-dd/],
      ['date', '2024-04-31', /^Invalid format, expected yyyy-MM-dd/],
      ['date', '2024-1-01', /^Invalid format, expected yyyy-MM-dd/],
      ['date', '20240101', /^Invalid format, expected yyyy-MM-dd/],
      ['date', '2024-01-01Z', /^Invalid format, expected yyyy-MM-dd/],
      ['date', '0000-01-01T00:00:00+01:00', /^Invalid format, expected yyyy-MM-dd/],
      ['time', '24:00', /HH:mm/],
      ['time', '20:60', /HH:mm/],
      ['time', '20:00:60', /HH:mm/],
      ['time', '20:00:00.1234', /HH:mm/],
      ['time', '8:00', /HH:mm/],
      ['time', 'noon', /HH:mm/],
      ['time', '20', /HH:mm/],
      ['datetime', 'garbage', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '2024-01-01T25:00:00Z', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '2024-01-01T08:00:00+25:00', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '2024-02-30T00:00:00Z', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '2024-01-01T08Z', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '99999999999999999999', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '8640000000000001', /^Invalid format, expected a timestamp or an ISO date/],
      ['datetime', '1.5', /^Invalid format, expected a timestamp or an ISO date/],
      ['timestamp', 'yesterday', /^Invalid format, expected a timestamp or an ISO date/],
      ['string', 'a\u0000b', /NUL/],
      ['string', {}, /expected a single value/],
      ['string', [], /expected a single value/],
      ['string', undefined, /expected a single value/],
      ['string', Symbol('s'), /expected a single value/],
    ];
    for (const [type, input, message] of rejected) {
      const label = typeof input === 'symbol' ? 'a symbol' : JSON.stringify(input)?.slice(0, 30);
      it(`${type} ${label} → 400`, () => {
        expectValidationError(() => castValue(fieldOf(type), input, 'filters.x.$eq'), 'filters.x.$eq', message);
      });
    }

    it('never quotes a huge value in full', () => {
      const error = expectValidationError(() => castValue(fieldOf('integer'), '9'.repeat(10_000), 'p'), 'p');
      expect(error.message.length).to.be.below(300);
    });
  });
});
