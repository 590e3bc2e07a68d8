/**
 * The comparison side of `filters`: the value written for one scalar field (or `id`) in every
 * form qs produces, turned into compare nodes with values cast to the field's type, and the
 * factories of the frozen filter nodes. parse-filters.ts handles attributes, relations and
 * the logical keys around them.
 */
import { ValidationError } from '../errors.js';
import { castRawText, castValue, describeValue, parseBooleanText, quote, scalarText } from './cast-value.js';
import { childPath, isPlainObject } from './path.js';
import type { ComparisonOperator, CompareFilter, CompareValue, Field, Filter, PathAttribute, RelatedFilter } from './tree.js';
import { CallerVariable } from './caller-variable.js';
import type { Model } from '../schema/registry.js';

/** Every comparison operator of the API, exactly as written (operators are case-sensitive). */
export const COMPARISON_OPERATORS: ReadonlySet<string> = new Set<ComparisonOperator>([
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn',
  '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi',
  '$endsWith', '$endsWithi', '$null', '$notNull', '$between',
]);

/** Operators whose value is a list; on the others a list means "any of" (OR). */
export const LIST_OPERATORS: ReadonlySet<string> = new Set(['$in', '$notIn', '$between']);

/** Operators comparing the column's text, whatever its type: they take the value uncast. */
export const TEXT_OPERATORS: ReadonlySet<string> = new Set([
  '$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi',
  '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
]);

/** Deeper than qs (depth 20) can produce; guards programmatic inputs against unbounded recursion. */
export const MAX_FILTER_DEPTH = 32;

/** A 400 when `depth` levels of nesting have been entered. */
export function checkDepth(depth: number, path: string): void {
  if (depth > MAX_FILTER_DEPTH) throw new ValidationError(path, `Invalid filters: nested more than ${MAX_FILTER_DEPTH} levels deep`);
}

/**
 * The value written for a scalar field: a scalar (implicit `$eq`), null (`$eq` null, IS NULL),
 * a list (implicit `$in`) or an object of operators with `$not`, `$and` and `$or`.
 * Null when nothing is left (an empty object).
 */
export function parseFieldValue(field: Field, value: unknown, path: string, depth: number): Filter | null {
  checkDepth(depth, path);
  if (value === null) return compare(field, '$eq', [null]);
  if (Array.isArray(value)) return parseOperator(field, '$in', value, path);
  if (!isPlainObject(value)) return compare(field, '$eq', [castOrVariable(field, value, path)]);
  const items: (Filter | null)[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const keyPath = childPath(path, key);
    if (key === '$not') items.push(negate(parseFieldValue(field, child, keyPath, depth + 1)));
    else if (key === '$and' || key === '$or') items.push(parseFieldLogical(field, key, child, keyPath, depth + 1));
    else if (COMPARISON_OPERATORS.has(key)) items.push(parseOperator(field, key as ComparisonOperator, child, keyPath));
    else throw unknownOperator(field, key, keyPath);
  }
  return combine('and', items);
}

/** `filters[title][$or][0][$eq]=A&filters[title][$or][1][$startsWith]=B`: each item is a field value. */
function parseFieldLogical(field: Field, key: '$and' | '$or', value: unknown, path: string, depth: number): Filter | null {
  if (!Array.isArray(value)) {
    throw new ValidationError(path, `Invalid ${key} on ${quote(field.name)}: expected a list, e.g. [${key}][0][$eq]=a&[${key}][1][$eq]=b, not ${describeValue(value)}`);
  }
  const items = value.map((item, index) => parseFieldValue(field, item, childPath(path, index), depth));
  return combine(key === '$and' ? 'and' : 'or', items);
}

/**
 * One operator and its value. `$in`/`$notIn` take a value or a list, `$between` exactly two
 * values; on the other operators a list means the operator holds for any of its items.
 */
export function parseOperator(field: Field, operator: ComparisonOperator, value: unknown, path: string): Filter {
  if (isPlainObject(value)) {
    throw new ValidationError(path, `Invalid value for ${operator} on ${quote(field.name)}: expected a value or a list of values, not an object`);
  }
  if (operator === '$between') {
    if (!Array.isArray(value) || value.length !== 2) {
      throw new ValidationError(path, `Invalid value for $between on ${quote(field.name)}: expected exactly two values, e.g. [$between][0]=1&[$between][1]=9`);
    }
    return compare(field, operator, value.map((item, index) => castListItem(field, operator, item, childPath(path, index))));
  }
  if (!Array.isArray(value)) {
    if (operator === '$in' || operator === '$notIn') return compare(field, operator, [castCommaListItem(field, operator, value, path)]);
    return parseOperatorValue(field, operator, value, path);
  }
  if (value.length === 0) throw new ValidationError(path, `Invalid value for ${operator} on ${quote(field.name)}: expected at least one value`);
  if (operator === '$in' || operator === '$notIn') {
    return compare(field, operator, value.map((item, index) => castListItem(field, operator, item, childPath(path, index))));
  }
  return combine('or', value.map((item, index) => parseOperatorValue(field, operator, item, childPath(path, index)))) as Filter;
}

