/**
 * Writes a relation change of one row into its link table, keeping both order columns: the row's
 * list is renumbered 1…n where it changed, a new link goes at the end of the target's own list,
 * and a target whose other side is to-one leaves the row it was linked to. What the caller may
 * touch is decided by access/authorize-write.ts: links to entries it may not see stay in place.
 */
import { authorizeMoves, mustKeepHiddenToOne, splitLinks, type SplitLinks } from '../access/authorize-write.js';
import type { Model } from '../schema/registry.js';
import type { RelationChange } from './input.js';
import { orderRelations } from './order-relations.js';
import { relationLinks, type RelationLinks } from './relation-links.js';
import type { RowStore } from './row-store.js';

/** The ids a row is linked to through a relation, in the order of its list. */
export async function currentTargets(store: RowStore, change: Pick<RelationChange, 'attribute'>, sourceId: number): Promise<number[]> {
  const links = relationLinks(store.registry, change.attribute);
  const query = store.trx(links.table).where(links.sourceColumn, sourceId).select({ id: links.targetColumn });
  if (links.orderColumn) query.orderBy(links.orderColumn, 'asc');
  const rows = (await query.orderBy('id', 'asc')) as { id: number | bigint }[];
  return rows.map((row) => Number(row.id));
}

export async function applyRelation(store: RowStore, source: Model, sourceId: number, change: RelationChange): Promise<void> {
  const links = relationLinks(store.registry, change.attribute);
  const split = await splitLinks(store, change.attribute, await currentTargets(store, change, sourceId));
  const current = split.visible;
  const next = orderRelations(current, change, change.attribute.toMany, change.path);
  mustKeepHiddenToOne(change.attribute, split, next);
  const nextSet = new Set(next);
  const removed = current.filter((id) => !nextSet.has(id));
  const added = next.filter((id) => !current.includes(id));
  await authorizeMoves(store, source, sourceId, change.attribute, links, added);
  const { trx } = store;
  if (removed.length) await trx(links.table).where(links.sourceColumn, sourceId).whereIn(links.targetColumn, removed).delete();
  if (added.length && links.exclusiveTarget) await trx(links.table).whereIn(links.targetColumn, added).delete();
  const { orderColumn, inverseOrderColumn } = links;
  const around = orderColumn && split.hidden.size ? await ordersAroundHidden(store, links, sourceId, split, next) : null;
  const orders = around?.orders ?? next.map((_, index) => index + 1);
  if (orderColumn) {
    for (const [index, id] of next.entries()) {
      const moved = around ? around.stored.has(id) && around.stored.get(id) !== orders[index] : current.includes(id) && current.indexOf(id) !== index;
      if (moved) await trx(links.table).where({ [links.sourceColumn]: sourceId, [links.targetColumn]: id }).update({ [orderColumn]: orders[index] });
    }
  }
  const last = inverseOrderColumn ? await lastOrders(store, links.table, links.targetColumn, added, inverseOrderColumn) : new Map<number, number>();
  await store.insertMany(
    links.table,
    added.map((id) => ({
      [links.sourceColumn]: sourceId,
      [links.targetColumn]: id,
      ...(orderColumn ? { [orderColumn]: orders[next.indexOf(id)] } : {}),
      ...(inverseOrderColumn ? { [inverseOrderColumn]: (last.get(id) ?? 0) + 1 } : {}),
    })),
  );
}

/**
 * The orders of the new visible list when hidden links sit in it: those keep their orders, the
 * visible entries take the places visible entries held, in their new order, and any more go after
 * the last. Also the order each linked entry has now, so that only the changed ones are written.
 */
async function ordersAroundHidden(store: RowStore, links: RelationLinks, sourceId: number, split: SplitLinks, next: readonly number[]): Promise<{ orders: number[]; stored: Map<number, number> }> {
  const orderColumn = links.orderColumn!;
  const rows = (await store.trx(links.table).where(links.sourceColumn, sourceId).select({ id: links.targetColumn, order: orderColumn })) as { id: number | bigint; order: number | string | null }[];
  const places = rows.filter((row) => !split.hidden.has(Number(row.id))).map((row) => Number(row.order ?? 0)).sort((a, b) => a - b);
  const last = Math.max(0, ...rows.map((row) => Number(row.order ?? 0)));
  const orders = next.map((_, index) => (index < places.length ? places[index]! : last + index - places.length + 1));
  return { orders, stored: new Map(rows.map((row) => [Number(row.id), Number(row.order ?? 0)])) };
}

/** The largest order in each target's list of sources, in one statement (absent: an empty list). */
async function lastOrders(store: RowStore, table: string, targetColumn: string, targetIds: readonly number[], orderColumn: string): Promise<Map<number, number>> {
  if (!targetIds.length) return new Map();
  const rows = (await store.trx(table).whereIn(targetColumn, targetIds).groupBy(targetColumn).select({ target: targetColumn }).max({ last: orderColumn })) as {
    target: number | bigint;
    last: number | string | null;
  }[];
  return new Map(rows.map((row) => [Number(row.target), Number(row.last ?? 0)]));
}
