/**
 * The parameters and responses of the document's operations, shared by the read operations
 * (document.ts) and the write operations (write-operations.ts), so a write's `fields` and
 * `populate` are described by the very schemas of the read's.
 */
import type { Model } from '../schema/registry.js';
import { ref, schemaName, type JsonSchema, type SchemaScope } from './names.js';
import { fieldsSchema, populateParameterSchema, sortSchema } from './query-schemas.js';

/** An OpenAPI object (operation, parameter, response): plain JSON. */
export type OpenApiObject = Record<string, unknown>;

export function query(name: string, description: string, schema: JsonSchema, style: 'form' | 'deepObject' = 'form'): OpenApiObject {
  return { name, in: 'query', description, schema, style, explode: style === 'deepObject' };
}

/** The `{id}` of an entry route: a positive integer (anything else names no entry: a 404). */
export const ID_PARAMETER: OpenApiObject = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };

export function fields(model: Model): OpenApiObject {
  return query('fields', 'The attributes to return (`fields=title,slug` or `fields[0]=title`)', fieldsSchema(model));
}

export function populate(scope: SchemaScope, model: Model): OpenApiObject {
  return query('populate', 'Relations, media, components and zones to include: `*`, dot paths, or options per attribute in bracket notation', populateParameterSchema(scope, model), 'deepObject');
}

export function filters(scope: SchemaScope, model: Model): OpenApiObject {
  return query('filters', 'Conditions in bracket notation: `filters[title][$containsi]=x`', ref(`${schemaName(scope, model)}Filters`), 'deepObject');
}

export function sort(model: Model): OpenApiObject {
  return query('sort', '`sort=views:desc,title`; dot paths sort through relations and components', sortSchema(model));
}

export function pagination(maxLimit: number): OpenApiObject {
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

export function localeAndPublication(scope: SchemaScope, model: Model): OpenApiObject[] {
  const parameters: OpenApiObject[] = [];
  if (model.localized) parameters.push(query('locale', 'A locale code, or `all`', { type: 'string' }));
  if (model.draftAndPublish) {
    const states = scope.grants.can(model.uid, 'preview') ? ['live', 'preview'] : ['live'];
    parameters.push(query('publicationState', 'Published entries only (`live`) or drafts too (`preview`)', { enum: states }));
  }
  return parameters;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'A malformed query: the message and details.path name the parameter',
  401: 'A bad or expired API token',
  403: 'The role may not call this route (or preview drafts)',
  404: 'No such entry',
  413: 'A request body over the configured size (maxBodyBytes, 1 MB by default)',
};

/** The 400 of a write, which may also be about its body. */
const WRITE_BAD_REQUEST = 'A malformed query, or a body that breaks the schema: details.errors lists every problem with its path (nothing was written); an unknown locale or a locale already translated is an ApplicationError';

/**
 * A 200 answering `schema` and the errors of `errors`. A write's 400 is described by the
 * `ValidationError` schema (details.errors); every other error by `Error`.
 */
export function responses(schema: string, errors: readonly number[], write = false): OpenApiObject {
  const body = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });
  const error = (status: number) => (write && status === 400 ? { description: WRITE_BAD_REQUEST, ...body('ValidationError') } : { description: ERROR_DESCRIPTIONS[status], ...body('Error') });
  return {
    200: { description: 'OK', ...body(schema) },
    ...Object.fromEntries(errors.map((status) => [String(status), error(status)])),
  };
}
