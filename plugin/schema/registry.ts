/**
 * The schema registry: every content type and component of a schema folder, normalized, with the
 * implicit attributes Strapi adds and the table and column names of the Strapi v4 layout resolved.
 * Built once at start-up (normalize.ts) and frozen; every later stage reads it, none changes it.
 */
import type { RelationKind, ScalarType, SourcePosition } from './document.js';

export type { RelationKind, ScalarType };

/** The scalar types of the registry: a document's `blocks` is `json` with its `format`. */
export type StoredScalarType = Exclude<ScalarType, 'blocks'>;

/**
 * The limits a schema file puts on a scalar value, checked when an entry is written. Bounds are
 * kept as written: a biginteger bound may be a string so that it stays exact past 2^53.
 */
export interface ScalarConstraints {
  /** Fewest characters of a non-empty string. */
  readonly minLength: number | null;
  readonly maxLength: number | null;
  readonly min: number | string | null;
  readonly max: number | string | null;
  /** A JavaScript regular expression (no flags) a non-empty string must match. */
  readonly regex: string | null;
}

/** A column of the model's own table holding a value. */
export interface ScalarAttribute {
  readonly kind: 'scalar';
  readonly name: string;
  readonly type: StoredScalarType;
  /**
   * `blocks` for Strapi's blocks editor: stored, read, filtered and sorted as `json` (its type
   * here), written only as the editor's nodes.
   */
  readonly format?: 'blocks';
  readonly column: string;
  /** private or password: never selected, and a 400 when named in fields, filters or sort. */
  readonly hidden: boolean;
  /** Whether `_q` may search it (string-like, not hidden, not `searchable: false`). */
  readonly searchable: boolean;
  readonly required: boolean;
  readonly unique: boolean;
  readonly enum: readonly string[] | null;
  readonly default: unknown;
  readonly constraints: ScalarConstraints;
  /**
   * In a localized type, whether each locale holds its own value (`pluginOptions.i18n.localized:
   * true`, and every uid); the others are shared, and copied into a new localization, as Strapi's
   * i18n plugin does.
   */
  readonly localized: boolean;
  /** Implicit attributes (createdAt, updatedAt, publishedAt, locale) are not written by the author. */
  readonly implicit: boolean;
}

/**
 * How to walk from a row of the owning model to the rows of the target through a link table:
 * `link.sourceColumn = owner.id` and `target.id = link.targetColumn`, ordered by `orderColumn`.
 * A mappedBy side reads its owner's link table with the columns swapped.
 */
export interface LinkPath {
  readonly table: string;
  readonly sourceColumn: string;
  readonly targetColumn: string;
  /** The order of the targets as arranged for one source row; null on to-one sides. */
  readonly orderColumn: string | null;
}

/** The link table a relation's owning side creates, exactly as Strapi v4 names it. */
export interface LinkTable {
  readonly name: string;
  readonly ownerTable: string;
  readonly targetTable: string;
  readonly joinColumn: string;
  readonly inverseJoinColumn: string;
  /** `<targetSingular>_order`, on *ToMany sides. */
  readonly orderColumn: string | null;
  /** `<ownerSingular>_order`, on bidirectional manyTo* relations. */
  readonly inverseOrderColumn: string | null;
}

export interface RelationAttribute {
  readonly kind: 'relation';
  readonly name: string;
  readonly relation: RelationKind;
  /** uid of the target model */
  readonly target: string;
  readonly toMany: boolean;
  readonly hidden: boolean;
  readonly inversedBy: string | null;
  readonly mappedBy: string | null;
  readonly link: LinkPath;
  /** Set on the owning side only: the table this side creates. */
  readonly linkTable: LinkTable | null;
  readonly implicit: boolean;
  readonly required: boolean;
}

export interface MediaAttribute {
  readonly kind: 'media';
  readonly name: string;
  readonly multiple: boolean;
  readonly hidden: boolean;
  readonly allowedTypes: readonly string[] | null;
  readonly required: boolean;
}

export interface ComponentAttribute {
  readonly kind: 'component';
  readonly name: string;
  /** uid of the component (`shared.seo`) */
  readonly component: string;
  readonly repeatable: boolean;
  readonly hidden: boolean;
  readonly required: boolean;
  /** Fewest and most items of a repeatable component. */
  readonly min: number | null;
  readonly max: number | null;
}

export interface DynamicZoneAttribute {
  readonly kind: 'dynamiczone';
  readonly name: string;
  readonly components: readonly string[];
  readonly hidden: boolean;
  readonly required: boolean;
  /** Fewest and most items of the zone. */
  readonly min: number | null;
  readonly max: number | null;
}

