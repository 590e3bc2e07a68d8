/**
 * The query tree: what a request asks for, with every name resolved against the registry.
 * Built by query/parse.ts (which answers 400s), pruned by access/authorize.ts (403s, silent
 * removal of populate nodes the role may not see), compiled by sql/compile.ts. Nodes are plain
 * frozen objects with a `kind` discriminant; no stage after parsing sees an unknown name.
 */
import type {
  ComponentAttribute,
  DynamicZoneAttribute,
  MediaAttribute,
  Model,
  RelationAttribute,
  ScalarAttribute,
} from '../schema/registry.js';
import type { CallerVariable } from './caller-variable.js';

export type PublicationState = 'live' | 'preview';
export type SortDirection = 'asc' | 'desc';

/** What to return for the rows of one model: scalar fields (id always) and populated attributes. */
export interface Selection {
  /** In response order (the model's attribute order); `id` is implied. */
  readonly fields: readonly ScalarAttribute[];
  /** In request order (schema order for `*`). */
  readonly populate: readonly PopulateNode[];
}

/** Options shared by the nodes that load rows: nested filters, sort and a per-parent window. */
export interface RowOptions {
  readonly filters: Filter | null;
  readonly sort: readonly SortKey[];
  /** `populate[x][start|limit]`, applied per parent entry (D3). */
  readonly window: PopulateWindow | null;
}

export interface PopulateWindow {
  readonly start: number;
  /** null: no limit */
  readonly limit: number | null;
}

/**
 * The JSON a GraphQL selection asks of one row (or of a wrapper around rows), key by key in the
 * selection's order and under its aliases. Trees of the REST door carry none: their rows are
 * Strapi's REST envelope. A key names what it holds; a field or populate node the access stage
 * pruned answers null under its key.
 */
export type Shape = readonly ShapeKey[];

export type ShapeKey =
  /** The row's id, as the string GraphQL's `ID` is. */
  | { readonly key: string; readonly kind: 'id' }
  | { readonly key: string; readonly kind: 'typename'; readonly name: string }
  /** A scalar attribute of the row, by name. */
  | { readonly key: string; readonly kind: 'field'; readonly name: string }
  /** The populate node of the row's selection whose `ref` this is. */
  | { readonly key: string; readonly kind: 'populate'; readonly ref: string }
  /**
   * A JSON value the door computed before the statement, chosen by a column of the row: `cases`
   * pairs a column value (null: the column is NULL) with the JSON text answered for it.
   */
  | { readonly key: string; readonly kind: 'choice'; readonly column: string; readonly cases: readonly (readonly [string | null, string])[]; readonly otherwise: string }
  /** An object of keys of the same row (`attributes`). */
  | { readonly key: string; readonly kind: 'object'; readonly shape: Shape }
  /** In a wrapper: the rows it wraps (an entry or null, or a list). */
  | { readonly key: string; readonly kind: 'rows' }
  /** In a list's wrapper: its pagination figures. */
  | { readonly key: string; readonly kind: 'total' | 'page' | 'pageSize' | 'pageCount' };

/** A node's rows in a GraphQL answer: the wrapper (`{ data }`, a response type) around rows shaped `row`. */
export interface NodeShape {
  readonly wrapper: Shape;
  readonly row: Shape;
}

/** What a GraphQL answer needs of every populate node: its name among its siblings, and its shape. */
interface GraphNode {
  /** Set with `shape`: distinguishes two nodes of one attribute (GraphQL aliases). */
  readonly ref?: string;
  readonly shape?: NodeShape;
}

export interface RelationNode extends RowOptions, GraphNode {
  readonly kind: 'relation';
  readonly attribute: RelationAttribute;
  readonly target: Model;
  readonly selection: Selection;
  /** `populate[x][count]=true`: `{ data: { attributes: { count } } }` instead of rows. */
  readonly count: boolean;
  /** `populate[x][publicationState]`; null inherits the root's. */
  readonly publicationState: PublicationState | null;
}

export interface MediaNode extends RowOptions, GraphNode {
  readonly kind: 'media';
  readonly attribute: MediaAttribute;
  /** The media file model. */
  readonly target: Model;
  readonly selection: Selection;
}

export interface ComponentNode extends RowOptions, GraphNode {
  readonly kind: 'component';
  readonly attribute: ComponentAttribute;
  readonly component: Model;
  readonly selection: Selection;
  /** `{ count }` instead of entries. */
  readonly count: boolean;
}

/** One component type of a dynamic zone with what to return for its entries. */
export interface DynamicZonePart {
  readonly component: Model;
  readonly selection: Selection;
  readonly filters: Filter | null;
  /** A GraphQL answer's keys for entries of this component (`... on ComponentX`). */
  readonly shape?: Shape;
}

export interface DynamicZoneNode extends GraphNode {
  readonly kind: 'dynamiczone';
  readonly attribute: DynamicZoneAttribute;
  /** The component types to return; entries of the others are dropped (`on` form). */
  readonly parts: readonly DynamicZonePart[];
  readonly window: PopulateWindow | null;
  readonly count: boolean;
}

