/**
 * The built-in media file type (`plugin::upload.file`, table `files`), as Strapi 4.26's upload
 * plugin declares it. Media attributes of every model point at it through `files_related_morphs`.
 */
import { defaultFields, FILE_UID, NO_CONSTRAINTS, type Attribute, type Model, type ScalarAttribute, type StoredScalarType } from './registry.js';
import { columnName } from '../storage/naming.js';

const FILE_SCALARS: readonly [string, StoredScalarType, { required?: boolean; hidden?: boolean }?][] = [
  ['name', 'string', { required: true }],
  ['alternativeText', 'string'],
  ['caption', 'string'],
  ['width', 'integer'],
  ['height', 'integer'],
  ['formats', 'json'],
  ['hash', 'string', { required: true }],
  ['ext', 'string'],
  ['mime', 'string', { required: true }],
  ['size', 'decimal', { required: true }],
  ['url', 'string', { required: true }],
  ['previewUrl', 'string'],
  ['provider', 'string', { required: true }],
  ['provider_metadata', 'json'],
  ['folderPath', 'string', { required: true, hidden: true }],
  ['createdAt', 'datetime'],
  ['updatedAt', 'datetime'],
];

function fileScalar(name: string, type: StoredScalarType, flags: { required?: boolean; hidden?: boolean } = {}): ScalarAttribute {
  const hidden = flags.hidden === true;
  return {
    kind: 'scalar',
    name,
    type,
    column: columnName(name),
    hidden,
    searchable: type === 'string' && !hidden,
    required: flags.required === true,
    unique: false,
    enum: null,
    default: null,
    constraints: NO_CONSTRAINTS,
    localized: true,
    implicit: name === 'createdAt' || name === 'updatedAt',
  };
}

export function buildFileModel(): Model {
  const attributes = new Map<string, Attribute>();
  for (const [name, type, flags] of FILE_SCALARS) attributes.set(name, fileScalar(name, type, flags));
  attributes.set('related', { kind: 'morph', name: 'related', hidden: false });
  attributes.set('folder', { kind: 'internal', name: 'folder', column: null, hidden: true });
  attributes.set('createdBy', { kind: 'internal', name: 'createdBy', column: 'created_by_id', hidden: true });
  attributes.set('updatedBy', { kind: 'internal', name: 'updatedBy', column: 'updated_by_id', hidden: true });
  return {
    uid: FILE_UID,
    modelType: 'contentType',
    kind: 'collectionType',
    singularName: 'file',
    pluralName: 'files',
    displayName: 'File',
    tableName: 'files',
    componentJoinTable: null,
    draftAndPublish: false,
    localized: false,
    attributes,
    defaultFields: defaultFields(attributes),
    hasCreatorColumns: true,
    indexes: [],
    source: null,
  };
}
