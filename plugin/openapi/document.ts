/**
 * The OpenAPI 3.1 document of the API as one role sees it: the routes the role may call, every
 * query parameter with its grammar for the route's type, the request bodies of the writes it is
 * granted, and the response schemas of what the role can be answered (hidden attributes and types
 * it may not `find` never appear in an answer).
 */
import type { Grants } from '../access/permissions.js';
import { modelTypeNames } from '../codegen/names.js';
import type { Model, Registry } from '../schema/registry.js';
import { inputComponents, modelInputSchemas, SHARED_INPUT_NAMES, SHARED_INPUT_SCHEMAS } from './input-schemas.js';
import { reachableModels, ref, schemaName, type JsonSchema, type SchemaScope } from './names.js';
import { fields, filters, ID_PARAMETER, localeAndPublication, pagination, populate, query, responses, sort, type OpenApiObject } from './parameters.js';
import { FILTER_OPERATORS_SCHEMA, modelQuerySchemas } from './query-schemas.js';
import { envelopeSchemas, ERROR_SCHEMA, localizationSchema, modelResponseSchemas, VALIDATION_ERROR_SCHEMA } from './response-schemas.js';
import { writeOperations } from './write-operations.js';
import { LOGIN_TOKEN_SCHEME, USER_SCHEMA_NAMES, userOperations } from './user-operations.js';
import { UPLOAD_SCHEMA_NAMES, uploadOperations } from './upload-operations.js';
import { ACCOUNT_SCHEMA_NAMES, accountOperations, localeOperations } from './account-operations.js';

export interface OpenApiOptions {
  /** Route prefix (default `/api`). */
  readonly prefix?: string;
  /** Largest page size, for the pagination parameter (default 100). */
  readonly maxLimit?: number;
  readonly title?: string;
  readonly version?: string;
  /**
   * The end-user routes the API serves (the `users` option): login, /users/me, change-password,
   * the users and roles routes the role's actions allow; registration when `register`, the mailed
   * flows when `email`, third-party login for each of `providers`.
   */
  readonly users?: { readonly register: boolean; readonly email?: boolean; readonly providers?: readonly string[] };
  /** Whether the API serves the media library's routes (default true; false with `upload: false`). */
  readonly upload?: boolean;
}

/**
 * Names the document declares itself, which model schemas must not take. The write schemas'
 * names are reserved for every role, so that a type's name does not depend on what the role may do.
 */
const RESERVED = new Set(['Error', 'FilterOperators', 'ValidationError', ...SHARED_INPUT_NAMES, ...USER_SCHEMA_NAMES, ...ACCOUNT_SCHEMA_NAMES, ...UPLOAD_SCHEMA_NAMES]);

