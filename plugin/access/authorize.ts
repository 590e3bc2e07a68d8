/**
 * Applies a role's permissions to a query tree, once, before any SQL exists (SPEC §5):
 * the route's action or 403; `publicationState=preview` needs `preview` or 403 (D7);
 * populated relations and media whose type the role may not `find` are removed silently, at any
 * depth; filtering or sorting through them is a 400 — no oracle for hidden values.
 *
 * Rules of permissions.yaml (access/action-rules.ts) are applied here too, into the tree, so
 * that the one statement carries them: a type's row rule (`where`) is ANDed into the root's
 * filters and into every populated list of that type, and limits the rows a filter or sort
 * reaches through a relation (`visible`), so no filter, sort, count or `_q` can probe past it.
 * Attributes a field rule denies are pruned from the selection like private attributes, and are
 * unknown names to filters and sort.
 */
import { ForbiddenError, ValidationError } from '../errors.js';
import { FILE_UID, type Model } from '../schema/registry.js';
import { combine } from '../query/parse-operators.js';
import type {
  DynamicZonePart,
  Filter,
  PathAttribute,
  PathStep,
  PopulateNode,
  PublicationState,
  RootQuery,
  Selection,
  SortKey,
} from '../query/tree.js';
import type { Grants } from './permissions.js';
import { allowsField, type ActionRule } from './action-rules.js';

export function authorize(root: RootQuery, grants: Grants): RootQuery {
  const { model } = root;
  if (!grants.can(model.uid, root.action)) throw new ForbiddenError();
  const drafts = root.publicationState === 'preview' && model.draftAndPublish;
  if (drafts && !grants.can(model.uid, 'preview')) {
    throw new ForbiddenError('Forbidden: reading drafts needs the preview permission');
  }
  const rule = grants.rule(model.uid, root.action);
  const rows = [rule?.where ?? null, drafts ? (grants.rule(model.uid, 'preview')?.where ?? null) : null];
  const hidden = deniedNames(model, rule);
  return {
    ...root,
    filters: combine('and', [...rows, guardFilter(root.filters, grants, model, rule)]),
    sort: guardSort(root.sort, grants, model, rule),
    selection: authorizeSelection(root.selection, grants, root.publicationState, rule),
    ...(hidden.size ? { unsearchable: hidden } : {}),
  };
}

/** The uid whose `find` permission guards reading through an attribute, or null when none does (components). */
function guardOf(attribute: PathAttribute): string | null {
  if (attribute.kind === 'relation') return attribute.target;
  if (attribute.kind === 'media') return FILE_UID;
  return null;
}

/** The names of `model`'s attributes a field rule denies. */
function deniedNames(model: Model, rule: ActionRule | null): ReadonlySet<string> {
  return new Set([...model.attributes.keys()].filter((name) => !allowsField(rule, name)));
}

/** The rule reading rows through an attribute obeys: its target type's `find` rule (none for components). */
function ruleThrough(attribute: PathAttribute, grants: Grants): ActionRule | null {
  const guard = guardOf(attribute);
  return guard ? grants.rule(guard, 'find') : null;
}

/**
 * A filter of the request on rows of `model` read under `rule`: a 400 through a type the role may
 * not read or at an attribute the rule denies; every relation it crosses sees only the rows the
 * target's rule lets the role read.
 */
function guardFilter(filter: Filter | null, grants: Grants, model: Model, rule: ActionRule | null): Filter | null {
  if (!filter) return null;
  switch (filter.kind) {
    case 'and':
    case 'or':
      return { ...filter, items: filter.items.map((item) => guardFilter(item, grants, model, rule)!) };
    case 'not':
      return { ...filter, item: guardFilter(filter.item, grants, model, rule)! };
    case 'related': {
      const guard = guardOf(filter.attribute);
      if (guard && !grants.can(guard, 'find')) throw forbiddenPath(filter.path, filter.attribute.name);
      if (!allowsField(rule, filter.attribute.name)) throw deniedName(filter.path, filter.attribute.name, model, 'filtered');
      const through = ruleThrough(filter.attribute, grants);
      return { ...filter, filter: guardFilter(filter.filter, grants, filter.target, through), visible: through?.where ?? null };
    }
    case 'compare':
      if (filter.field.kind !== 'id' && !allowsField(rule, filter.field.name)) throw deniedName('filters', filter.field.name, model, 'filtered');
      return filter;
  }
}

