/**
 * What the types and root fields of the generated schema stand for, for the door that executes
 * operations against it. Built alongside the schema and kept only for names the schema has.
 *
 *   types:     `Article` → the article's attributes, `ArticleEntity` → an article entry,
 *              `ArticleEntityResponse(Collection)`, `ArticleRelationResponseCollection`;
 *              `ComponentSharedSeo` → the component `shared.seo` (also as a zone union's member);
 *              `ArticleBlocksDynamicZone` → the zone `blocks` of the article.
 *   queries:   `articles` → find on the article, `article` → findOne, `global` → find on the
 *              single type; `me` → the users-permissions user.
 *   mutations: `createArticle` → create, `updateGlobal` → update on the single type,
 *              `createArticleLocalization` → createLocalization; `upload`, `login`, … → the
 *              plugin operation of that name on the file or user model.
 * `outsideRegistry` lists the uids of Strapi's own types the registry does not hold (no table):
 * the i18n locale, the upload folder, the users-permissions permission (see models.ts).
 */

export type TypeTarget =
  | { readonly kind: 'attributes' | 'entity' | 'entityResponse' | 'entityResponseCollection' | 'relationResponseCollection'; readonly uid: string }
  | { readonly kind: 'component'; readonly uid: string }
  | { readonly kind: 'zone'; readonly uid: string; readonly attribute: string };

export type OperationAction =
  | 'find'
  | 'findOne'
  | 'create'
  | 'update'
  | 'delete'
  | 'createLocalization'
  | 'me'
  | 'upload'
  | 'multipleUpload'
  | 'updateFileInfo'
  | 'removeFile'
  | 'login'
  | 'register'
  | 'forgotPassword'
  | 'resetPassword'
  | 'changePassword'
  | 'emailConfirmation';

export interface OperationTarget {
  readonly uid: string;
  readonly action: OperationAction;
  /** Whether the model is a single type (no `id` argument, one entry). */
  readonly single: boolean;
}

export interface GraphQLTargets {
  readonly types: ReadonlyMap<string, TypeTarget>;
  readonly queries: ReadonlyMap<string, OperationTarget>;
  readonly mutations: ReadonlyMap<string, OperationTarget>;
  readonly outsideRegistry: ReadonlySet<string>;
}

/** The targets as the schema's parts record them, before the unused ones are dropped. */
export interface TargetRecorder {
  readonly types: Map<string, TypeTarget>;
  readonly queries: Map<string, OperationTarget>;
  readonly mutations: Map<string, OperationTarget>;
}

export function newTargetRecorder(): TargetRecorder {
  return { types: new Map(), queries: new Map(), mutations: new Map() };
}
