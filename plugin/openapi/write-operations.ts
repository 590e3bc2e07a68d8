/**
 * The write operations of the document, those the role is granted (`create`, `update`, `delete`),
 * as http/write-routes.ts serves them: POST, PUT and DELETE on a collection type's routes, `POST
 * …/{id}/localizations` on a localized one, PUT, DELETE and `POST …/localizations` on a single
 * type. An answer is the read's entry envelope (the same schema), shaped by `fields` and
 * `populate` as a read (not a single type's DELETE, which answers the entry bare).
 */
import type { Model } from '../schema/registry.js';
import { hasLocalizationsRoute } from '../write/localizations.js';
import { schemaName, ref, type JsonSchema, type SchemaScope } from './names.js';
import { fields, ID_PARAMETER, populate, query, responses, type OpenApiObject } from './parameters.js';

/** Operations by path (relative to the type's route: `''`, `/{id}`, `/{id}/localizations`) and method. */
export type WriteOperations = Record<string, Record<string, OpenApiObject>>;

/** The write operations the role may call on `model`; empty when it may not write it. */
export function writeOperations(scope: SchemaScope, model: Model): WriteOperations {
  const can = (action: 'create' | 'update' | 'delete') => scope.grants.can(model.uid, action);
  const operations: WriteOperations = {};
  const add = (path: string, method: string, operation: OpenApiObject) => {
    operations[path] = { ...operations[path], [method]: operation };
  };
  if (model.kind === 'singleType') {
    if (can('update')) add('', 'put', putSingle(scope, model));
    if (can('delete')) add('', 'delete', deleteSingle(scope, model));
    if (can('create') && hasLocalizationsRoute(model)) add('/localizations', 'post', localizationOperation(scope, model));
    return operations;
  }
  if (can('create')) add('', 'post', createOperation(scope, model));
  if (can('update')) add('/{id}', 'put', updateOperation(scope, model));
  if (can('delete')) add('/{id}', 'delete', deleteOperation(scope, model, ID_PARAMETER));
  if (can('create') && hasLocalizationsRoute(model)) add('/{id}/localizations', 'post', localizationOperation(scope, model));
  return operations;
}

/** `{ data: <input> }`: the envelope is required; other keys of the body are ignored, as in Strapi. */
function dataBody(input: string): OpenApiObject {
  return requestBody({ type: 'object', required: ['data'], properties: { data: ref(input) } });
}

function requestBody(schema: JsonSchema): OpenApiObject {
  return { required: true, content: { 'application/json': { schema } } };
}

function shaping(scope: SchemaScope, model: Model): OpenApiObject[] {
  return [fields(model), populate(scope, model)];
}

/** Which entry of a localized type a request means, or is created in. */
function localeParameter(model: Model, description: string): OpenApiObject[] {
  return model.localized ? [query('locale', description, { type: 'string' })] : [];
}

function createOperation(scope: SchemaScope, model: Model): OpenApiObject {
  const name = schemaName(scope, model);
  const published = model.draftAndPublish ? ' Published now unless `publishedAt` is given (`null` for a draft).' : '';
  return {
    operationId: `create${name}`,
    summary: `Create a ${model.displayName} entry`,
    description: `Answers the new entry, shaped by \`fields\` and \`populate\` as a read.${published}`,
    tags: [model.displayName],
    parameters: [...shaping(scope, model), ...localeParameter(model, 'The locale of the new entry when `data.locale` is not given (default: the default locale)')],
    requestBody: dataBody(`${name}Input`),
    responses: responses(`${name}Response`, [400, 401, 403, 413], true),
  };
}

function updateOperation(scope: SchemaScope, model: Model): OpenApiObject {
  const name = schemaName(scope, model);
  return {
    operationId: `update${name}`,
    summary: `Change a ${model.displayName} entry`,
    description: 'The attributes given change, the others stay. Answers the entry after the change.',
    tags: [model.displayName],
    parameters: [ID_PARAMETER, ...shaping(scope, model)],
    requestBody: dataBody(`${name}UpdateInput`),
    responses: responses(`${name}Response`, [400, 401, 403, 404, 413], true),
  };
}

function putSingle(scope: SchemaScope, model: Model): OpenApiObject {
  const name = schemaName(scope, model);
  return {
    operationId: `update${name}`,
    summary: `Change the ${model.displayName} entry, or create it`,
    description:
      'The attributes given change, the others stay. While the type has no entry at all, a PUT creates it (in `data.locale`, else `?locale=`); a locale without an entry is otherwise a 400 `singleType.alreadyExists`' +
      (hasLocalizationsRoute(model) ? ': create it with `POST …/localizations`' : '') + '. Answers the entry.',
    tags: [model.displayName],
    parameters: [...shaping(scope, model), ...localeParameter(model, 'The locale of the entry (default: the default locale)')],
    requestBody: dataBody(`${name}UpdateInput`),
    responses: responses(`${name}Response`, [400, 401, 403, 413], true),
  };
}

function deleteOperation(scope: SchemaScope, model: Model, id: OpenApiObject): OpenApiObject {
  return {
    operationId: `delete${schemaName(scope, model)}`,
    summary: `Delete a ${model.displayName} entry`,
    description: 'Deletes the entry with its components; answers it as it was.',
    tags: [model.displayName],
    parameters: [id, ...shaping(scope, model)],
    responses: responses(`${schemaName(scope, model)}Response`, [400, 401, 403, 404], true),
  };
}

/** A single type's DELETE answers the entry bare, as Strapi: `fields` and `populate` do not apply. */
function deleteSingle(scope: SchemaScope, model: Model): OpenApiObject {
  const drafts = model.draftAndPublish ? [query('publicationState', '`preview` finds a draft too (default `live`: a draft is a 404)', { enum: ['live', 'preview'] })] : [];
  return {
    operationId: `delete${schemaName(scope, model)}`,
    summary: `Delete the ${model.displayName} entry`,
    description: 'Deletes the entry of the locale with its components; answers it as it was, with its attributes only.',
    tags: [model.displayName],
    parameters: [...localeParameter(model, 'The locale of the entry (default: the default locale)'), ...drafts],
    responses: responses(`${schemaName(scope, model)}Response`, [400, 401, 403, 404], true),
  };
}

function localizationOperation(scope: SchemaScope, model: Model): OpenApiObject {
  const name = schemaName(scope, model);
  const single = model.kind === 'singleType';
  return {
    operationId: `create${name}Localization`,
    summary: single ? `Create the ${model.displayName} entry in another locale` : `Create a localization of a ${model.displayName} entry`,
    description: `The body is the new entry's attributes and its \`locale\`, without the \`data\` envelope. The new entry${model.draftAndPublish ? ' is a draft,' : ''} takes the ${single ? 'first entry\'s' : 'entry\'s'} attributes that are not localized (those the body gives go to the whole group) and joins its localizations. Answers Strapi's flat entity with its \`localizations\`.`,
    tags: [model.displayName],
    parameters: single ? [] : [ID_PARAMETER],
    requestBody: requestBody(ref(`${name}LocalizationInput`)),
    responses: responses(`${name}Localization`, [400, 401, 403, 404, 413], true),
  };
}