export function generateOpenApi(registry: Registry, grants: Grants, options: OpenApiOptions = {}): Record<string, unknown> {
  const scope: SchemaScope = { registry, grants, names: modelTypeNames(registry, RESERVED) };
  const prefix = options.prefix ?? '/api';
  const paths: Record<string, Record<string, OpenApiObject>> = {};
  const routed: Model[] = [];
  const written: Model[] = [];
  const add = (path: string, method: string, operation: OpenApiObject) => {
    paths[path] = { ...paths[path], [method]: operation };
  };
  for (const [route, model] of registry.routes) {
    const list = grants.can(model.uid, 'find');
    const one = model.kind === 'collectionType' && grants.can(model.uid, 'findOne');
    const writes = writeOperations(scope, model);
    if (list) add(`${prefix}/${route}`, 'get', listOperation(scope, model, options));
    if (one) add(`${prefix}/${route}/{id}`, 'get', findOneOperation(scope, model));
    for (const [path, operations] of Object.entries(writes)) for (const [method, operation] of Object.entries(operations)) add(`${prefix}/${route}${path}`, method, operation);
    if (list || one || Object.keys(writes).length) routed.push(model);
    if (Object.keys(writes).length) written.push(model);
  }
  const users = options.users ? userOperations(registry, prefix, options.users.register) : null;
  const accounts = users?.schemas.AuthUser ? accountOperations(grants, prefix, { email: options.users?.email ?? false, providers: options.users?.providers ?? [] }, users.schemas.AuthUser) : null;
  const locales = localeOperations(grants, prefix);
  Object.assign(paths, users?.paths, accounts?.paths, locales.paths);
  const uploads = options.upload === false ? null : uploadOperations(scope, prefix, options.maxLimit ?? 100);
  if (uploads) Object.assign(paths, uploads.paths);
  // A file list answers the file type's query grammar (its fields, filters and sort).
  if (uploads && Object.keys(uploads.paths).length) routed.push(registry.file);
  return {
    openapi: '3.1.0',
    info: { title: options.title ?? 'Content API', version: options.version ?? '1.0.0', description: `The content API as the role "${grants.role}" may call it.` },
    paths,
    components: {
      schemas: { ...responseSchemas(scope, routed), ...inputSchemas(scope, written), ...users?.schemas, ...accounts?.schemas, ...locales.schemas, ...(uploads && Object.keys(uploads.paths).length ? { ...uploads.schemas, Error: ERROR_SCHEMA } : {}) },
      securitySchemes: { apiToken: { type: 'http', scheme: 'bearer', description: 'An API token of permissions.yaml' }, ...(users ? { loginToken: LOGIN_TOKEN_SCHEME } : {}) },
    },
    security: [{}, { apiToken: [] }, ...(users ? [{ loginToken: [] }] : [])],
  };
}

/** The answers' schemas: every model the routed types reach, with the query grammars. */
function responseSchemas(scope: SchemaScope, routed: readonly Model[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA, FilterOperators: FILTER_OPERATORS_SCHEMA };
  for (const model of reachableModels(scope, routed)) {
    Object.assign(schemas, modelResponseSchemas(scope, model), modelQuerySchemas(scope, model));
    if (model.modelType === 'contentType') Object.assign(schemas, envelopeSchemas(scope, model));
  }
  return schemas;
}

/** The request bodies of the written types and of every component they may hold; none for a role that may not write. */
function inputSchemas(scope: SchemaScope, written: readonly Model[]): Record<string, JsonSchema> {
  if (!written.length) return {};
  const schemas: Record<string, JsonSchema> = { ValidationError: VALIDATION_ERROR_SCHEMA, ...SHARED_INPUT_SCHEMAS };
  for (const model of [...written, ...inputComponents(scope, written)]) Object.assign(schemas, modelInputSchemas(scope, model));
  for (const model of written) {
    if (model.localized && scope.grants.can(model.uid, 'create')) schemas[`${schemaName(scope, model)}Localization`] = localizationSchema(scope, model);
  }
  return schemas;
}

function listOperation(scope: SchemaScope, model: Model, options: OpenApiOptions): OpenApiObject {
  const single = model.kind === 'singleType';
  const name = schemaName(scope, model);
  const parameters = [fields(model), populate(scope, model), filters(scope, model), sort(model)];
  if (!single) parameters.push(pagination(options.maxLimit ?? 100));
  parameters.push(query('_q', 'Searches the text attributes', { type: 'string' }), ...localeAndPublication(scope, model));
  const answers = responses(`${name}${single ? 'Response' : 'ListResponse'}`, single ? [400, 401, 403, 404] : [400, 401, 403]);
  // A localized single type answers `locale=all` with every locale's entry.
  if (single && model.localized) answers[200] = { description: 'OK: the entry, or with `locale=all` every locale\'s entry', content: { 'application/json': { schema: { oneOf: [ref(`${name}Response`), ref(`${name}LocalesResponse`)] } } } };
  return {
    operationId: `find${name}`,
    summary: single ? `The ${model.displayName} entry (404 when none matches the filters)` : `List ${model.displayName} entries`,
    tags: [model.displayName],
    parameters,
    responses: answers,
  };
}

function findOneOperation(scope: SchemaScope, model: Model): OpenApiObject {
  const parameters: OpenApiObject[] = [
    ID_PARAMETER,
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