function guardSort(keys: readonly SortKey[], grants: Grants, model: Model, rule: ActionRule | null): SortKey[] {
  return keys.map((key) => {
    let owner = model;
    let ownerRule = rule;
    const path: PathStep[] = key.path.map((step) => {
      const guard = guardOf(step.attribute);
      if (guard && !grants.can(guard, 'find')) throw forbiddenPath(step.path, step.attribute.name);
      if (!allowsField(ownerRule, step.attribute.name)) throw deniedName(step.path, step.attribute.name, owner, 'sorted');
      ownerRule = ruleThrough(step.attribute, grants);
      owner = step.target;
      return { ...step, visible: ownerRule?.where ?? null };
    });
    if (key.field.kind !== 'id' && !allowsField(ownerRule, key.field.name)) throw deniedName('sort', key.field.name, owner, 'sorted');
    return { ...key, path };
  });
}

function forbiddenPath(path: string, name: string): ValidationError {
  return new ValidationError(path, `Invalid parameter ${name}: its type cannot be read with this role`);
}

/** The words of an unknown name (query/resolve-attribute.ts): an error never confirms that a denied attribute exists. */
function deniedName(path: string, name: string, model: Model, verb: 'filtered' | 'sorted'): ValidationError {
  return new ValidationError(path, `Invalid parameter "${name}": ${model.uid} has no attribute by that name that can be ${verb}`);
}

/** The selection of rows read under `rule`: denied attributes pruned, populated types' rules applied below. */
function authorizeSelection(selection: Selection, grants: Grants, state: PublicationState, rule: ActionRule | null): Selection {
  const populate: PopulateNode[] = [];
  for (const node of selection.populate) {
    if (!allowsField(rule, node.attribute.name)) continue;
    const kept = authorizeNode(node, grants, state);
    if (kept) populate.push(kept);
  }
  return { fields: selection.fields.filter((field) => allowsField(rule, field.name)), populate };
}

function authorizeNode(node: PopulateNode, grants: Grants, state: PublicationState): PopulateNode | null {
  switch (node.kind) {
    case 'relation': {
      if (!grants.can(node.target.uid, 'find')) return null;
      const effective = relationState(node.target, node.publicationState, state, grants);
      const rule = grants.rule(node.target.uid, 'find');
      const drafts = effective === 'preview' && node.target.draftAndPublish ? (grants.rule(node.target.uid, 'preview')?.where ?? null) : null;
      const filters = combine('and', [rule?.where ?? null, drafts, guardFilter(node.filters, grants, node.target, rule)]);
      return { ...node, filters, sort: guardSort(node.sort, grants, node.target, rule), publicationState: effective, selection: authorizeSelection(node.selection, grants, effective, rule) };
    }
    case 'media': {
      if (!grants.can(FILE_UID, 'find')) return null;
      const rule = grants.rule(FILE_UID, 'find');
      const filters = combine('and', [rule?.where ?? null, guardFilter(node.filters, grants, node.target, rule)]);
      return { ...node, filters, sort: guardSort(node.sort, grants, node.target, rule), selection: authorizeSelection(node.selection, grants, state, rule) };
    }
    case 'component':
      return {
        ...node,
        filters: guardFilter(node.filters, grants, node.component, null),
        sort: guardSort(node.sort, grants, node.component, null),
        selection: authorizeSelection(node.selection, grants, state, null),
      };
    case 'dynamiczone':
      return { ...node, parts: node.parts.map((part) => authorizePart(part, grants, state)) };
  }
}

function authorizePart(part: DynamicZonePart, grants: Grants, state: PublicationState): DynamicZonePart {
  return { ...part, filters: guardFilter(part.filters, grants, part.component, null), selection: authorizeSelection(part.selection, grants, state, null) };
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
