/**
 * The OpenAPI 3.1 document of the API as one role sees it: the routes the role may call, every
 * query parameter with its grammar for the route's type, and the response schemas of what the
 * role can be answered (hidden attributes and types it may not `find` never appear).
 */
import type { Grants } from '../access/permissions.js';
import { modelTypeNames } from '../codegen/names.js';
import type { Model, Registry } from '../schema/registry.js';
import { reachableModels, ref, schemaName, type JsonSchema, type SchemaScope } from './names.js';
import { fieldsSchema, FILTER_OPERATORS_SCHEMA, modelQuerySchemas, populateParameterSchema, sortSchema } from './query-schemas.js';
import { envelopeSchemas, ERROR_SCHEMA, modelResponseSchemas } from './response-schemas.js';

export interface OpenApiOptions {
  /** Route prefix (default `/api`). */
  readonly prefix?: string;
  /** Largest page size, for the pagination parameter (default 100). */
  readonly maxLimit?: number;
  readonly title?: string;
  readonly version?: string;
}

type Operation = Record<string, unknown>;

/** Names the document declares itself, which model schemas must not take. */
const RESERVED = new Set(['Error', 'FilterOperators']);

export function generateOpenApi(registry: Registry, grants: Grants, options: OpenApiOptions = {}): Record<string, unknown> {
  const scope: SchemaScope = { registry, grants, names: modelTypeNames(registry, RESERVED) };
  const prefix = options.prefix ?? '/api';
  const paths: Record<string, Record<string, Operation>> = {};
  const routed: Model[] = [];
  for (const [route, model] of registry.routes) {
    const list = grants.can(model.uid, 'find');
    const one = model.kind === 'collectionType' && grants.can(model.uid, 'findOne');
    if (!list && !one) continue;
    routed.push(model);
    if (list) paths[`${prefix}/${route}`] = { get: listOperation(scope, model, options) };
    if (one) paths[`${prefix}/${route}/{id}`] = { get: findOneOperation(scope, model) };
  }
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA, FilterOperators: FILTER_OPERATORS_SCHEMA };
  for (const model of reachableModels(scope, routed)) {
    Object.assign(schemas, modelResponseSchemas(scope, model), modelQuerySchemas(scope, model));
    if (model.modelType === 'contentType') Object.assign(schemas, envelopeSchemas(scope, model));
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title ?? 'Content API', version: options.version ?? '1.0.0', description: `The content API as the role "${grants.role}" may call it.` },
    paths,
    components: {
      schemas,
      securitySchemes: { apiToken: { type: 'http', scheme: 'bearer', description: 'An API token of permissions.yaml' } },
    },
    security: [{}, { apiToken: [] }],
  };
}

function listOperation(scope: SchemaScope, model: Model, options: OpenApiOptions): Operation {
  const single = model.kind === 'singleType';
  const parameters = [fields(model), populate(scope, model)];
  if (!single) parameters.push(filters(scope, model), sort(model), pagination(options.maxLimit ?? 100), query('_q', 'Searches the text attributes', { type: 'string' }));
  parameters.push(...localeAndPublication(scope, model));
  return {
    operationId: `find${schemaName(scope, model)}`,
    summary: single ? `The ${model.displayName} entry` : `List ${model.displayName} entries`,
    tags: [model.displayName],
    parameters,
    responses: responses(`${schemaName(scope, model)}${single ? 'Response' : 'ListResponse'}`, single ? [400, 401, 403, 404] : [400, 401, 403]),
  };
}

function findOneOperation(scope: SchemaScope, model: Model): Operation {
  const parameters: Operation[] = [
    { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
    fields(model),
    populate(scope, model),
    // findOne finds an entry by id in any locale: only the publication state applies.
    ...localeAndPublication(scope, model).filter((parameter) => parameter.name !== 'locale'),
  ];
  return {
    operationId: `findOne${schemaName(scope, model)}`,
    summary: `One ${model.displayName} entry`,
    tags: [model.displayName],
    parameters,
    responses: responses(`${schemaName(scope, model)}Response`, [400, 401, 403, 404]),
  };
}

function responses(schema: string, errors: readonly number[]): Record<string, unknown> {
  const error = { content: { 'application/json': { schema: ref('Error') } } };
  return {
    200: { description: 'OK', content: { 'application/json': { schema: ref(schema) } } },
    ...Object.fromEntries(errors.map((status) => [String(status), { description: ERROR_DESCRIPTIONS[status], ...error }])),
  };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'A malformed query: the message and details.path name the parameter',
  401: 'A bad or expired API token',
  403: 'The role may not call this route (or preview drafts)',
  404: 'No such entry',
};

function query(name: string, description: string, schema: JsonSchema, style: 'form' | 'deepObject' = 'form'): Operation {
  return { name, in: 'query', description, schema, style, explode: style === 'deepObject' };
}

function fields(model: Model): Operation {
  return query('fields', 'The attributes to return (`fields=title,slug` or `fields[0]=title`)', fieldsSchema(model));
}

function populate(scope: SchemaScope, model: Model): Operation {
  return query('populate', 'Relations, media, components and zones to include: `*`, dot paths, or options per attribute in bracket notation', populateParameterSchema(scope, model), 'deepObject');
}

function filters(scope: SchemaScope, model: Model): Operation {
  return query('filters', 'Conditions in bracket notation: `filters[title][$containsi]=x`', ref(`${schemaName(scope, model)}Filters`), 'deepObject');
}

function sort(model: Model): Operation {
  return query('sort', '`sort=views:desc,title`; dot paths sort through relations and components', sortSchema(model));
}

function pagination(maxLimit: number): Operation {
  return query('pagination', '`page`/`pageSize` or `start`/`limit`, and `withCount`', {
    type: 'object',
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 1 },
      pageSize: { type: 'integer', minimum: 1, maximum: maxLimit },
      start: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', maximum: maxLimit },
      withCount: { type: 'boolean' },
    },
  }, 'deepObject');
}

function localeAndPublication(scope: SchemaScope, model: Model): Operation[] {
  const parameters: Operation[] = [];
  if (model.localized) parameters.push(query('locale', 'A locale code, or `all`', { type: 'string' }));
  if (model.draftAndPublish) {
    const states = scope.grants.can(model.uid, 'preview') ? ['live', 'preview'] : ['live'];
    parameters.push(query('publicationState', 'Published entries only (`live`) or drafts too (`preview`)', { enum: states }));
  }
  return parameters;
}
