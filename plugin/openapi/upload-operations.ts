/**
 * The media library's routes in the OpenAPI document, those the role may call: `POST /upload`
 * (`upload` on file: new files, or `?id=` to replace one or change its information), `GET
 * /upload/files` (`find`), `GET /upload/files/{id}` (`findOne`) and `DELETE /upload/files/{id}`
 * (`destroy`). Files are answered flat, as Strapi answers them (`MediaFile`), never in an envelope.
 */
import type { SchemaScope, JsonSchema } from './names.js';
import { ref } from './names.js';
import { fields, filters, ID_PARAMETER, pagination, query, sort, type OpenApiObject } from './parameters.js';
import { scalarSchema } from './response-schemas.js';

/** The schema names this file declares, kept from model schemas. */
export const UPLOAD_SCHEMA_NAMES = ['MediaFile', 'MediaFileInfo', 'MediaUpload'] as const;

export interface UploadOperations {
  readonly paths: Record<string, Record<string, OpenApiObject>>;
  readonly schemas: Record<string, JsonSchema>;
}

const json = (schema: JsonSchema): OpenApiObject => ({ content: { 'application/json': { schema } } });
const error = (description: string): OpenApiObject => ({ description, ...json(ref('Error')) });

export function uploadOperations(scope: SchemaScope, prefix: string, maxLimit: number): UploadOperations {
  const { registry, grants } = scope;
  const file = registry.file;
  const can = (action: 'upload' | 'find' | 'findOne' | 'destroy') => grants.can(file.uid, action);
  if (!can('upload') && !can('find') && !can('findOne') && !can('destroy')) return { paths: {}, schemas: {} };
  const properties: Record<string, JsonSchema> = { id: { type: 'integer' } };
  for (const attribute of file.defaultFields) properties[attribute.name] = scalarSchema(file, attribute);
  const schemas: Record<string, JsonSchema> = {
    // Not every property is required: `fields` narrows the list's files.
    MediaFile: { type: 'object', required: ['id'], additionalProperties: false, properties },
    MediaFileInfo: {
      type: 'object',
      description: 'A fileInfo part: JSON text of this object for one file, or of a list of them for several',
      properties: { name: { type: ['string', 'null'] }, alternativeText: { type: ['string', 'null'] }, caption: { type: ['string', 'null'] } },
    },
    MediaUpload: {
      type: 'object',
      properties: {
        files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: 'One part per file' },
        fileInfo: { type: 'string', description: 'JSON: a MediaFileInfo, or a list of them in the order of the files' },
        ref: { type: 'string', description: 'Attach the new files to an entry: the uid of its type (api::article.article)' },
        refId: { type: 'string', description: 'The id of that entry' },
        field: { type: 'string', description: 'Its media attribute' },
      },
    },
  };
  const tags = ['Media library'];
  const paths: Record<string, Record<string, OpenApiObject>> = {};
  if (can('upload')) {
    paths[`${prefix}/upload`] = {
      post: {
        operationId: 'uploadFiles',
        summary: 'Upload files (a list of the new files, in the order sent); with ?id= replace a file, or change its information with fileInfo alone (the file)',
        tags,
        parameters: [query('id', 'The file to replace, or whose information fileInfo changes', { type: 'integer', minimum: 1 })],
        requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('MediaUpload'), encoding: { files: { contentType: '*/*' } } } } },
        responses: {
          200: { description: 'OK: the new files, or with ?id= the file', ...json({ oneOf: [{ type: 'array', items: ref('MediaFile') }, ref('MediaFile')] }) },
          400: error('No file, a bad fileInfo, a bad name, ref, refId or field, an image that does not decode'),
          401: error('A bad or expired API token'),
          403: error('The role may not upload (or update the entry of ref)'),
          404: error('No file of that id'),
          413: error('A file over maxFileBytes (FileTooBig), or more than maxFiles files'),
          503: error('The file storage did not take the file'),
        },
      },
    };
  }
  const filesPath = `${prefix}/upload/files`;
  if (can('find')) {
    paths[filesPath] = {
      get: {
        operationId: 'findFiles',
        summary: 'List files',
        tags,
        parameters: [fields(file), filters(scope, file), sort(file), pagination(maxLimit)],
        responses: { 200: { description: 'OK', ...json({ type: 'array', items: ref('MediaFile') }) }, 400: error('A malformed query'), 401: error('A bad or expired API token'), 403: error('The role may not list files') },
      },
    };
  }
  const one: Record<string, OpenApiObject> = {};
  const answers = (what: string) => ({ 200: { description: 'OK', ...json(ref('MediaFile')) }, 401: error('A bad or expired API token'), 403: error(`The role may not ${what}`), 404: error('No such file') });
  if (can('findOne')) one.get = { operationId: 'findOneFile', summary: 'One file', tags, parameters: [ID_PARAMETER, fields(file)], responses: { ...answers('read files'), 400: error('A malformed query') } };
  if (can('destroy')) one.delete = { operationId: 'deleteFile', summary: 'Delete a file, its formats and its links (the file as it was)', tags, parameters: [ID_PARAMETER], responses: answers('delete files') };
  if (Object.keys(one).length) paths[`${filesPath}/{id}`] = one;
  return { paths, schemas };
}
