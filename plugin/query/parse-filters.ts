/**
 * `filters`: objects of attribute names, `id`, `$and`, `$or` and `$not`, nested through relations,
 * components and media into the models they lead to. Several keys of one object are ANDed, as
 * are the items of an array at the root. Comparisons on a scalar field are parsed by
 * parse-operators.ts. Names are resolved here, so later stages never see an unknown attribute.
 */
import { ValidationError } from '../errors.js';
import type { Model, Registry } from '../schema/registry.js';
import { describeValue, quote } from './cast-value.js';
import {
  checkDepth,
  COMPARISON_OPERATORS,
  combine,
  LIST_OPERATORS,
  negate,
  parseExistenceFlag,
  parseFieldValue,
  parseOperator,
  parseOperatorValue,
  related,
} from './parse-operators.js';
import { childPath, isPlainObject } from './path.js';
import { resolveAttribute, targetOf } from './resolve-attribute.js';
import { ID_FIELD, type ComparisonOperator, type Filter, type PathAttribute } from './tree.js';

interface FilterContext {
  readonly registry: Registry;
}

const EXPECTED_OBJECT = 'expected an object of attributes and operators, e.g. filters[title][$eq]=Hello';

/**
 * Parses `filters` for `model`. Absent, null or an empty object → null. Every malformed part is
 * a 400 at its parameter path (`filters.category.name.$eq`, `filters.$or[1].title`).
 */
export function parseFilters(model: Model, raw: unknown, path: string, registry: Registry): Filter | null {
  if (raw === undefined || raw === null) return null;
  const context: FilterContext = { registry };
  if (Array.isArray(raw)) {
    return combine('and', raw.map((item, index) => parseFilterObject(model, item, childPath(path, index), context, 1)));
  }
  if (!isPlainObject(raw)) throw new ValidationError(path, `Invalid filters: ${EXPECTED_OBJECT}, not ${describeValue(raw)}`);
  return parseFilterObject(model, raw, path, context, 0);
}

/** One object of conditions on rows of `model`, ANDed. */
function parseFilterObject(model: Model, value: unknown, path: string, context: FilterContext, depth: number): Filter | null {
  checkDepth(depth, path);
  if (!isPlainObject(value)) throw new ValidationError(path, `Invalid filter: ${EXPECTED_OBJECT}, not ${describeValue(value)}`);
  const items: (Filter | null)[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (child !== undefined) items.push(parseFilterEntry(model, key, child, childPath(path, key), context, depth + 1));
  }
  return combine('and', items);
}

function parseFilterEntry(model: Model, key: string, value: unknown, path: string, context: FilterContext, depth: number): Filter | null {
  if (key === '$and' || key === '$or') return parseLogical(model, key, value, path, context, depth);
  if (key === '$not') return negate(parseFilterObject(model, value, path, context, depth));
  if (key === 'id') return parseFieldValue(ID_FIELD, value, path, depth);
  if (key.startsWith('$')) throw misplacedOperator(model, key, path);
  const attribute = resolveAttribute(model, key, path, 'filters');
  if (attribute.kind === 'scalar') return parseFieldValue(attribute, value, path, depth);
  return parseRelatedValue(attribute, value, path, context, depth);
}

/** `$and`/`$or`: a list of objects (qs makes `[0]`, `[1]` keys a list). */
function parseLogical(model: Model, key: '$and' | '$or', value: unknown, path: string, context: FilterContext, depth: number): Filter | null {
  if (!Array.isArray(value)) {
    throw new ValidationError(path, `Invalid ${key}: expected a list of conditions, e.g. filters[${key}][0][title]=a&filters[${key}][1][title]=b, not ${describeValue(value)}`);
  }
  const items = value.map((item, index) => parseFilterObject(model, item, childPath(path, index), context, depth));
  return combine(key === '$and' ? 'and' : 'or', items);
}

/**
 * The value written for a relation, component or media attribute. An object of the target's
 * attributes filters the related rows (some related row matches). Operators written directly
 * on a relation, or a plain value or list, compare the related id; `$null`/`$notNull` (and a
 * missing value) test whether a related row exists. Operators and attributes cannot be mixed (D1).
 */
function parseRelatedValue(attribute: PathAttribute, value: unknown, path: string, context: FilterContext, depth: number): Filter | null {
  checkDepth(depth, path);
  const target = targetOf(attribute, context.registry);
  if (value === null) return existence(attribute, target, false, path);
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined);
    const operators = keys.filter((key) => COMPARISON_OPERATORS.has(key));
    if (operators.length === 0) {
      const filter = parseFilterObject(target, value, path, context, depth);
      if (filter === null) return null;
      const exists = idExistence(filter);
      return exists === undefined ? related(attribute, target, filter, path) : existence(attribute, target, exists, path);
    }
    if (operators.length < keys.length) {
      const names = keys.filter((key) => !COMPARISON_OPERATORS.has(key));
      throw new ValidationError(path, `Invalid filter on ${quote(attribute.name)}: it mixes operators (${operators.join(', ')}) with attributes (${names.join(', ')}); compare an attribute instead, e.g. [${attribute.name}][id][$eq]=1`);
    }
    return parseRelatedOperators(attribute, target, value, path);
  }
  if (attribute.kind !== 'relation') throw notComparable(attribute, path);
  return related(attribute, target, parseFieldValue(ID_FIELD, value, path, depth), path);
}

