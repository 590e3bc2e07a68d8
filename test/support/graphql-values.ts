/**
 * Argument values for random GraphQL operations, read off the schema's input types: filters
 * through relations and components with every operator of each scalar's filter input, sort
 * strings (dot paths through relations, wrong names and directions some of the time), pagination
 * in both forms and now and then mixed, and awkward scalar values. Each value is a plain JS value
 * that prints as a GraphQL literal for its type (`literal`) or travels as a JSON variable.
 */
import {
  getNamedType,
  parseValue,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLScalarType,
  type GraphQLSchema,
} from 'graphql';

const STRINGS = ['a', '', 'news', 'News', "it's", '"quoted"', '\\', '%', '_', 'ä', 'null', '1', 'canary', 'Lorem', 'a\nb', '𝕏'];
const INTS = [0, 1, -1, 2, 3, 10, 100, 2147483647, -2147483648];
const FLOATS = [0, 1.5, -1, 4.5, 1e10, 0.1];
const IDS = ['1', '2', '3', '5', '0', '-1', 'abc', '999999', '9007199254740993'];
const BY_SCALAR: Readonly<Record<string, readonly unknown[]>> = {
  String: STRINGS,
  Int: INTS,
  Float: FLOATS,
  Boolean: [true, false],
  ID: IDS,
  Long: ['1', '0', '9007199254740993', '-5', 'x'],
  Date: ['2024-01-01', '2023-06-15', '2024-02-30', 'x'],
  DateTime: ['2024-01-01T10:00:00Z', '2023-06-15T00:00:00.000Z', '2024-01-01', 'never'],
  Time: ['10:00', '10:00:00.000', '24:00', 'x'],
  JSON: ['a', 1, true, { key: 'value' }, ['a', 1], { nested: { deep: [1, 2] } }],
  I18NLocaleCode: ['en', 'fr', 'all', 'xx', 'en-US', ''],
};
const WRONG_SORT_NAMES = ['nope', 'createdBy', '__proto__', 'constructor', 'password'];
const DIRECTIONS = ['', ':asc', ':desc', '', ':asc', ':desc', ':ASC', ':up'];
const PAGE_VALUES = [1, 1, 2, 3, 0, -1];
const SIZE_VALUES = [1, 2, 3, 5, 10, 25, 0, -1, 100];
const MAX_FILTER_DEPTH = 3;

type Pick = <T>(list: readonly T[]) => T;

export interface ValueSource {
  /** A value for argument `name` of `field`. */
  argument(field: GraphQLField<unknown, unknown>, name: string): unknown;
  /** A value for any input type (filters, lists, scalars). */
  value(type: GraphQLInputType, depth?: number): unknown;
}

