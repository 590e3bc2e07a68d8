/**
 * Response schemas of the OpenAPI document: per content type its attributes and entry, per
 * component its object (and its dynamic-zone item, with `__component`), and the envelopes. Only
 * what the role can be answered appears: hidden attributes never, relations and media only when
 * the role may `find` their target. Scalars are optional (a request may narrow them with
 * `fields`), populated attributes too; unknown properties are not allowed.
 */
import { scalarNeverNull } from '../codegen/types.js';
import type { Attribute, Model, ScalarAttribute } from '../schema/registry.js';
import { targetOf } from '../query/resolve-attribute.js';
import { BLOCKS_SCHEMA, reachable, ref, schemaName, type JsonSchema, type SchemaScope } from './names.js';

/** Strapi's error envelope `{ data: null, error: { status, name, message, details } }`, with these schemas of its parts. */
function errorEnvelope(status: JsonSchema, name: JsonSchema, details: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['data', 'error'],
    properties: {
      data: { type: 'null' },
      error: { type: 'object', required: ['status', 'name', 'message', 'details'], properties: { status, name, message: { type: 'string' }, details } },
    },
  };
}

export const ERROR_SCHEMA: JsonSchema = errorEnvelope({ type: 'integer' }, { type: 'string' }, { type: 'object' });

/**
 * The 400 of a write: a body that breaks the schema lists every problem in `details.errors`
 * (Strapi's `{ path, message, name }`, the path into `data`); a malformed query names its parameter
 * in `details.path`; an ApplicationError (an unknown locale, a locale already translated) has no
 * details.
 */
export const VALIDATION_ERROR_SCHEMA: JsonSchema = errorEnvelope({ const: 400 }, { enum: ['ValidationError', 'ApplicationError'] }, {
  type: 'object',
  properties: {
    path: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message', 'name'],
        properties: { path: { type: 'array', items: { type: ['string', 'integer'] } }, message: { type: 'string' }, name: { const: 'ValidationError' } },
      },
    },
  },
});

const PAGINATION: JsonSchema = {
  oneOf: [
    { type: 'object', required: ['page', 'pageSize'], additionalProperties: false, properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, pageCount: { type: 'integer' }, total: { type: 'integer' } } },
    { type: 'object', required: ['start', 'limit'], additionalProperties: false, properties: { start: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } } },
  ],
};

/** `populate[x][count]=true` on a to-many relation answers the number of related entries. */
const RELATION_COUNT: JsonSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['attributes'], properties: { attributes: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } } } } },
};

/** On a component or a zone, `count` answers `{ count }`. */
const COMPONENT_COUNT: JsonSchema = { type: 'object', required: ['count'], additionalProperties: false, properties: { count: { type: 'integer' } } };

/** The schemas of one model: `<Name>` and `<Name>Entry` (content types) or `<Name>` and `<Name>ZoneItem` (components). */
export function modelResponseSchemas(scope: SchemaScope, model: Model): Record<string, JsonSchema> {
  const name = schemaName(scope, model);
  if (model.modelType === 'component') {
    return { [name]: objectSchema(scope, model, { id: { type: 'integer' } }), [`${name}ZoneItem`]: objectSchema(scope, model, { id: { type: 'integer' }, __component: { const: model.uid } }) };
  }
  return {
    [name]: objectSchema(scope, model, {}),
    [`${name}Entry`]: { type: 'object', required: ['id', 'attributes'], additionalProperties: false, properties: { id: { type: 'integer' }, attributes: ref(name) } },
  };
}

/** `<Name>ListResponse`, `<Name>Response` (and a localized single type's `<Name>LocalesResponse`, for `locale=all`): the envelopes of a content type's routes. */
export function envelopeSchemas(scope: SchemaScope, model: Model): Record<string, JsonSchema> {
  const entry = ref(`${schemaName(scope, model)}Entry`);
  return {
    [`${schemaName(scope, model)}ListResponse`]: {
      type: 'object',
      required: ['data', 'meta'],
      properties: { data: { type: 'array', items: entry }, meta: { type: 'object', required: ['pagination'], properties: { pagination: PAGINATION } } },
    },
    [`${schemaName(scope, model)}Response`]: { type: 'object', required: ['data', 'meta'], properties: { data: entry, meta: { type: 'object' } } },
    ...(model.kind === 'singleType' && model.localized
      ? { [`${schemaName(scope, model)}LocalesResponse`]: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: entry }, meta: { type: 'object' } } } }
      : {}),
  };
}

