/**
 * A request's cost before it runs, from the query tree and the data's figures (statistics.ts):
 * the entries its body holds, the body's bytes, and the rows the statement reads. Each populated
 * list multiplies its parent's rows by the average number of links per owner (its window caps
 * it); a populate with filters is taken to keep a quarter of them. The estimate decides two
 * things only: a body estimated far over the response budget is refused without running
 * (read.ts), and a statement shape never seen before is admitted as light when its estimate is
 * small (admission.ts) instead of waiting as heavy.
 */
import type { Model } from '../schema/registry.js';
import type { Filter, PopulateNode, RootQuery, Selection, SortKey } from '../query/tree.js';
import type { Statistics } from './statistics.js';

export interface Estimate {
  /** Entries (rows of every model) the body holds. */
  readonly entries: number;
  readonly bytes: number;
  /** Rows the statement reads: scanned for the count, filters and sort, and built into JSON. */
  readonly work: number;
}

/** Share of its links a populate with filters is taken to keep. */
const FILTERED_SHARE = 0.25;
/** Building an entry's JSON, in rows read. */
const ENTRY_WORK = 20;
/** Below this work, a statement never seen before is admitted as light. */
export const LIGHT_WORK = 100_000;
/**
 * At most this work, a SQLite statement may run on the event loop (sqlite-executor.ts): measured on
 * the large fixture, such statements take under 0.2 ms (docs/performance.md).
 */
export const TINY_WORK = 500;

/** Bytes of a value's JSON by type, where it does not vary much. */
const FIXED_BYTES: Readonly<Record<string, number>> = {
  integer: 6,
  biginteger: 14,
  float: 10,
  decimal: 10,
  boolean: 5,
  date: 12,
  time: 14,
  datetime: 26,
  timestamp: 26,
};

/** The estimate, or null when a table it needs has no figures (none gathered yet, or unreadable). */
export function estimateRequest(root: RootQuery, statistics: Statistics): Estimate | null {
  if (!statistics.ready) return null;
  const table = statistics.table(root.model.tableName);
  if (!table) return null;
  const rows = root.action === 'findOne' ? 1 : Math.min(table.rows, pageSize(root));
  const built = selectionCost(root.model, root.selection, rows, statistics);
  if (!built) return null;
  // A list counts and pages over its matching rows: each of them is read, and every link table a
  // filter or sort goes through.
  const scanned = root.action === 'findOne' ? 1 : table.rows + filterWork(root.filters, statistics) + sortWork(root.sort, statistics);
  return { entries: built.entries, bytes: built.bytes, work: scanned + built.entries * ENTRY_WORK };
}

function pageSize(root: RootQuery): number {
  return root.pagination.mode === 'page' ? root.pagination.pageSize : root.pagination.limit;
}

interface Built {
  entries: number;
  bytes: number;
}

function selectionCost(model: Model, selection: Selection, rows: number, statistics: Statistics): Built | null {
  const figures = statistics.table(model.tableName);
  if (!figures) return null;
  let entries = rows;
  let bytes = rows * entryBytes(model, selection, figures.lengths);
  for (const node of selection.populate) {
    const child = nodeCost(model, node, rows, figures.rows, statistics);
    if (!child) return null;
    entries += child.entries;
    bytes += child.bytes;
  }
  return { entries, bytes };
}

function nodeCost(owner: Model, node: PopulateNode, rows: number, owners: number, statistics: Statistics): Built | null {
  const perOwner = (links: number) => (owners > 0 ? links / owners : 0);
  const windowed = (share: number, toMany: boolean) => {
    const capped = node.window?.limit != null ? Math.min(share, node.window.limit) : share;
    return toMany ? capped : Math.min(capped, 1);
  };
  // The wrapper every parent repeats: `"name":{"data":…}`.
  const wrapper = rows * (node.attribute.name.length + 14);
  switch (node.kind) {
    case 'relation': {
      const links = statistics.table(node.attribute.link.table);
      if (!links) return null;
      if (node.count) return { entries: 0, bytes: wrapper + rows * 30 };
      const share = windowed(perOwner(links.rows) * (node.filters ? FILTERED_SHARE : 1), node.attribute.toMany);
      return withWrapper(selectionCost(node.target, node.selection, rows * share, statistics), wrapper);
    }
    case 'media': {
      const share = windowed(perOwner(statistics.mediaLinks(owner.uid, node.attribute.name)) * (node.filters ? FILTERED_SHARE : 1), node.attribute.multiple);
      return withWrapper(selectionCost(node.target, node.selection, rows * share, statistics), wrapper);
    }
    case 'component': {
      const links = owner.componentJoinTable ? statistics.componentLinks(owner.componentJoinTable, node.attribute.name) : 0;
      if (node.count) return { entries: 0, bytes: wrapper };
      const share = windowed(perOwner(links) * (node.filters ? FILTERED_SHARE : 1), node.attribute.repeatable);
      return withWrapper(selectionCost(node.component, node.selection, rows * share, statistics), wrapper);
    }
    case 'dynamiczone': {
      const links = owner.componentJoinTable ? statistics.componentLinks(owner.componentJoinTable, node.attribute.name) : 0;
      if (node.count) return { entries: 0, bytes: wrapper };
      // The zone's entries are taken to be shared evenly among its component types.
      const share = windowed(perOwner(links), true) / Math.max(1, node.parts.length);
      let built: Built = { entries: 0, bytes: wrapper };
      for (const part of node.parts) {
        const cost = selectionCost(part.component, part.selection, rows * share, statistics);
        if (!cost) return null;
        built = { entries: built.entries + cost.entries, bytes: built.bytes + cost.bytes };
      }
      return built;
    }
  }
}

function withWrapper(built: Built | null, wrapper: number): Built | null {
  return built && { entries: built.entries, bytes: built.bytes + wrapper };
}

/** An entry's own JSON: its id, the envelope, each selected field's key and value. */
function entryBytes(model: Model, selection: Selection, lengths: ReadonlyMap<string, number>): number {
  let bytes = 30;
  for (const field of selection.fields) {
    const value = FIXED_BYTES[field.type] ?? (lengths.get(field.column) ?? 10) + 2;
    bytes += field.name.length + 4 + value;
  }
  return bytes;
}

/** Rows of the link and target tables a filter reads (each relation hop's set is read once). */
function filterWork(filter: Filter | null, statistics: Statistics): number {
  if (!filter) return 0;
  switch (filter.kind) {
    case 'and':
    case 'or':
      return filter.items.reduce((sum, item) => sum + filterWork(item, statistics), 0);
    case 'not':
      return filterWork(filter.item, statistics);
    case 'related':
      return hopWork(filter.attribute.kind === 'relation' ? filter.attribute.link.table : null, filter.target, statistics) + filterWork(filter.filter, statistics);
    case 'compare':
      return 0;
  }
}

function sortWork(keys: readonly SortKey[], statistics: Statistics): number {
  let work = 0;
  for (const key of keys) for (const step of key.path) work += hopWork(step.attribute.kind === 'relation' ? step.attribute.link.table : null, step.target, statistics);
  return work;
}

function hopWork(linkTable: string | null, target: Model, statistics: Statistics): number {
  const links = linkTable ? (statistics.table(linkTable)?.rows ?? 0) : 0;
  return links + (statistics.table(target.tableName)?.rows ?? 0);
}
