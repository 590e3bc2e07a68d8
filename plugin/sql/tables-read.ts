/**
 * The tables a compiled request reads, from its authorized query tree: the model's table, and per
 * hop (hops.ts) the link table and the target's table — a relation's link table, the owner's
 * `<table>_components` join table, `files_related_morphs` for media — through populates, filters,
 * sort paths and the row rules the access stage attached to them. A cached answer is kept under
 * these tables, and dropped when any of them is written (cache/response-cache.ts).
 *
 * It walks the tree as compile.ts does; test/cache/tables-read.test.ts compares it with the tables
 * named in the SQL each engine's compiler emits, so the two cannot drift apart.
 */
import { MORPH_TABLE, type Model } from '../schema/registry.js';
import type { Filter, PathAttribute, PopulateNode, RootQuery, Selection, SortKey } from '../query/tree.js';

/** The tables `root`'s statement reads, in no particular order. */
export function tablesRead(root: RootQuery): ReadonlySet<string> {
  const tables = new Set<string>([root.model.tableName]);
  const walker = new TableWalker(tables);
  walker.filter(root.filters, root.model);
  walker.sort(root.sort, root.model);
  walker.selection(root.selection, root.model);
  return tables;
}

/**
 * The tables a list's count reads: the model's table and those of its filters (the request's and
 * the row rules'), through which a known total is checked on MariaDB (dialect/mysql.ts).
 */
export function tablesCounted(root: RootQuery): ReadonlySet<string> {
  const tables = new Set<string>([root.model.tableName]);
  new TableWalker(tables).filter(root.filters, root.model);
  return tables;
}

class TableWalker {
  constructor(private readonly tables: Set<string>) {}

  /** The link table of one hop from `owner` through `attribute`, and the target's table. */
  hop(owner: Model, attribute: PathAttribute, target: Model): void {
    this.tables.add(linkTableOf(owner, attribute));
    this.tables.add(target.tableName);
  }

  filter(filter: Filter | null | undefined, model: Model): void {
    if (!filter) return;
    switch (filter.kind) {
      case 'and':
      case 'or':
        for (const item of filter.items) this.filter(item, model);
        return;
      case 'not':
        this.filter(filter.item, model);
        return;
      case 'related':
        this.hop(model, filter.attribute, filter.target);
        this.filter(filter.filter, filter.target);
        this.filter(filter.visible, filter.target);
        return;
      case 'compare':
        return;
    }
  }

  sort(keys: readonly SortKey[], model: Model): void {
    for (const key of keys) {
      let owner = model;
      for (const step of key.path) {
        this.hop(owner, step.attribute, step.target);
        this.filter(step.visible, step.target);
        owner = step.target;
      }
    }
  }

  selection(selection: Selection, model: Model): void {
    for (const node of selection.populate) this.populate(node, model);
  }

  private populate(node: PopulateNode, owner: Model): void {
    switch (node.kind) {
      case 'relation':
      case 'media':
        this.hop(owner, node.attribute, node.target);
        this.rows(node, node.target);
        return;
      case 'component':
        this.hop(owner, node.attribute, node.component);
        this.rows(node, node.component);
        return;
      case 'dynamiczone':
        if (!node.parts.length) return;
        this.tables.add(owner.componentJoinTable as string);
        for (const part of node.parts) {
          // A count reads the join rows, and a part's component rows only to apply its filters.
          if (!node.count || part.filters) this.tables.add(part.component.tableName);
          this.filter(part.filters, part.component);
          if (!node.count) this.selection(part.selection, part.component);
        }
        return;
    }
  }

  /** A populated list's own filters, sort and, unless it is only counted, its selection. */
  private rows(node: Exclude<PopulateNode, { kind: 'dynamiczone' }>, target: Model): void {
    this.filter(node.filters, target);
    const counted = node.kind !== 'media' && node.count;
    if (counted) return;
    this.sort(node.sort, target);
    this.selection(node.selection, target);
  }
}

/** The table a hop through `attribute` links through (hops.ts `hopThrough`). */
function linkTableOf(owner: Model, attribute: PathAttribute): string {
  switch (attribute.kind) {
    case 'relation':
      return attribute.link.table;
    case 'component':
      return owner.componentJoinTable as string;
    case 'media':
      return MORPH_TABLE;
  }
}