/**
 * `<Name>Localization`: the answer of `POST …/:id/localizations`, Strapi's flat entity (`id` beside
 * the attributes, no envelope) with its `localizations` flat too (when the role may read the type).
 */
export function localizationSchema(scope: SchemaScope, model: Model): JsonSchema {
  const { localizations: _populated, ...attributes } = (objectSchema(scope, model, { id: { type: 'integer' } }).properties as Record<string, JsonSchema>);
  const flat = { type: 'object', required: ['id'], additionalProperties: false, properties: attributes };
  return { ...flat, properties: { ...attributes, localizations: { type: 'array', items: flat } } };
}

function objectSchema(scope: SchemaScope, model: Model, fixed: Record<string, JsonSchema>): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...fixed };
  for (const attribute of model.attributes.values()) {
    const schema = reachable(scope, attribute) || attribute.kind === 'scalar' ? attributeSchema(scope, model, attribute) : null;
    if (schema) properties[attribute.name] = schema;
  }
  return { type: 'object', required: Object.keys(fixed), additionalProperties: false, properties };
}

function attributeSchema(scope: SchemaScope, model: Model, attribute: Attribute): JsonSchema | null {
  switch (attribute.kind) {
    case 'scalar':
      return attribute.hidden ? null : scalarSchema(model, attribute);
    case 'relation':
    case 'media': {
      const entry = ref(`${schemaName(scope, targetOf(attribute, scope.registry))}Entry`);
      const toMany = attribute.kind === 'relation' ? attribute.toMany : attribute.multiple;
      if (!toMany) return { type: 'object', required: ['data'], additionalProperties: false, properties: { data: { oneOf: [entry, { type: 'null' }] } } };
      // Multiple media with no file is `{ data: null }`, as Strapi answers; an empty relation is `[]`.
      const list: JsonSchema = attribute.kind === 'media' ? { type: ['array', 'null'], items: entry } : { type: 'array', items: entry };
      return { anyOf: [{ type: 'object', required: ['data'], additionalProperties: false, properties: { data: list } }, RELATION_COUNT] };
    }
    case 'component': {
      const component = ref(schemaName(scope, targetOf(attribute, scope.registry)));
      return attribute.repeatable ? { anyOf: [{ type: 'array', items: component }, COMPONENT_COUNT] } : { anyOf: [component, { type: 'null' }, COMPONENT_COUNT] };
    }
    case 'dynamiczone': {
      const items = attribute.components.map((uid) => ref(`${schemaName(scope, scope.registry.models.get(uid)!)}ZoneItem`));
      return { anyOf: [{ type: 'array', items: { oneOf: items } }, COMPONENT_COUNT] };
    }
    default:
      return null;
  }
}

/** A scalar attribute's value in an answer, null included where the attribute may hold none. */
export function scalarSchema(model: Model, attribute: ScalarAttribute): JsonSchema {
  const schema = scalarValueSchema(attribute);
  if (scalarNeverNull(model, attribute) || attribute.type === 'json') return schema;
  if (schema.enum) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  return { ...schema, type: [schema.type, 'null'] };
}

/** The value as the API writes it: bigintegers as exact strings (D8), dates and times as ISO text. */
function scalarValueSchema(attribute: ScalarAttribute): JsonSchema {
  switch (attribute.type) {
    case 'integer':
      return { type: 'integer' };
    case 'float':
    case 'decimal':
      return { type: 'number' };
    case 'biginteger':
      return { type: 'string', pattern: '^-?[0-9]+$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return attribute.format === 'blocks' ? BLOCKS_SCHEMA : {};
    case 'enumeration':
      return attribute.enum?.length ? { enum: [...attribute.enum] } : { type: 'string' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'time':
      return { type: 'string', pattern: '^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{3})?$' };
    case 'datetime':
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'email':
      return { type: 'string', format: 'email' };
    default:
      return { type: 'string' };
  }
}
