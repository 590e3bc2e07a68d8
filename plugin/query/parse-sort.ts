/**
 * `sort`: `title`, `title:desc`, comma lists, arrays of those, objects `{ title: 'desc' }` nested
 * through relations, components and media, and arrays of objects. Dot paths and nested objects
 * walk to another model and must end on a public scalar or `id`. Strapi answers 500 for a bad
 * direction or an empty field; here every malformed key is a 400 (D1).
 */
import { ValidationError } from '../errors.js';
import type { Model, Registry } from '../schema/registry.js';
import { describeValue, quote } from './cast-value.js';
import { childPath, isPlainObject } from './path.js';
import { describeKind, resolveAttribute, targetOf } from './resolve-attribute.js';
import { ID_FIELD, type Field, type PathStep, type SortDirection, type SortKey } from './tree.js';

/** More steps than any schema needs; it keeps a self-referencing input from recursing forever. */
const MAX_STEPS = 32;

const EXPECTED_ITEM = 'expected field, field:asc or field:desc (e.g. title:desc or category.name)';

interface SortContext {
  readonly registry: Registry;
  readonly keys: SortKey[];
}

/**
 * Parses `sort` for `model` into sort keys in request order. Absent, null or '' → no keys.
 * Every malformed item, unknown or hidden name, or path not ending on a scalar is a 400 at the
 * item's path (`sort`, `sort[1]`, `sort.category.name`).
 */
export function parseSort(model: Model, raw: unknown, path: string, registry: Registry): readonly SortKey[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const context: SortContext = { registry, keys: [] };
  if (typeof raw === 'string') parseSortText(model, raw, path, context);
  else if (Array.isArray(raw)) parseSortList(model, raw, path, context);
  else if (isPlainObject(raw)) parseSortObject(model, raw, path, [], context);
  else throw new ValidationError(path, `Invalid sort: ${EXPECTED_ITEM}, not ${describeValue(raw)}`);
  return Object.freeze(context.keys);
}

/** An array holds either strings or objects: mixing them is ambiguous, as in Strapi (400). */
function parseSortList(model: Model, items: readonly unknown[], path: string, context: SortContext): void {
  const form = typeof items[0] === 'string' ? 'string' : 'object';
  items.forEach((item, index) => {
    const itemPath = childPath(path, index);
    if (typeof item === 'string' && form === 'string') parseSortText(model, item, itemPath, context);
    else if (isPlainObject(item) && form === 'object') parseSortObject(model, item, itemPath, [], context);
    else if (typeof item === 'string' || isPlainObject(item)) {
      throw new ValidationError(itemPath, 'Invalid sort: a list mixes field strings and objects; use one form, e.g. sort[0]=title&sort[1]=views:desc');
    } else throw new ValidationError(itemPath, `Invalid sort item: ${EXPECTED_ITEM}, not ${describeValue(item)}`);
  });
}

/** A comma list of `path[:direction]` items. */
function parseSortText(model: Model, text: string, path: string, context: SortContext): void {
  for (const item of text.split(',')) {
    const segments = item.split(':');
    const fieldPath = segments[0].trim();
    if (segments.length > 2 || fieldPath === '') {
      throw new ValidationError(path, `Invalid sort item ${quote(item)}: ${EXPECTED_ITEM}`);
    }
    const direction = segments.length === 2 ? parseDirection(segments[1], path) : 'asc';
    const names = fieldPath.split('.');
    if (names.length > MAX_STEPS) throw new ValidationError(path, `Invalid sort item ${quote(item)}: more than ${MAX_STEPS} steps`);
    const steps: PathStep[] = [];
    let current = model;
    names.forEach((rawName, index) => {
      const name = rawName.trim();
      const last = index === names.length - 1;
      if (name === '') throw new ValidationError(path, `Invalid sort item ${quote(item)}: empty name in the dot path`);
      const resolved = resolveSortName(current, name, path, last, context.registry);
      if (resolved.kind === 'field') context.keys.push(sortKey(steps, resolved.field, direction));
      else {
        steps.push(resolved.step);
        current = resolved.step.target;
      }
    });
  }
}

/** `{ title: 'desc', category: { name: 'asc' } }`: one key per scalar reached, in key order. */
function parseSortObject(model: Model, object: Record<string, unknown>, path: string, steps: readonly PathStep[], context: SortContext): void {
  if (steps.length >= MAX_STEPS) throw new ValidationError(path, `Invalid sort: nested more than ${MAX_STEPS} levels deep`);
  for (const [name, value] of Object.entries(object)) {
    const keyPath = childPath(path, name);
    const resolved = resolveSortName(model, name, keyPath, !isPlainObject(value), context.registry);
    if (resolved.kind === 'field') {
      if (typeof value !== 'string') throw new ValidationError(keyPath, `Invalid sort direction: expected asc or desc, not ${describeValue(value)}`);
      context.keys.push(sortKey(steps, resolved.field, parseDirection(value, keyPath)));
    } else if (isPlainObject(value) && Object.keys(value).length > 0) {
      parseSortObject(resolved.step.target, value, keyPath, [...steps, resolved.step], context);
    } else {
      throw new ValidationError(keyPath, `Invalid sort on ${quote(name)}: expected a direction (asc or desc) or, for a relation, component or media, an object of its attributes, not ${describeValue(value)}`);
    }
  }
}

type ResolvedSortName = { readonly kind: 'field'; readonly field: Field } | { readonly kind: 'step'; readonly step: PathStep };

/** `last`: whether the name must be a field (end of a dot path, or a direction string follows). */
function resolveSortName(model: Model, name: string, path: string, last: boolean, registry: Registry): ResolvedSortName {
  const attribute = name === 'id' ? ID_FIELD : resolveAttribute(model, name, path, 'sort');
  if (attribute.kind === 'id' || attribute.kind === 'scalar') {
    if (!last) throw new ValidationError(path, `Invalid sort: ${quote(name)} is a scalar field and has no attributes to sort by`);
    return { kind: 'field', field: attribute };
  }
  if (last) {
    throw new ValidationError(path, `Invalid sort: ${quote(name)} is ${describeKind(attribute)}; sort by one of its attributes, e.g. ${name}.id`);
  }
  return { kind: 'step', step: Object.freeze({ attribute, target: targetOf(attribute, registry), path }) };
}

function parseDirection(raw: string, path: string): SortDirection {
  const direction = raw.trim().toLowerCase();
  if (direction === 'asc' || direction === 'desc') return direction;
  throw new ValidationError(path, `Invalid sort direction ${quote(raw)}: expected asc or desc (any case)`);
}

function sortKey(steps: readonly PathStep[], field: Field, direction: SortDirection): SortKey {
  return Object.freeze({ path: Object.freeze([...steps]), field, direction });
}
