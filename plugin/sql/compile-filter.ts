/**
 * Filter trees → SQL conditions on a row alias. A filter through a relation, component or media
 * attribute becomes `alias.id IN (SELECT owner FROM link JOIN target WHERE …)`: uncorrelated, so
 * the engine computes the set once per statement. Like Strapi's LEFT JOINs, a nested condition
 * that holds for a missing row (`$null`) also matches entries with no related row at all, and a
 * `$not` is taken down to the conditions it negates: Strapi negates them on the joined rows, so
 * `$not` through a relation matches the entries with a related row that fails the condition,
 * not those with no related row at all.
 */
import type { Model } from '../schema/registry.js';
import type { CompareFilter, CompareValue, Filter, FilterValue, RelatedFilter } from '../query/tree.js';
import { CallerVariable } from '../query/caller-variable.js';
import { TEXT_OPERATORS } from '../query/parse-operators.js';
import { LateValue } from './caller-values.js';
import type { CompileContext } from './context.js';
import { escapeLike, quoteIdentifier as q } from './dialect/dialect.js';
import { correlate, hopFrom, hopThrough, whereClause } from './hops.js';

export function compileFilter(context: CompileContext, filter: Filter, alias: string, model: Model): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return joinTerms(filter.items.map((item) => compileFilter(context, item, alias, model)), filter.kind === 'and' ? 'AND' : 'OR');
    case 'not':
      return compileNegated(context, filter.item, alias, model);
    case 'related':
      return compileRelated(context, filter, alias, model);
    case 'compare':
      return compileCompare(context, filter, alias);
  }
}

/**
 * `$not` of `filter` as Strapi's WHERE over its LEFT JOINs means it: De Morgan through `$and` and
 * `$or`, and into a relation's condition (some visible related row where it does not hold).
 */
function compileNegated(context: CompileContext, filter: Filter, alias: string, model: Model): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return joinTerms(filter.items.map((item) => compileNegated(context, item, alias, model)), filter.kind === 'and' ? 'OR' : 'AND');
    case 'not':
      return compileFilter(context, filter.item, alias, model);
    case 'related':
      if (filter.filter) return compileRelated(context, { ...filter, filter: { kind: 'not', item: filter.filter } }, alias, model);
      return `NOT (${compileRelated(context, filter, alias, model)})`;
    case 'compare':
      return `NOT (${compileCompare(context, filter, alias)})`;
  }
}

function joinTerms(terms: string[], operator: 'AND' | 'OR'): string {
  if (!terms.length) return operator === 'AND' ? '1 = 1' : '1 = 0';
  return terms.length === 1 ? terms[0] : `(${terms.join(` ${operator} `)})`;
}

function compileRelated(context: CompileContext, filter: RelatedFilter, alias: string, model: Model): string {
  return context.filterHop(() => compileHop(context, filter, alias, model));
}

function compileHop(context: CompileContext, filter: RelatedFilter, alias: string, model: Model): string {
  const hop = hopThrough(context, model, filter.attribute, filter.target);
  // Rows the caller may not see are as absent to the filter as to the answer.
  const visible = (target: string) => (filter.visible ? [compileFilter(context, filter.visible, target, filter.target)] : []);
  const inner = filter.filter ? [compileFilter(context, filter.filter, hop.target, filter.target)] : [];
  const matching = `${alias}."id" IN (SELECT ${hop.ownerKey} FROM ${hopFrom(hop)}${whereClause([...hop.conditions, ...visible(hop.target), ...inner])})`;
  if (!filter.filter || truthOnMissingRow(filter.filter) !== true) return matching;
  const empty = hopThrough(context, model, filter.attribute, filter.target);
  return `(${matching} OR NOT EXISTS (SELECT 1 FROM ${hopFrom(empty)}${whereClause([...correlate(empty, alias), ...visible(empty.target)])}))`;
}

/** Three-valued truth of a filter on a row whose columns are all NULL (a LEFT JOIN that found nothing). */
function truthOnMissingRow(filter: Filter): boolean | null {
  switch (filter.kind) {
    case 'and': {
      const values = filter.items.map(truthOnMissingRow);
      return values.includes(false) ? false : values.includes(null) ? null : true;
    }
    case 'or': {
      const values = filter.items.map(truthOnMissingRow);
      return values.includes(true) ? true : values.includes(null) ? null : false;
    }
    case 'not': {
      const value = truthOnMissingRow(filter.item);
      return value === null ? null : !value;
    }
    case 'related':
      return filter.filter ? truthOnMissingRow(filter.filter) : false;
    case 'compare':
      return compareOnNull(filter);
  }
}