/** One non-list operator with one value. */
export function parseOperatorValue(field: Field, operator: ComparisonOperator, value: unknown, path: string): CompareFilter {
  if (Array.isArray(value) || isPlainObject(value)) {
    throw new ValidationError(path, `Invalid value for ${operator} on ${quote(field.name)}: expected a single value, not ${describeValue(value)}`);
  }
  if (operator === '$null' || operator === '$notNull') return compare(field, operator, [parseExistenceFlag(value, path)]);
  if (value === null && (operator === '$eq' || operator === '$ne')) return compare(field, operator, [null]);
  if (value === null) {
    throw new ValidationError(path, `Invalid value for ${operator} on ${quote(field.name)}: a value is required (write ${operator}=value; use $null to test for missing values)`);
  }
  if (value instanceof CallerVariable) return compare(field, operator, [value]);
  if (TEXT_OPERATORS.has(operator)) return compare(field, operator, [castRawText(field, value, path)]);
  return compare(field, operator, [castValue(field, value, path)]);
}

/**
 * The boolean of `$null`/`$notNull`: `true/t/1`, `false/f/0` in any case; an empty value is
 * false as in Strapi. Any other word is a 400 where Strapi would read it as true.
 */
export function parseExistenceFlag(value: unknown, path: string): boolean {
  if (value === null || value === '') return false;
  if (typeof value === 'boolean') return value;
  const text = scalarText(value);
  const flag = text === null ? undefined : parseBooleanText(text);
  if (flag === undefined) throw new ValidationError(path, `Invalid value ${describeValue(value)}: expected true or false (also t, 1, f, 0)`);
  return flag;
}

/**
 * The one value of `[$in]=…`. A comma list (`[$in]=1,3`) is one value, as in Strapi (which answers
 * no entry where it is not one value of the type); when it is not of the type, the 400 says how a
 * list is written.
 */
function castCommaListItem(field: Field, operator: ComparisonOperator, value: unknown, path: string): CompareValue {
  try {
    return castListItem(field, operator, value, path);
  } catch (error) {
    if (!(error instanceof ValidationError) || typeof value !== 'string' || !value.includes(',')) throw error;
    const [first, second] = value.split(',');
    const reason = error.message.slice(0, error.message.length - ` (at ${error.path})`.length);
    throw new ValidationError(path, `${reason}; a list is written [${operator}][0]=${first}&[${operator}][1]=${second}, not with commas`);
  }
}

function castListItem(field: Field, operator: ComparisonOperator, item: unknown, path: string): CompareValue {
  if (item === null) {
    throw new ValidationError(path, `Invalid value for ${operator} on ${quote(field.name)}: list items cannot be empty; use $null to test for missing values`);
  }
  if (Array.isArray(item) || isPlainObject(item)) {
    throw new ValidationError(path, `Invalid value for ${operator} on ${quote(field.name)}: expected a single value, not ${describeValue(item)}`);
  }
  return castOrVariable(field, item, path);
}

/** A value cast to the field's type; a rule's variable is cast when a request binds it (sql/caller-values.ts). */
function castOrVariable(field: Field, raw: unknown, path: string): CompareValue {
  return raw instanceof CallerVariable ? raw : castValue(field, raw, path);
}

function unknownOperator(field: Field, key: string, path: string): ValidationError {
  if (!key.startsWith('$')) {
    return new ValidationError(path, `Invalid parameter ${quote(key)}: ${quote(field.name)} is a scalar field and has no attributes; expected an operator such as $eq`);
  }
  const hint = [...COMPARISON_OPERATORS].find((operator) => operator.toLowerCase() === key.toLowerCase());
  const expected = hint ? `did you mean ${hint}? Operators are case-sensitive` : `expected one of ${[...COMPARISON_OPERATORS].join(' ')}, $not, $and, $or`;
  return new ValidationError(path, `Invalid operator ${quote(key)} on ${quote(field.name)}: ${expected}`);
}

/** A frozen compare node. */
export function compare(field: Field, operator: ComparisonOperator, values: readonly CompareValue[]): CompareFilter {
  return Object.freeze({ kind: 'compare', field, operator, values: Object.freeze([...values]) });
}

/** A frozen related node: some row reached through `attribute` matches `filter` (any row when null). */
export function related(attribute: PathAttribute, target: Model, filter: Filter | null, path: string): RelatedFilter {
  return Object.freeze({ kind: 'related', attribute, target, filter, path });
}

/** `items` joined by AND or OR, without the empty ones; null when none is left. */
export function combine(kind: 'and' | 'or', items: readonly (Filter | null)[]): Filter | null {
  const kept = items.filter((item): item is Filter => item !== null);
  if (kept.length === 0) return null;
  if (kept.length === 1) return kept[0];
  return Object.freeze({ kind, items: Object.freeze(kept) });
}

/** NOT `item`; an empty condition stays empty (dropped, as Strapi drops empty objects). */
export function negate(item: Filter | null): Filter | null {
  return item === null ? null : Object.freeze({ kind: 'not', item });
}
