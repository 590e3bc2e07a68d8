/**
 * The shape of a schema file once parsed and validated: Strapi's `schema.json` written as YAML.
 * These are the author's words, before any default or implicit attribute is added
 * (see normalize.ts for that).
 */

export const SCALAR_TYPES = [
  'string',
  'text',
  'richtext',
  'enumeration',
  'email',
  'password',
  'uid',
  'date',
  'time',
  'datetime',
  'timestamp',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'json',
  'blocks',
] as const;

export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** Keys every attribute may carry. */
export interface CommonAttributeDocument {
  required?: boolean;
  private?: boolean;
  unique?: boolean;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  /** string-like attributes: a JavaScript regular expression a non-empty value must match. */
  regex?: string;
  configurable?: boolean;
  searchable?: boolean;
  /** Whether sync indexes the attribute's column (not in Strapi). */
  index?: boolean;
  pluginOptions?: Record<string, unknown>;
}

/** An entry of a type's `indexes` list (not in Strapi). */
export interface IndexDocument {
  /** Default `<table>_<columns>_index`. */
  name?: string;
  /** Attribute names, in the index's order; `views:desc` makes that key descending. */
  attributes: string[];
}

export interface ScalarAttributeDocument extends CommonAttributeDocument {
  type: ScalarType;
  /** enumeration values */
  enum?: string[];
  /** uid: the attribute the uid is derived from */
  targetField?: string;
}

export interface RelationAttributeDocument extends CommonAttributeDocument {
  type: 'relation';
  relation: RelationKind;
  target: string;
  inversedBy?: string;
  mappedBy?: string;
}

export interface MediaAttributeDocument extends CommonAttributeDocument {
  type: 'media';
  multiple?: boolean;
  allowedTypes?: string[];
}

export interface ComponentAttributeDocument extends CommonAttributeDocument {
  type: 'component';
  component: string;
  repeatable?: boolean;
}

export interface DynamicZoneAttributeDocument extends CommonAttributeDocument {
  type: 'dynamiczone';
  components: string[];
}

export type AttributeDocument =
  | ScalarAttributeDocument
  | RelationAttributeDocument
  | MediaAttributeDocument
  | ComponentAttributeDocument
  | DynamicZoneAttributeDocument;

export interface ContentTypeDocument {
  /** Optional explicit uid (e.g. `plugin::users-permissions.user`); default `api::<singular>.<singular>`. */
  uid?: string;
  kind: 'collectionType' | 'singleType';
  collectionName: string;
  info: {
    singularName: string;
    pluralName: string;
    displayName: string;
    description?: string;
  };
  options?: { draftAndPublish?: boolean; [key: string]: unknown };
  pluginOptions?: { i18n?: { localized?: boolean }; [key: string]: unknown };
  attributes: Record<string, AttributeDocument>;
  indexes?: IndexDocument[];
}

export interface ComponentDocument {
  collectionName: string;
  info: { displayName: string; icon?: string; description?: string };
  options?: Record<string, unknown>;
  attributes: Record<string, AttributeDocument>;
  indexes?: IndexDocument[];
}

/** Where a value was written, for error messages. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** One loaded file: its document and a way to locate any YAML path inside it. */
export interface LoadedDocument<T> {
  file: string;
  document: T;
  /** line:column of the node at a YAML path (`['attributes', 'title', 'type']`), or of its nearest parent. */
  locate(path: readonly (string | number)[]): SourcePosition;
  /**
   * Attributes left out of `document` because their own declaration is invalid (and reported):
   * the rest of the file is still checked, and a reference to one of these is not reported again.
   */
  invalidAttributes?: ReadonlySet<string>;
}

export interface LoadedContentType extends LoadedDocument<ContentTypeDocument> {
  kind: 'contentType';
}

export interface LoadedComponent extends LoadedDocument<ComponentDocument> {
  kind: 'component';
  /** `<category>.<name>`: the folder and the file name. */
  uid: string;
}
