/**
 * What a write may touch besides the entry it names, checked in its transaction on every path
 * that writes (docs/permissions.md, "Writes"). The entry itself is checked by its route through
 * access/write-access.ts (`mustReach` before, `mustStillMatch` after).
 *
 * Relations:
 * - every entry it names (connect, disconnect, set, a position's anchor) must be one the caller
 *   may `find`: a hidden entry is answered as a missing one;
 * - links to entries the caller may not `find` are kept as they are, in place: `set` and
 *   `disconnect` act on the part of the list the caller sees, and a to-one holding a hidden entry
 *   is not replaced by it (403);
 * - connecting an entry whose other side is to-one takes it from the entry it was linked to (a
 *   category's `articles` connecting an article of another category): both that entry and the
 *   entry moved must be the caller's to `update` (its rule's `fields` allowing its side of the
 *   relation), else 403.
 *
 * Localizations: joining a group changes every member (its list, the values shared by the group),
 * so each member must be the caller's to `update`, else 403.
 *
 * Files attached to an entry (an upload's `ref`/`refId`/`field`): the entry must be the caller's
 * to `update` (else it is answered as missing) and the rule's `fields` must allow the attribute.
 */
import { ForbiddenError } from '../errors.js';
import { allowsField } from './action-rules.js';
import { modelOf, type Model, type RelationAttribute } from '../schema/registry.js';
import type { RelationLinks } from '../write/relation-links.js';
import type { RowStore } from '../write/row-store.js';

export interface SplitLinks {
  /** The linked entries the caller may see, in the list's order. */
  readonly visible: readonly number[];
  /** The linked entries it may not: never unlinked, reordered or replaced by its writes. */
  readonly hidden: ReadonlySet<number>;
}

const NOTHING_HIDDEN: ReadonlySet<number> = new Set();

/** A row's current list through `attribute`, split by what the caller may `find` of the target type. */
export async function splitLinks(store: RowStore, attribute: RelationAttribute, current: readonly number[]): Promise<SplitLinks> {
  const target = modelOf(store.registry, attribute.target);
  if (!current.length || store.access.reachesAll(target, 'find')) return { visible: current, hidden: NOTHING_HIDDEN };
  const seen = await store.access.reachable(store.trx, target, current, 'find');
  return { visible: current.filter((id) => seen.has(id)), hidden: new Set(current.filter((id) => !seen.has(id))) };
}

/** A to-one link to a hidden entry stays: a write that would put another entry in its place is refused. */
export function mustKeepHiddenToOne(attribute: RelationAttribute, split: SplitLinks, next: readonly number[]): void {
  if (attribute.toMany || !split.hidden.size || !next.length) return;
  throw new ForbiddenError(`Forbidden: ${attribute.name} holds an entry this role may not read, which it may not replace`);
}

/**
 * Entries connected through a relation whose other side is to-one leave the entries they were
 * linked to: each such entry, and each entry moved, must be reachable by the caller's `update`.
 */
export async function authorizeMoves(store: RowStore, source: Model, sourceId: number, attribute: RelationAttribute, links: RelationLinks, added: readonly number[]): Promise<void> {
  if (!links.exclusiveTarget || !added.length) return;
  const target = modelOf(store.registry, attribute.target);
  const { access, trx } = store;
  // The moved entries' own side of the relation changes: their update rule must let it be written.
  const inverse = attribute.inversedBy ?? attribute.mappedBy;
  const sideWritable = !inverse || allowsField(access.rule(target.uid, 'update'), inverse);
  if (sideWritable && access.reachesAll(source, 'update') && access.reachesAll(target, 'update')) return;
  const taken = (await trx(links.table).whereIn(links.targetColumn, [...added]).whereNot(links.sourceColumn, sourceId).select({ owner: links.sourceColumn, moved: links.targetColumn })) as {
    owner: number | bigint;
    moved: number | bigint;
  }[];
  if (!taken.length) return;
  if (!sideWritable) throw takenFrom(attribute);
  const owners = await access.reachable(trx, source, taken.map((link) => Number(link.owner)), 'update');
  const moved = await access.reachable(trx, target, taken.map((link) => Number(link.moved)), 'update');
  if (taken.every((link) => owners.has(Number(link.owner)) && moved.has(Number(link.moved)))) return;
  throw takenFrom(attribute);
}

function takenFrom(attribute: RelationAttribute): ForbiddenError {
  return new ForbiddenError(`Forbidden: connecting ${attribute.name} would take entries from other entries this role may not change`);
}

/** Each member of a localization group the write joins must be the caller's to `update`. */
export async function authorizeGroup(store: RowStore, model: Model, members: readonly number[]): Promise<void> {
  if (!members.length || store.access.reachesAll(model, 'update')) return;
  const reachable = await store.access.reachable(store.trx, model, members, 'update');
  if (members.some((id) => !reachable.has(id))) throw new ForbiddenError('Forbidden: the localizations joined include entries this role may not update');
}
