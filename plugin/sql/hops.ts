/**
 * One step from a row to the rows an attribute reaches, through the Strapi v4 tables:
 * a relation through its link table, a component or dynamic-zone entry through the owner's
 * `<table>_components` join table, a media file through `files_related_morphs`.
 * Every populate, filter and sort through an attribute is written from a Hop.
 */
import { MORPH_TABLE, type Model } from '../schema/registry.js';
import type { PathAttribute } from '../query/tree.js';
import type { CompileContext } from './context.js';
import { literal, quoteIdentifier as q } from './dialect/dialect.js';

export interface Hop {
  /** `"link" l1` */
  readonly linkTable: string;
  /** `"target" x2 ON x2."id" = l1."target_id"` */
  readonly targetJoin: string;
  /** The link column holding the owner's id (`l1."article_id"`). */
  readonly ownerKey: string;
  /** Conditions on the link rows that do not depend on the owner (`j."field" = 'seo'`). */
  readonly conditions: readonly string[];
  /** The target rows' alias. */
  readonly target: string;
  /** The link's own order (the editor's arrangement), then its id. */
  readonly order: readonly string[];
  /** The link table's alias. */
  readonly link: string;
}

/** The hop through `attribute` of `owner` to rows of `target`. */
export function hopThrough(context: CompileContext, owner: Model, attribute: PathAttribute, target: Model): Hop {
  const link = context.alias('l');
  const alias = context.alias('x');
  const join = (table: string, column: string) => ({
    linkTable: `${q(table)} ${link}`,
    targetJoin: `${q(target.tableName)} ${alias} ON ${alias}."id" = ${link}.${q(column)}`,
  });
  switch (attribute.kind) {
    case 'relation': {
      const path = attribute.link;
      return {
        ...join(path.table, path.targetColumn),
        ownerKey: `${link}.${q(path.sourceColumn)}`,
        conditions: [],
        target: alias,
        order: [...(path.orderColumn ? [`${link}.${q(path.orderColumn)}`] : []), `${link}."id"`],
        link,
      };
    }
    case 'component':
      return {
        ...join(owner.componentJoinTable as string, 'component_id'),
        ownerKey: `${link}."entity_id"`,
        conditions: [`${link}."field" = ${literal(attribute.name)}`],
        target: alias,
        order: [`${link}."order"`, `${link}."id"`],
        link,
      };
    case 'media':
      return {
        ...join(MORPH_TABLE, 'file_id'),
        ownerKey: `${link}."related_id"`,
        conditions: [`${link}."related_type" = ${literal(owner.uid)}`, `${link}."field" = ${literal(attribute.name)}`],
        target: alias,
        order: [`${link}."order"`, `${link}."id"`],
        link,
      };
  }
}

/** `WHERE` terms tying a hop to its owner row `ownerAlias`. */
export function correlate(hop: Hop, ownerAlias: string): string[] {
  return [`${hop.ownerKey} = ${ownerAlias}."id"`, ...hop.conditions];
}

/** The hop's FROM clause: the link table joined to the target. */
export function hopFrom(hop: Hop): string {
  return `${hop.linkTable} JOIN ${hop.targetJoin}`;
}

export function whereClause(conditions: readonly string[]): string {
  return conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
}