export type PopulateNode = RelationNode | MediaNode | ComponentNode | DynamicZoneNode;

export type ComparisonOperator =
  | '$eq'
  | '$eqi'
  | '$ne'
  | '$nei'
  | '$lt'
  | '$lte'
  | '$gt'
  | '$gte'
  | '$in'
  | '$notIn'
  | '$contains'
  | '$notContains'
  | '$containsi'
  | '$notContainsi'
  | '$startsWith'
  | '$startsWithi'
  | '$endsWith'
  | '$endsWithi'
  | '$null'
  | '$notNull'
  | '$between';

/**
 * A filter value cast to its attribute's type: integers and floats as numbers, bigintegers as
 * exact decimal strings, booleans as booleans, dates `YYYY-MM-DD`, times `HH:mm:ss.SSS`,
 * datetimes as epoch milliseconds, strings as strings. The dialect turns them into parameters.
 */
export type FilterValue = string | number | boolean | null;

/** A compared value: a cast filter value, or, in a row rule of permissions.yaml, a variable of the caller. */
export type CompareValue = FilterValue | CallerVariable;

/** The id column is not an attribute of the registry but can be filtered and sorted. */
export interface IdField {
  readonly kind: 'id';
  readonly name: 'id';
  readonly column: 'id';
  readonly type: 'integer';
}

export const ID_FIELD: IdField = Object.freeze({ kind: 'id', name: 'id', column: 'id', type: 'integer' });

export type Field = ScalarAttribute | IdField;

export interface CompareFilter {
  readonly kind: 'compare';
  readonly field: Field;
  readonly operator: ComparisonOperator;
  /** One value for most operators; a list for $in/$notIn and $between (exactly two). $null/$notNull hold a boolean. */
  readonly values: readonly CompareValue[];
}

/** An attribute reached from the current row: a relation, a component or a media attribute. */
export type PathAttribute = RelationAttribute | ComponentAttribute | MediaAttribute;

/** True when some row reached through `attribute` satisfies `filter` (any row when null). */
export interface RelatedFilter {
  readonly kind: 'related';
  readonly attribute: PathAttribute;
  readonly target: Model;
  readonly filter: Filter | null;
  /** The parameter path of the attribute (`filters.$or[1].category`), for the access stage's 400s. */
  readonly path: string;
  /** The rows of the target the caller may see (its row rule, set by the access stage); others count as absent. */
  readonly visible?: Filter | null;
}

export interface LogicalFilter {
  readonly kind: 'and' | 'or';
  readonly items: readonly Filter[];
}

export interface NotFilter {
  readonly kind: 'not';
  readonly item: Filter;
}

export type Filter = CompareFilter | RelatedFilter | LogicalFilter | NotFilter;

/** One step through a relation, component or media attribute on the way to a sort field. */
export interface PathStep {
  readonly attribute: PathAttribute;
  readonly target: Model;
  /** The parameter path up to this step (`sort[0]`, `populate.categories.sort`), for the access stage's 400s. */
  readonly path: string;
  /** The rows of the target the caller may see (its row rule, set by the access stage). */
  readonly visible?: Filter | null;
}

export interface SortKey {
  readonly path: readonly PathStep[];
  readonly field: Field;
  readonly direction: SortDirection;
}

export type Pagination =
  | { readonly mode: 'page'; readonly page: number; readonly pageSize: number; readonly withCount: boolean }
  | { readonly mode: 'offset'; readonly start: number; readonly limit: number; readonly withCount: boolean };

/** null: every locale (`locale=all`), else the codes to match. */
export type LocaleFilter = readonly string[] | null;

export interface RootQuery {
  readonly kind: 'root';
  readonly model: Model;
  readonly action: 'find' | 'findOne';
  /** findOne: the entry's id. */
  readonly id: number | null;
  readonly selection: Selection;
  readonly filters: Filter | null;
  readonly sort: readonly SortKey[];
  readonly pagination: Pagination;
  /** Only for localized types on find; findOne looks an entry up by id in any locale. */
  readonly locale: LocaleFilter;
  readonly publicationState: PublicationState;
  /** `_q`: search text over the searchable fields. */
  readonly search: string | null;
  /** Attributes `_q` must not search: those a field rule hides from the caller (set by the access stage). */
  readonly unsearchable?: ReadonlySet<string>;
  /** A GraphQL answer's shape of the root field (absent: Strapi's REST envelope). */
  readonly shape?: NodeShape;
}

/**
 * What a read answers: a list with its pagination, one entry (findOne, or a single type: `{ data:
 * entry }`, a 404 without one), or a single type's entries of every locale (`locale=all`: `{ data:
 * [...], meta: {} }`, sorted and filtered but not paginated, as Strapi 4.26.2 answers it).
 */
export function answerShape(root: Pick<RootQuery, 'action' | 'model' | 'locale'>): 'list' | 'entry' | 'locales' {
  if (root.action === 'findOne') return 'entry';
  if (root.model.kind !== 'singleType') return 'list';
  return root.model.localized && root.locale === null ? 'locales' : 'entry';
}