function compareOnNull(filter: CompareFilter): boolean | null {
  const [value] = filter.values;
  switch (filter.operator) {
    case '$null':
      return value === true;
    case '$notNull':
      return value !== true;
    case '$eq':
      return value === null ? true : null;
    case '$ne':
      return value === null ? false : null;
    default:
      return null;
  }
}

const COMPARISON: Record<string, string> = { $eq: '=', $ne: '<>', $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' };

function compileCompare(context: CompileContext, filter: CompareFilter, alias: string): string {
  const { field, operator, values } = filter;
  const { dialect } = context;
  const type = field.type;
  const stored = `${alias}.${q(field.column)}`;
  // json compares as JSON values; strings compare in code-point order on every engine.
  const ordered = type !== 'json' && ['$lt', '$lte', '$gt', '$gte', '$between'].includes(operator);
  const column = type === 'json' ? dialect.value('json', stored) : ordered ? dialect.sortable(stored, type) : stored;
  // A literal value is a parameter now; a rule's variable of the caller is bound per request, converted the same way.
  const bind = (value: CompareValue, convert: (plain: FilterValue) => unknown) =>
    context.parameter(value instanceof CallerVariable ? new LateValue(value, field, TEXT_OPERATORS.has(operator), convert) : convert(value));
  const typedParameter = (value: CompareValue) =>
    dialect.typed(bind(value, (plain) => dialect.parameter(type, type === 'json' && plain !== null ? jsonText(String(plain)) : plain)), type);
  // A boolean's sortable form may be another type (an integer on PostgreSQL): its parameter takes the same form.
  const parameter = ordered && type === 'boolean' ? (value: CompareValue) => dialect.sortable(typedParameter(value), type) : typedParameter;
  const text = () => dialect.text(stored, type);
  const plainText = (value: CompareValue) => bind(value, String);
  const like = (value: CompareValue, prefix: string, suffix: string) =>
    `LOWER(${text()}) LIKE LOWER(${bind(value, (plain) => `${prefix}${escapeLike(String(plain))}${suffix}`)}) ESCAPE '\\'`;
  const each = (build: (value: CompareValue) => string) => joinTerms(values.map(build), 'OR');
  switch (operator) {
    case '$eq':
    case '$ne':
      return each((value) =>
        value === null ? `${column} IS ${operator === '$eq' ? '' : 'NOT '}NULL` : `${column} ${COMPARISON[operator]} ${parameter(value)}`,
      );
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte':
      return each((value) => `${column} ${COMPARISON[operator]} ${parameter(value)}`);
    case '$in':
    case '$notIn':
      return compileIn(column, operator === '$notIn', values, parameter);
    case '$between':
      return `${column} BETWEEN ${parameter(values[0])} AND ${parameter(values[1])}`;
    case '$null':
    case '$notNull':
      return `${column} IS ${(values[0] === true) === (operator === '$null') ? '' : 'NOT '}NULL`;
    case '$eqi':
      return each((value) => `LOWER(${text()}) = LOWER(${plainText(value)})`);
    case '$nei':
      return each((value) => `LOWER(${text()}) <> LOWER(${plainText(value)})`);
    case '$containsi':
      return each((value) => like(value, '%', '%'));
    case '$notContainsi':
      return each((value) => `NOT (${like(value, '%', '%')})`);
    case '$startsWithi':
      return each((value) => like(value, '', '%'));
    case '$endsWithi':
      return each((value) => like(value, '%', ''));
    case '$contains':
      return each((value) => context.dialect.contains(text(), plainText(value)));
    case '$notContains':
      return each((value) => `NOT (${context.dialect.contains(text(), plainText(value))})`);
    case '$startsWith':
      return each((value) => context.dialect.startsWith(text(), plainText(value)));
    case '$endsWith':
      return each((value) => context.dialect.endsWith(text(), plainText(value)));
  }
}

/** A filter value for a json attribute as JSON text: JSON as written when it parses, else a JSON string. */
function jsonText(value: string): string {
  try {
    return JSON.stringify(JSON.parse(value));
  } catch {
    return JSON.stringify(value);
  }
}

function compileIn(column: string, negated: boolean, values: readonly CompareValue[], parameter: (value: CompareValue) => string): string {
  const present = values.filter((value) => value !== null);
  const hasNull = present.length < values.length;
  const list = present.length ? `${column} ${negated ? 'NOT IN' : 'IN'} (${present.map(parameter).join(', ')})` : null;
  if (!negated) return joinTerms([...(list ? [list] : []), ...(hasNull ? [`${column} IS NULL`] : [])], 'OR');
  return joinTerms([...(list ? [list] : []), ...(hasNull ? [`${column} IS NOT NULL`] : [])], 'AND');
}