/**
 * Attributes that exist in the layout but are never part of the API: `createdBy`/`updatedBy`
 * (admin users), the media file's `folder`. Populating them is silently ignored; naming them in
 * fields, filters or sort is a 400.
 */
export interface InternalAttribute {
  readonly kind: 'internal';
  readonly name: string;
  /** The foreign-key column, when the attribute has one in the model's table. */
  readonly column: string | null;
  readonly hidden: true;
}

/** The media file's polymorphic `related` list: never populated, filtered or sorted (D12). */
export interface MorphAttribute {
  readonly kind: 'morph';
  readonly name: string;
  readonly hidden: boolean;
}

export type Attribute =
  | ScalarAttribute
  | RelationAttribute
  | MediaAttribute
  | ComponentAttribute
  | DynamicZoneAttribute
  | InternalAttribute
  | MorphAttribute;

export type PopulatableAttribute = RelationAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;

/**
 * An index a schema file declares on its type's own table: `index: true` on an attribute, or an
 * entry of the type's `indexes` list. Strapi v4 has no such option; `sync` creates these.
 */
export interface DeclaredIndex {
  readonly name: string;
  /** The attributes as written (`views`, `publishedAt`), in order. */
  readonly attributes: readonly string[];
  /** Their columns in the type's own table, in the same order. */
  readonly columns: readonly string[];
  /** Per column, whether its key is descending (`views:desc`): MariaDB reads an index backwards only whole. */
  readonly descending: readonly boolean[];
}

export interface Model {
  /** `api::article.article`, `plugin::users-permissions.user`, `plugin::upload.file`, `shared.seo` */
  readonly uid: string;
  readonly modelType: 'contentType' | 'component';
  /** collectionType or singleType for content types; null for components. */
  readonly kind: 'collectionType' | 'singleType' | null;
  /** content types: info.singularName; components: the file name (`seo`, `related-content`). */
  readonly singularName: string;
  /** content types: info.pluralName (the route); components: null. */
  readonly pluralName: string | null;
  readonly displayName: string;
  readonly tableName: string;
  /** `<tableName>_components`, when the model has component or dynamic-zone attributes. */
  readonly componentJoinTable: string | null;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  /** Every attribute in response order: the author's, then createdAt, updatedAt, publishedAt, locale, localizations. */
  readonly attributes: ReadonlyMap<string, Attribute>;
  /** The scalars returned by default (not hidden), in response order. */
  readonly defaultFields: readonly ScalarAttribute[];
  /** Whether the table has created_by_id/updated_by_id columns (content types and the file type). */
  readonly hasCreatorColumns: boolean;
  /** The indexes the schema file declares (`index: true`, `indexes:`), beyond Strapi's layout. */
  readonly indexes: readonly DeclaredIndex[];
  /** Where the model was declared, for error messages; null for built-in models. */
  readonly source: SourcePosition | null;
}

export interface Registry {
  /** Every model by uid, content types first, then components. */
  readonly models: ReadonlyMap<string, Model>;
  readonly contentTypes: readonly Model[];
  readonly components: readonly Model[];
  /** The built-in media file type (`plugin::upload.file`, table `files`). */
  readonly file: Model;
  /** Content types by their route segment: pluralName for collection types, singularName for single types. */
  readonly routes: ReadonlyMap<string, Model>;
  readonly i18n: { readonly defaultLocale: string };
}

/** The constraints of an attribute that declares none (implicit attributes, the file type's). */
export const NO_CONSTRAINTS: ScalarConstraints = Object.freeze({ minLength: null, maxLength: null, min: null, max: null, regex: null });

export const FILE_UID = 'plugin::upload.file';
export const MORPH_TABLE = 'files_related_morphs';

/** Look a model up by uid, failing loudly: the registry guarantees every reference resolves. */
export function modelOf(registry: Registry, uid: string): Model {
  const model = registry.models.get(uid);
  if (!model) throw new Error(`unknown model ${uid}`);
  return model;
}

export function isPopulatable(attribute: Attribute): attribute is PopulatableAttribute {
  return (
    attribute.kind === 'relation' ||
    attribute.kind === 'media' ||
    attribute.kind === 'component' ||
    attribute.kind === 'dynamiczone'
  );
}

/** The scalars an entry returns when no `fields` are asked for: every one not hidden, in order. */
export function defaultFields(attributes: ReadonlyMap<string, Attribute>): ScalarAttribute[] {
  return [...attributes.values()].filter((attribute): attribute is ScalarAttribute => attribute.kind === 'scalar' && !attribute.hidden);
}
