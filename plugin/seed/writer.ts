/**
 * Writes demo entries through the generated Objection models, the way Strapi v4 stores them:
 * relations as rows of the owning side's link table with its order columns, components as rows
 * of `<table>_components` (`order` 1.0, 2.0… for repeatables and zones, NULL for a single
 * component), media as rows of `files_related_morphs` naming the owner's uid. Every attribute is
 * looked up in the registry first, so a schema that differs from the example fails with a message
 * naming what is missing instead of a database error.
 */
import type { Attribute, Registry } from '../schema/registry.js';
import type { ModelSet } from '../storage/models.js';
import type { TableModel } from '../storage/table-model.js';

/** Column values of one row, by column name, as the models hold them. */
export type Row = Record<string, unknown>;

/** One entry of a dynamic zone: the component uid and its row. */
export interface ZoneBlock {
  readonly component: string;
  readonly row: Row;
}

type AttributeKind = Attribute['kind'];
type AttributeOf<K extends AttributeKind> = Extract<Attribute, { kind: K }>;

/** Accepts one id, a list of ids, or nothing, for to-one and to-many attributes alike. */
function idList(ids: number | readonly number[] | null | undefined): readonly number[] {
  if (ids === null || ids === undefined) return [];
  return typeof ids === 'number' ? [ids] : ids;
}

export class SeedWriter {
  /** The last inverse order given per link table and target row: Strapi appends to the target's list. */
  private readonly inverseOrders = new Map<string, number>();

  constructor(
    private readonly registry: Registry,
    private readonly models: ModelSet,
  ) {}

  /** Inserts a row into the own table of a content type, a component or the file type. */
  async create(uid: string, row: Row): Promise<TableModel> {
    return (await this.modelClass(uid).query().insert(row)) as TableModel;
  }

  /** A row written earlier, by id, to link or attach from. */
  existing(uid: string, id: number): TableModel {
    return this.modelClass(uid).fromJson({ id }) as TableModel;
  }

  /**
   * Links `owner` to `targets` through the link table of its owning-side relation `name`, in list
   * order: the owner-side order column counts 1, 2, 3… and the inverse one (on bidirectional
   * manyTo* relations) places the owner last in each target's list.
   */
  async link(owner: TableModel, name: string, targets: number | readonly number[] | null | undefined): Promise<void> {
    const attribute = this.attribute(owner, name, 'relation');
    const linkTable = attribute.linkTable;
    if (!linkTable) throw new Error(`${this.uidOf(owner)}.${name} is the mappedBy side; the demo data links from the owning side`);
    const ids = idList(targets);
    if (!attribute.toMany && ids.length > 1) throw new Error(`${this.uidOf(owner)}.${name} is a to-one relation`);
    for (const [index, id] of ids.entries()) {
      const row: Row = { id };
      if (linkTable.orderColumn) row[linkTable.orderColumn] = index + 1;
      if (linkTable.inverseOrderColumn) row[linkTable.inverseOrderColumn] = this.nextInverseOrder(linkTable.name, id);
      await owner.$relatedQuery<TableModel>(name).relate(row);
    }
  }

  /** Attaches files to the media attribute `name`, `order` 1.0, 2.0… (a single file gets 1.0, as Strapi writes it). */
  async attachMedia(owner: TableModel, name: string, fileIds: number | readonly number[] | null | undefined): Promise<void> {
    const attribute = this.attribute(owner, name, 'media');
    const ids = idList(fileIds);
    if (!attribute.multiple && ids.length > 1) throw new Error(`${this.uidOf(owner)}.${name} holds a single file`);
    for (const [index, id] of ids.entries()) {
      await owner.$relatedQuery<TableModel>(name).relate({ id, order: index + 1 });
    }
  }

  /** Creates the single component `name` of `owner`; its join row has no order. */
  async addComponent(owner: TableModel, name: string, row: Row): Promise<TableModel> {
    const attribute = this.attribute(owner, name, 'component');
    if (attribute.repeatable) throw new Error(`${this.uidOf(owner)}.${name} is a repeatable component; use addComponents`);
    return (await owner.$relatedQuery<TableModel>(name).insert(row)) as TableModel;
  }

  /** Creates the repeatable component `name` of `owner`, one per row, in order 1.0, 2.0… */
  async addComponents(owner: TableModel, name: string, rows: readonly Row[]): Promise<TableModel[]> {
    const attribute = this.attribute(owner, name, 'component');
    if (!attribute.repeatable) throw new Error(`${this.uidOf(owner)}.${name} is a single component; use addComponent`);
    const created: TableModel[] = [];
    for (const [index, row] of rows.entries()) {
      created.push((await owner.$relatedQuery<TableModel>(name).insert({ ...row, order: index + 1 })) as TableModel);
    }
    return created;
  }

  /** Creates the blocks of the dynamic zone `name`: one order sequence across the zone, polymorphic by `component_type`. */
  async fillZone(owner: TableModel, name: string, blocks: readonly ZoneBlock[]): Promise<TableModel[]> {
    const attribute = this.attribute(owner, name, 'dynamiczone');
    const created: TableModel[] = [];
    for (const [index, block] of blocks.entries()) {
      if (!attribute.components.includes(block.component)) {
        throw new Error(`${this.uidOf(owner)}.${name} does not accept ${block.component}; it accepts ${attribute.components.join(', ')}`);
      }
      const component = await this.create(block.component, block.row);
      await owner.$relatedQuery<TableModel>(name).insert({
        component_id: component.id,
        component_type: block.component,
        field: name,
        order: index + 1,
      });
      created.push(component);
    }
    return created;
  }

  private nextInverseOrder(table: string, targetId: number): number {
    const key = `${table}#${targetId}`;
    const order = (this.inverseOrders.get(key) ?? 0) + 1;
    this.inverseOrders.set(key, order);
    return order;
  }

  private modelClass(uid: string): typeof TableModel {
    if (!this.registry.models.has(uid)) throw new Error(`the demo data needs ${uid}, which the schema does not declare`);
    return this.models.model(uid);
  }

  private uidOf(owner: TableModel): string {
    const uid = (owner.constructor as typeof TableModel).uid;
    if (!uid) throw new Error(`${(owner.constructor as typeof TableModel).tableName} is not the table of a model`);
    return uid;
  }

  /** The attribute `name` of the owner's model, which must be of `kind`. */
  private attribute<K extends AttributeKind>(owner: TableModel, name: string, kind: K): AttributeOf<K> {
    const uid = this.uidOf(owner);
    const attribute = this.registry.models.get(uid)?.attributes.get(name);
    if (attribute?.kind !== kind) {
      const found = attribute ? `it is a ${attribute.kind}` : 'the schema does not declare it';
      throw new Error(`the demo data needs ${uid}.${name} to be a ${kind}, as in the example schema; ${found}`);
    }
    return attribute as AttributeOf<K>;
  }
}
