/**
 * A bound on the relation, component and media hops a filter or sort path may take. Paths are
 * compiled hop by hop, so their cost is linear in each hop's links; the bound keeps a stranger
 * from stacking hops without limit all the same. Beyond it: a 400 at the parameter path.
 */
import { ValidationError } from '../errors.js';
import type { Filter, PopulateNode, RootQuery, Selection, SortKey } from './tree.js';

/** Comfortably above what a schema needs: every recorded Strapi query uses at most two. */
export const DEFAULT_MAX_RELATION_HOPS = 6;

export function checkRelationHops(root: RootQuery, max: number): void {
  checkFilter(root.filters, 0, max);
  checkSort(root.sort, max);
  checkSelection(root.selection, max);
}

function checkFilter(filter: Filter | null, hops: number, max: number): void {
  if (!filter) return;
  switch (filter.kind) {
    case 'and':
    case 'or':
      for (const item of filter.items) checkFilter(item, hops, max);
      return;
    case 'not':
      checkFilter(filter.item, hops, max);
      return;
    case 'related':
      if (hops + 1 > max) throw tooManyHops(filter.path, max);
      checkFilter(filter.filter, hops + 1, max);
      return;
    case 'compare':
      return;
  }
}

function checkSort(keys: readonly SortKey[], max: number): void {
  for (const key of keys) if (key.path.length > max) throw tooManyHops(key.path[max]!.path, max);
}

function checkSelection(selection: Selection, max: number): void {
  for (const node of selection.populate) checkNode(node, max);
}

/** Populate nests without a hop bound of its own (its depth is bounded); its filters and sorts start anew. */
function checkNode(node: PopulateNode, max: number): void {
  if (node.kind === 'dynamiczone') {
    for (const part of node.parts) {
      checkFilter(part.filters, 0, max);
      checkSelection(part.selection, max);
    }
    return;
  }
  checkFilter(node.filters, 0, max);
  checkSort(node.sort, max);
  checkSelection(node.selection, max);
}

function tooManyHops(path: string, max: number): ValidationError {
  return new ValidationError(path, `Invalid parameter: a path may go through at most ${max} relations, components or media`);
}