export function valueSource(schema: GraphQLSchema, random: () => number, pick: Pick): ValueSource {
  const chance = (probability: number) => random() < probability;
  const accepted = new Map<string, readonly unknown[]>();
  const some = <T>(list: readonly T[], most: number): T[] => {
    const count = 1 + Math.floor(random() * most);
    return Array.from({ length: count }, () => pick(list));
  };

  /** A value the schema's scalar takes both as a literal and as a variable (a scalar may check its values). */
  function scalar(name: string): unknown {
    let values = accepted.get(name);
    if (!values) {
      const type = schema.getType(name) as GraphQLScalarType | undefined;
      values = (BY_SCALAR[name] ?? STRINGS).filter((value) => !type || takes(type, value));
      accepted.set(name, values);
    }
    return pick(values);
  }

  /** `StringFilterInput`: one or two operators, `not` nesting the same input. */
  function operators(type: GraphQLInputObjectType, depth: number): Record<string, unknown> {
    const fields = type.getFields();
    const out: Record<string, unknown> = {};
    for (const name of some(Object.keys(fields), 2)) {
      if (name === 'not') out.not = depth < MAX_FILTER_DEPTH ? operators(type, depth + 1) : { null: false };
      else if (name === 'between') out.between = chance(0.8) ? [scalar(getNamedType(fields[name].type).name), scalar(getNamedType(fields[name].type).name)] : value(fields[name].type, depth);
      else out[name] = value(fields[name].type, depth);
    }
    return out;
  }

  /** `ArticleFiltersInput`: attributes with operators, relations and components followed, `and`/`or`/`not`. */
  function entityFilters(type: GraphQLInputObjectType, depth: number): Record<string, unknown> {
    const fields = type.getFields();
    const out: Record<string, unknown> = {};
    for (const name of some(Object.keys(fields), 2)) {
      const fieldType = fields[name].type;
      if ((name === 'and' || name === 'or') && depth < MAX_FILTER_DEPTH) out[name] = some([0, 1], 2).map(() => entityFilters(type, depth + 1));
      else if (name === 'not' && depth < MAX_FILTER_DEPTH) out[name] = entityFilters(type, depth + 1);
      else if (!isListType(getNullableType(fieldType)) && name !== 'not' && (depth < MAX_FILTER_DEPTH || isOperatorInput(fieldType))) out[name] = value(fieldType, depth + 1);
    }
    if (Object.keys(out).length) return out;
    const scalar = Object.keys(fields).find((name) => isOperatorInput(fields[name].type))!;
    return { [scalar]: { notNull: true } };
  }

  function value(type: GraphQLInputType, depth = 0): unknown {
    const nullable = getNullableType(type);
    if (isListType(nullable)) return some([0], 3).map(() => value(nullable.ofType as GraphQLInputType, depth));
    if (isEnumType(nullable)) return pick(nullable.getValues()).name;
    if (isScalarType(nullable)) return scalar(nullable.name);
    if (isInputObjectType(nullable)) return isOperatorInput(nullable) ? operators(nullable, depth) : entityFilters(nullable, depth);
    return null;
  }

  function sortEntry(filters: GraphQLInputObjectType | null): string {
    const { scalars, relations } = filters ? sortNames(filters) : { scalars: [], relations: [] };
    if (chance(0.08) || !scalars.length) return `${pick(WRONG_SORT_NAMES)}${pick(DIRECTIONS)}`;
    if (relations.length && chance(0.3)) {
      const [name, target] = pick(relations);
      const inner = sortNames(target).scalars;
      const leaf = inner.length && !chance(0.05) ? pick(inner) : pick(WRONG_SORT_NAMES);
      return `${name}.${leaf}${pick(DIRECTIONS)}`;
    }
    return `${pick(scalars)}${pick(DIRECTIONS)}`;
  }

  function pagination(): Record<string, number> {
    const form = random();
    const paged = { ...(chance(0.6) ? { page: pick(PAGE_VALUES) } : {}), ...(chance(0.8) ? { pageSize: pick(SIZE_VALUES) } : {}) };
    const windowed = { ...(chance(0.6) ? { start: pick([0, 1, 2, 5, -1]) } : {}), ...(chance(0.8) ? { limit: pick(SIZE_VALUES) } : {}) };
    if (form < 0.45) return paged;
    if (form < 0.9) return windowed;
    return { ...paged, ...windowed };
  }

  function argument(field: GraphQLField<unknown, unknown>, name: string): unknown {
    const arg = field.args.find((candidate) => candidate.name === name)!;
    const filters = field.args.find((candidate) => candidate.name === 'filters');
    switch (name) {
      case 'sort':
        return chance(0.2) ? sortEntry(filters ? (getNamedType(filters.type) as GraphQLInputObjectType) : null) : some([0], 3).map(() => sortEntry(filters ? (getNamedType(filters.type) as GraphQLInputObjectType) : null));
      case 'pagination':
        return pagination();
      default:
        return value(arg.type);
    }
  }

  return { argument, value };
}

function takes(type: GraphQLScalarType, value: unknown): boolean {
  try {
    return type.parseValue(value) !== undefined && type.parseLiteral(parseValue(untypedLiteral(value)), undefined) !== undefined;
  } catch {
    return false;
  }
}

/** A scalar's filter input (`StringFilterInput`), told from an entity's (`ArticleFiltersInput`) by its `eq`. */
export function isOperatorInput(type: GraphQLInputType): boolean {
  const named = getNamedType(type);
  return isInputObjectType(named) && 'eq' in named.getFields();
}

/** The names a sort may use, read off the filters input: scalar attributes, and relations with their targets' inputs. */
function sortNames(filters: GraphQLInputObjectType): { scalars: string[]; relations: [string, GraphQLInputObjectType][] } {
  const scalars: string[] = [];
  const relations: [string, GraphQLInputObjectType][] = [];
  for (const [name, field] of Object.entries(filters.getFields())) {
    if (name === 'and' || name === 'or' || name === 'not') continue;
    if (isOperatorInput(field.type)) scalars.push(name);
    else relations.push([name, getNamedType(field.type) as GraphQLInputObjectType]);
  }
  return { scalars, relations };
}

/** `value` as a GraphQL literal of `type`: enums bare, strings quoted, input objects and JSON as object literals. */
export function literal(value: unknown, type: GraphQLInputType): string {
  if (value === null || value === undefined) return 'null';
  const nullable = getNullableType(type);
  if (isListType(nullable)) return Array.isArray(value) ? `[${value.map((item) => literal(item, nullable.ofType as GraphQLInputType)).join(', ')}]` : literal(value, nullable.ofType as GraphQLInputType);
  if (isInputObjectType(nullable)) {
    const fields = nullable.getFields();
    return `{ ${Object.entries(value as Record<string, unknown>).map(([key, item]) => `${key}: ${literal(item, fields[key].type)}`).join(', ')} }`;
  }
  if (isEnumType(nullable)) return String(value);
  return untypedLiteral(value);
}

/** A JSON value as a GraphQL literal (a custom scalar takes any). */
function untypedLiteral(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(untypedLiteral).join(', ')}]`;
  if (typeof value === 'object') return `{ ${Object.entries(value as Record<string, unknown>).map(([key, item]) => `${key}: ${untypedLiteral(item)}`).join(', ')} }`;
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}
