/**
 * The relation from a `<table>_components` row to its component. The row holds `component_id`
 * and `component_type`; the id alone names a row of a different table per type, so a fetch for
 * one component type must only consider (and only fill) the rows of that type — otherwise the
 * rich-text row pointing at id 3 would be handed quote 3. Inserting goes as for any belongs-to
 * relation: the component row first, then the join row with its `component_id`.
 */
import { Model } from 'objection';

type RelationClass = typeof Model.BelongsToOneRelation;

interface OwnerLike {
  readonly isModels: boolean;
  readonly modelArray: Model[];
}

/** A belongs-to-one relation class that reaches its component only from rows whose `component_type` is `uid`. */
export function componentOfRowRelation(uid: string): RelationClass {
  const Base = Model.BelongsToOneRelation as unknown as new (...args: unknown[]) => { find(builder: unknown, owner: OwnerLike): unknown };
  class ComponentOfRowRelation extends Base {
    override find(builder: unknown, owner: OwnerLike): unknown {
      if (!owner.isModels) return super.find(builder, owner);
      const rows = owner.modelArray.filter((row) => (row as unknown as { component_type: unknown }).component_type === uid);
      const OwnerClass = owner.constructor as new (models: Model[]) => OwnerLike;
      return super.find(builder, new OwnerClass(rows));
    }
  }
  return ComponentOfRowRelation as unknown as RelationClass;
}
