/**
 * How a write reaches a relation's rows, from either side: the link table and its columns seen
 * from the row being written, the order of its own list, the order of the target's list (the other
 * side's order column, kept when a link is added), and whether a target may have only one source
 * (the other side is to-one: connecting it here takes it from where it was, as Strapi does).
 */
import { modelOf, type RelationAttribute, type Registry } from '../schema/registry.js';

export interface RelationLinks {
  readonly table: string;
  readonly sourceColumn: string;
  readonly targetColumn: string;
  /** The order of the source's list; null on a to-one side. */
  readonly orderColumn: string | null;
  /** The order of the target's list of sources; null when that side is to-one or absent. */
  readonly inverseOrderColumn: string | null;
  /** The other side is to-one: a target belongs to one source at most. */
  readonly exclusiveTarget: boolean;
}

export function relationLinks(registry: Registry, attribute: RelationAttribute): RelationLinks {
  const { table, sourceColumn, targetColumn, orderColumn } = attribute.link;
  const inverseName = attribute.inversedBy ?? attribute.mappedBy;
  const inverse = inverseName ? modelOf(registry, attribute.target).attributes.get(inverseName) : undefined;
  const inverseRelation = inverse?.kind === 'relation' ? inverse : null;
  const inverseOrderColumn = inverseRelation && inverseRelation.link.table === table ? inverseRelation.link.orderColumn : null;
  return {
    table,
    sourceColumn,
    targetColumn,
    orderColumn,
    inverseOrderColumn,
    exclusiveTarget: inverseRelation !== null && !inverseRelation.toMany,
  };
}
