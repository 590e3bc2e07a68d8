/**
 * What a write body asks for, once parsed against the schema: per row (the entry, and each of its
 * components at any depth) the scalar values to store and the changes to its relations, media and
 * components. Built by parse-data.ts, checked against the database by check-references.ts, and
 * carried out by apply-row.ts inside one transaction.
 */
import type { ComponentAttribute, DynamicZoneAttribute, MediaAttribute, Model, RelationAttribute } from '../schema/registry.js';
import type { DataPath } from '../errors.js';

/** Where `connect` puts an entry in the list (Strapi's `position`); none means at the end. */
export type Position =
  | { readonly kind: 'start' }
  | { readonly kind: 'end' }
  | { readonly kind: 'before'; readonly id: number }
  | { readonly kind: 'after'; readonly id: number };

export interface RelationItem {
  readonly id: number;
  readonly position: Position | null;
}

/** `set` replaces the whole list (connect and disconnect are then ignored, as in Strapi); otherwise disconnect, then connect. */
export interface RelationOperations {
  readonly set: readonly RelationItem[] | null;
  readonly connect: readonly RelationItem[];
  readonly disconnect: readonly number[];
}

export interface RelationChange extends RelationOperations {
  readonly attribute: RelationAttribute;
  readonly path: DataPath;
}

/** The files of a media attribute, in order; replaces what it held. */
export interface MediaChange {
  readonly attribute: MediaAttribute;
  readonly path: DataPath;
  readonly fileIds: readonly number[];
}

/** One component of a component attribute or dynamic zone: an existing one by id (updated in place), or a new one. */
export interface ComponentItem {
  readonly component: Model;
  readonly id: number | null;
  readonly row: RowWrite;
  readonly path: DataPath;
}

/** The components an attribute holds after the write, in order; the ones not listed are deleted. */
export interface ComponentChange {
  readonly attribute: ComponentAttribute | DynamicZoneAttribute;
  readonly path: DataPath;
  readonly items: readonly ComponentItem[];
}

/** The writes of one row of `model`. */
export interface RowWrite {
  readonly model: Model;
  /** Attribute name → value, converted (see write/scalar-values.ts); only the attributes the body names. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly relations: readonly RelationChange[];
  readonly media: readonly MediaChange[];
  readonly components: readonly ComponentChange[];
}
