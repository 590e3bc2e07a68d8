/**
 * The query language as JSON Schemas, per model and role: `<Name>Filters` (attributes,
 * operators, `$and`/`$or`/`$not`, nested through what the role may read), `<Name>Populate` (the
 * populatable attributes and their options) and the `fields`/`sort` grammars. Bracket notation
 * (`filters[title][$eq]=x`) is how clients send them: the parameters use `style: deepObject`.
 */
import { COMPARISON_OPERATORS, LIST_OPERATORS } from '../query/parse-operators.js';
import { targetOf } from '../query/resolve-attribute.js';
import type { Model } from '../schema/registry.js';
import { reachable, ref, schemaName, type JsonSchema, type SchemaScope } from './names.js';

const VALUE: JsonSchema = { type: ['string', 'number', 'boolean'] };

/** One comparison: `{ $eq: v }`, `{ $in: [v, …] }`, `{ $null: true }`… */
export const FILTER_OPERATORS_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(
    [...COMPARISON_OPERATORS].map((operator) => [operator, LIST_OPERATORS.has(operator) ? { type: 'array', items: VALUE } : { anyOf: [VALUE, { type: 'array', items: VALUE }] }]),
  ),
};

/** `populate[x]=true|t|1|*` or `false|f|0|''`. */
const POPULATE_FLAG: JsonSchema = { enum: ['true', 't', '1', '*', 'false', 'f', '0', '', true, false] };

const SORT_TERM = '[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*(:(asc|desc|ASC|DESC))?';

/** The names `fields` may select: every public scalar. */
export function selectableFields(model: Model): string[] {
  return [...model.attributes.values()].filter((attribute) => attribute.kind === 'scalar' && !attribute.hidden).map((attribute) => attribute.name);
}

export function fieldsSchema(model: Model): JsonSchema {
  return { type: 'array', items: { enum: selectableFields(model) } };
}

/** `sort=views:desc,title` or a list of such terms; dot paths go through relations and components. */
export function sortSchema(model: Model): JsonSchema {
  const direct = selectableFields(model).flatMap((name) => [name, `${name}:asc`, `${name}:desc`]);
  return { type: 'array', items: { anyOf: [{ enum: direct }, { type: 'string', pattern: `^${SORT_TERM}$` }] } };
}

/** `populate=*`, a comma list of dot paths, or an object of options per attribute. */
export function populateParameterSchema(scope: SchemaScope, model: Model): JsonSchema {
  return { anyOf: [{ type: 'string', pattern: '^(\\*|[A-Za-z0-9_.*-]+(,[A-Za-z0-9_.*-]+)*)$' }, { type: 'array', items: { type: 'string' } }, ref(`${schemaName(scope, model)}Populate`)] };
}

/** `<Name>Filters`, `<Name>Populate` and `<Name>PopulateOptions` of one model. */
export function modelQuerySchemas(scope: SchemaScope, model: Model): Record<string, JsonSchema> {
  const name = schemaName(scope, model);
  return { [`${name}Filters`]: filtersSchema(scope, model), [`${name}Populate`]: populateSchema(scope, model), [`${name}PopulateOptions`]: populateOptionsSchema(scope, model) };
}

function filtersSchema(scope: SchemaScope, model: Model): JsonSchema {
  const self = ref(`${schemaName(scope, model)}Filters`);
  const comparison = { anyOf: [ref('FilterOperators'), VALUE, { type: 'array', items: VALUE }] };
  const properties: Record<string, JsonSchema> = { id: comparison, $and: { type: 'array', items: self }, $or: { type: 'array', items: self }, $not: self };
  for (const attribute of model.attributes.values()) {
    if (attribute.kind === 'scalar' && !attribute.hidden) properties[attribute.name] = comparison;
    else if ((attribute.kind === 'relation' || attribute.kind === 'component' || attribute.kind === 'media') && reachable(scope, attribute)) {
      properties[attribute.name] = ref(`${schemaName(scope, targetOf(attribute, scope.registry))}Filters`);
    }
  }
  return { type: 'object', additionalProperties: false, properties };
}

function populateSchema(scope: SchemaScope, model: Model): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const attribute of model.attributes.values()) {
    if (!reachable(scope, attribute)) continue;
    if (attribute.kind === 'dynamiczone') {
      const on = Object.fromEntries(attribute.components.map((uid) => [uid, { anyOf: [POPULATE_FLAG, ref(`${schemaName(scope, scope.registry.models.get(uid)!)}PopulateOptions`)] }]));
      properties[attribute.name] = {
        anyOf: [POPULATE_FLAG, { type: 'object', additionalProperties: false, properties: { on: { type: 'object', additionalProperties: false, properties: on }, populate: {}, fields: { type: 'array', items: { type: 'string' } }, filters: { type: 'object' }, count: POPULATE_FLAG } }],
      };
    } else if (attribute.kind === 'relation' || attribute.kind === 'media' || attribute.kind === 'component') {
      properties[attribute.name] = { anyOf: [POPULATE_FLAG, ref(`${schemaName(scope, targetOf(attribute, scope.registry))}PopulateOptions`)] };
    }
  }
  return { type: 'object', additionalProperties: false, properties };
}

/** The options of a populated attribute whose rows are of `model`; `limit`/`start` apply per parent entry. */
function populateOptionsSchema(scope: SchemaScope, model: Model): JsonSchema {
  const name = schemaName(scope, model);
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      fields: fieldsSchema(model),
      populate: populateParameterSchema(scope, model),
      filters: ref(`${name}Filters`),
      sort: sortSchema(model),
      limit: { type: ['integer', 'string'] },
      start: { type: ['integer', 'string'] },
      count: POPULATE_FLAG,
      publicationState: { enum: ['live', 'preview'] },
    },
  };
}
