/**
 * The types every Strapi GraphQL schema has, whatever the models: the scalars (with the
 * descriptions Strapi's graphql-scalars give them), a filter input per scalar, pagination, the
 * collection meta, the publication state and the `Error` member of dynamic-zone unions.
 * Values are not coerced by these scalars beyond graphql-js's defaults: the door parses them.
 */
import { GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType, GraphQLScalarType, type ValueNode } from 'graphql';
import { localeLiteral, timeLiteral } from './scalar-literals.js';
import type { StoredScalarType } from '../../schema/registry.js';
import { scalarFilterInputName } from './names.js';
import type { TypeTable } from './type-table.js';

/** The GraphQL scalar of each attribute type (the plugin's SCALARS_ASSOCIATIONS). */
export const GRAPHQL_SCALAR_OF: Readonly<Record<StoredScalarType, string>> = {
  string: 'String',
  text: 'String',
  richtext: 'String',
  enumeration: 'String',
  email: 'String',
  password: 'String',
  uid: 'String',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
  integer: 'Int',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  boolean: 'Boolean',
  json: 'JSON',
};

const RFC3339 = 'compliant with the `%s` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.';

const SCALARS: Readonly<Record<string, string>> = {
  JSON: 'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  DateTime: `A date-time string at UTC, such as 2007-12-03T10:15:30Z, ${RFC3339.replace('%s', 'date-time')}`,
  Date: `A date string, such as 2007-12-03, ${RFC3339.replace('%s', 'full-date')}`,
  Time: 'A time string with format HH:mm:ss.SSS',
  Long: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  Upload: 'The `Upload` scalar type represents a file upload.',
  I18NLocaleCode: 'A string used to identify an i18n locale',
};

/** The scalars that have a filter input, in Strapi's order. */
const FILTERED_SCALARS = ['ID', 'Boolean', 'String', 'Int', 'Long', 'Float', 'Date', 'Time', 'DateTime', 'JSON'];

const SAME_TYPE_OPERATORS = ['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte'];
const LIST_OPERATORS = ['and', 'or', 'in', 'notIn', 'between'];

/** `StringFilterInput { eq: String, in: [String], not: StringFilterInput, null: Boolean, … }`. */
function scalarFilterInput(table: TypeTable, scalar: string): GraphQLInputObjectType {
  const name = scalarFilterInputName(scalar);
  return new GraphQLInputObjectType({
    name,
    fields: () =>
      table.inputFields({
        ...Object.fromEntries(LIST_OPERATORS.map((operator) => [operator, `[${scalar}]`])),
        not: name,
        ...Object.fromEntries(SAME_TYPE_OPERATORS.map((operator) => [operator, scalar])),
        null: 'Boolean',
        notNull: 'Boolean',
      }),
  });
}

/** The scalars whose literals are checked at validation, as Strapi's are. */
const LITERALS: Readonly<Record<string, (node: ValueNode) => unknown>> = { Time: timeLiteral, I18NLocaleCode: localeLiteral };

export function addBuiltInTypes(table: TypeTable): void {
  for (const [name, description] of Object.entries(SCALARS)) table.add(new GraphQLScalarType({ name, description, ...(LITERALS[name] ? { parseLiteral: LITERALS[name], parseValue: (value: unknown) => value } : {}) }));
  for (const scalar of FILTERED_SCALARS) table.add(scalarFilterInput(table, scalar));
  table.add(new GraphQLObjectType({ name: 'Error', fields: () => table.fields({ code: 'String!', message: 'String' }) }));
  table.add(new GraphQLObjectType({ name: 'Pagination', fields: () => table.fields({ total: 'Int!', page: 'Int!', pageSize: 'Int!', pageCount: 'Int!' }) }));
  table.add(new GraphQLObjectType({ name: 'ResponseCollectionMeta', fields: () => table.fields({ pagination: 'Pagination!' }) }));
  table.add(new GraphQLEnumType({ name: 'PublicationState', values: { LIVE: { value: 'live' }, PREVIEW: { value: 'preview' } } }));
  table.add(new GraphQLInputObjectType({ name: 'PaginationArg', fields: () => table.inputFields({ page: 'Int', pageSize: 'Int', start: 'Int', limit: 'Int' }) }));
}

/** The arguments of a list: `filters`, `pagination` (default `{}`), `sort` (default `[]`), and `publicationState` (default live) on draft-and-publish types. */
export function listArguments(filtersInput: string, draftAndPublish: boolean): Record<string, string | { type: string; defaultValue: unknown }> {
  return {
    filters: filtersInput,
    pagination: { type: 'PaginationArg', defaultValue: {} },
    sort: { type: '[String]', defaultValue: [] },
    ...(draftAndPublish ? { publicationState: publicationStateArgument() } : {}),
  };
}

export const publicationStateArgument = () => ({ type: 'PublicationState', defaultValue: 'live' });
