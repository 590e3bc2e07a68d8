/**
 * Applies a role's permissions to a query tree, once, before any SQL exists (SPEC §5):
 * the route's action or 403; `publicationState=preview` needs `preview` or 403 (D7);
 * populated relations and media whose type the role may not `find` are removed silently, at any
 * depth; filtering or sorting through them is a 400 — no oracle for hidden values.
 * Nothing walks the result afterwards: what is not selected cannot leak.
 */
import { ForbiddenError, ValidationError } from '../errors.js';
import { FILE_UID, type Model } from '../schema/registry.js';
import type {
  DynamicZonePart,
  Filter,
  PathAttribute,
  PopulateNode,
  PublicationState,
  RootQuery,
  Selection,
  SortKey,
} from '../query/tree.js';
import type { Grants } from './permissions.js';

export function authorize(root: RootQuery, grants: Grants): RootQuery {
  if (!grants.can(root.model.uid, root.action)) throw new ForbiddenError();
  if (root.publicationState === 'preview' && root.model.draftAndPublish && !grants.can(root.model.uid, 'preview')) {
    throw new ForbiddenError('Forbidden: reading drafts needs the preview permission');
  }
  checkFilter(root.filters, grants);
  checkSort(root.sort, grants);
  return { ...root, selection: authorizeSelection(root.selection, grants, root.publicationState) };
}

/** The uid whose `find` permission guards reading through an attribute, or null when none does (components). */
function guardOf(attribute: PathAttribute): string | null {
  if (attribute.kind === 'relation') return attribute.target;
  if (attribute.kind === 'media') return FILE_UID;
  return null;
}

function checkFilter(filter: Filter | null, grants: Grants): void {
  if (!filter) return;
  switch (filter.kind) {
    case 'and':
    case 'or':
      filter.items.forEach((item) => checkFilter(item, grants));
      return;
    case 'not':
      checkFilter(filter.item, grants);
      return;
    case 'related': {
      const guard = guardOf(filter.attribute);
      if (guard && !grants.can(guard, 'find')) throw forbiddenPath(filter.path, filter.attribute.name);
      checkFilter(filter.filter, grants);
      return;
    }
    case 'compare':
      return;
  }
}

function checkSort(keys: readonly SortKey[], grants: Grants): void {
  for (const key of keys) {
    for (const step of key.path) {
      const guard = guardOf(step.attribute);
      if (guard && !grants.can(guard, 'find')) throw forbiddenPath(step.path, step.attribute.name);
    }
  }
}

function forbiddenPath(path: string, name: string): ValidationError {
  return new ValidationError(path, `Invalid parameter ${name}: its type cannot be read with this role`);
}

function authorizeSelection(selection: Selection, grants: Grants, state: PublicationState): Selection {
  const populate: PopulateNode[] = [];
  for (const node of selection.populate) {
    const kept = authorizeNode(node, grants, state);
    if (kept) populate.push(kept);
  }
  return { fields: selection.fields, populate };
}

function authorizeNode(node: PopulateNode, grants: Grants, state: PublicationState): PopulateNode | null {
  switch (node.kind) {
    case 'relation': {
      if (!grants.can(node.target.uid, 'find')) return null;
      const effective = relationState(node.target, node.publicationState, state, grants);
      checkFilter(node.filters, grants);
      checkSort(node.sort, grants);
      return { ...node, publicationState: effective, selection: authorizeSelection(node.selection, grants, effective) };
    }
    case 'media':
      if (!grants.can(FILE_UID, 'find')) return null;
      checkFilter(node.filters, grants);
      checkSort(node.sort, grants);
      return { ...node, selection: authorizeSelection(node.selection, grants, state) };
    case 'component':
      checkFilter(node.filters, grants);
      checkSort(node.sort, grants);
      return { ...node, selection: authorizeSelection(node.selection, grants, state) };
    case 'dynamiczone':
      return { ...node, parts: node.parts.map((part) => authorizePart(part, grants, state)) };
  }
}

function authorizePart(part: DynamicZonePart, grants: Grants, state: PublicationState): DynamicZonePart {
  checkFilter(part.filters, grants);
  return { ...part, selection: authorizeSelection(part.selection, grants, state) };
}

/**
 * The publication state a populated relation is read with: its own `publicationState`, else the
 * parent's. Drafts of a type need `preview` on it: asking for them explicitly without it is a 403;
 * an inherited preview falls back to published entries.
 */
function relationState(target: Model, own: PublicationState | null, inherited: PublicationState, grants: Grants): PublicationState {
  const wanted = own ?? inherited;
  if (wanted === 'live' || !target.draftAndPublish || grants.can(target.uid, 'preview')) return wanted;
  if (own === 'preview') throw new ForbiddenError('Forbidden: reading drafts needs the preview permission');
  return 'live';
}