/**
 * Operators written directly on a relation compare the related id, all on one related row;
 * `$null`/`$notNull`, and `$eq`/`$ne` with a missing value, test whether a related row exists.
 * Components and media take only `$null`/`$notNull`.
 */
function parseRelatedOperators(attribute: PathAttribute, target: Model, operators: Record<string, unknown>, path: string): Filter | null {
  const comparisons: Filter[] = [];
  const tests: (Filter | null)[] = [];
  for (const [key, value] of Object.entries(operators)) {
    if (value === undefined) continue;
    const operator = key as ComparisonOperator;
    const operatorPath = childPath(path, key);
    if (operator === '$null' || operator === '$notNull') tests.push(parseExistence(attribute, target, operator, value, operatorPath, path));
    else if (attribute.kind !== 'relation') throw notComparable(attribute, operatorPath);
    else if (Array.isArray(value) && !LIST_OPERATORS.has(operator)) {
      if (value.length === 0) throw new ValidationError(operatorPath, `Invalid value for ${operator} on ${quote(attribute.name)}: expected at least one value`);
      tests.push(combine('or', value.map((item, index) => compareRelatedId(attribute, target, operator, item, childPath(operatorPath, index), path))));
    } else if (value === null && (operator === '$eq' || operator === '$ne')) tests.push(existence(attribute, target, operator === '$ne', path));
    else comparisons.push(parseOperator(ID_FIELD, operator, value, operatorPath));
  }
  const together = combine('and', comparisons);
  return combine('and', [together === null ? null : related(attribute, target, together, path), ...tests]);
}

/** One item of a list given to a non-list operator on a relation. */
function compareRelatedId(attribute: PathAttribute, target: Model, operator: ComparisonOperator, value: unknown, valuePath: string, path: string): Filter {
  if (value === null && (operator === '$eq' || operator === '$ne')) return existence(attribute, target, operator === '$ne', path);
  return related(attribute, target, parseOperatorValue(ID_FIELD, operator, value, valuePath), path);
}

function parseExistence(attribute: PathAttribute, target: Model, operator: '$null' | '$notNull', value: unknown, valuePath: string, path: string): Filter | null {
  const values = Array.isArray(value) ? value : [value];
  if (values.length === 0) throw new ValidationError(valuePath, `Invalid value for ${operator} on ${quote(attribute.name)}: expected true or false`);
  const tests = values.map((item, index) => {
    const itemPath = Array.isArray(value) ? childPath(valuePath, index) : valuePath;
    if (Array.isArray(item) || isPlainObject(item)) throw new ValidationError(itemPath, `Invalid value for ${operator}: expected true or false, not ${describeValue(item)}`);
    const flag = parseExistenceFlag(item, itemPath);
    return existence(attribute, target, operator === '$notNull' ? flag : !flag, path);
  });
  return combine('or', tests);
}

/** Some related row exists (`exists`), or none does. */
function existence(attribute: PathAttribute, target: Model, exists: boolean, path: string): Filter {
  const some = related(attribute, target, null, path);
  return exists ? some : (negate(some) as Filter);
}

/**
 * `[category][id][$null]=true` asks whether a related row exists: a related row's id is never
 * null, and Strapi's LEFT JOIN gives these tests that meaning. Undefined for other filters.
 */
function idExistence(filter: Filter): boolean | undefined {
  if (filter.kind !== 'compare' || filter.field !== ID_FIELD) return undefined;
  const [value] = filter.values;
  if (filter.operator === '$null') return value === false;
  if (filter.operator === '$notNull') return value === true;
  if (value !== null) return undefined;
  if (filter.operator === '$eq') return false;
  if (filter.operator === '$ne') return true;
  return undefined;
}

function notComparable(attribute: PathAttribute, path: string): ValidationError {
  const what = attribute.kind === 'component' ? 'a component' : 'a media attribute';
  return new ValidationError(path, `Invalid filter on ${quote(attribute.name)}: ${what} cannot be compared directly; filter one of its attributes (e.g. [${attribute.name}][id][$eq]=1) or test it with $null / $notNull`);
}

function misplacedOperator(model: Model, key: string, path: string): ValidationError {
  if (COMPARISON_OPERATORS.has(key)) {
    return new ValidationError(path, `Invalid parameter ${quote(key)}: comparison operators go under an attribute, e.g. filters[title][${key}]=…`);
  }
  return new ValidationError(path, `Invalid operator ${quote(key)}: expected an attribute of ${model.uid}, id, $and, $or or $not`);
}
