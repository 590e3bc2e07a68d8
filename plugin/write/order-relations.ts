/**
 * The ordered list of related ids after a write, as Strapi v4 orders it: `set` replaces the list;
 * otherwise `disconnect` removes, then each `connect` item is taken out and put back at its
 * position (the end when it has none). A position may name an item connected later in the same
 * list (those are placed first); naming an id that is in neither is a 400.
 */
import { DataValidationError, type DataPath } from '../errors.js';
import type { Position, RelationItem, RelationOperations } from './input.js';

/** The list after the operations; a to-one relation keeps the last id. */
export function orderRelations(current: readonly number[], operations: RelationOperations, toMany: boolean, path: DataPath): number[] {
  let list: number[];
  if (operations.set) {
    list = [...new Set(operations.set.map((item) => item.id))];
  } else {
    const disconnected = new Set(operations.disconnect);
    list = current.filter((id) => !disconnected.has(id));
    for (const item of placementOrder(operations.connect, list, path)) place(list, item);
  }
  return toMany ? list : list.slice(-1);
}

/** The connect items in an order where each position's reference is already placed. */
function placementOrder(items: readonly RelationItem[], list: readonly number[], path: DataPath): RelationItem[] {
  const placed = new Set(list);
  const pending = [...items];
  const ordered: RelationItem[] = [];
  while (pending.length) {
    const index = pending.findIndex((item) => {
      const reference = referenceOf(item.position);
      return reference === null || placed.has(reference) || reference === item.id;
    });
    if (index < 0) {
      const stuck = pending[0];
      throw new DataValidationError([
        {
          path,
          message: `There was a problem connecting relation with id ${stuck.id} at position ${describe(stuck.position)}. The relation with id ${referenceOf(stuck.position)} needs to be connected first.`,
        },
      ]);
    }
    const [item] = pending.splice(index, 1);
    placed.add(item.id);
    ordered.push(item);
  }
  return ordered;
}

function referenceOf(position: Position | null): number | null {
  return position && (position.kind === 'before' || position.kind === 'after') ? position.id : null;
}

function describe(position: Position | null): string {
  if (!position) return 'end';
  return position.kind === 'before' || position.kind === 'after' ? JSON.stringify({ [position.kind]: position.id }) : JSON.stringify({ [position.kind]: true });
}

function place(list: number[], item: RelationItem): void {
  const existing = list.indexOf(item.id);
  if (existing >= 0) list.splice(existing, 1);
  const position = item.position;
  if (!position || position.kind === 'end') list.push(item.id);
  else if (position.kind === 'start') list.unshift(item.id);
  else {
    const anchor = list.indexOf(position.id);
    // An item placed relative to itself stays where it was.
    if (anchor < 0) list.splice(existing < 0 ? list.length : existing, 0, item.id);
    else list.splice(position.kind === 'before' ? anchor : anchor + 1, 0, item.id);
  }
}
