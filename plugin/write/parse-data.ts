/**
 * A write body's `data` → the writes of a row (write/input.ts), checked against the schema only:
 * every problem of the whole body is collected, with its path, before anything touches the
 * database. Unknown attributes, and the ones the API maintains itself (id, timestamps, creators),
 * are problems rather than silently dropped keys. What needs the database (ids that exist, unique
 * values, components of this entry) is checked next, by check-references.ts.
 */
import type { DataPath, DataProblem } from '../errors.js';
import { FILE_UID, modelOf, type Attribute, type ComponentAttribute, type DynamicZoneAttribute, type MediaAttribute, type Model, type Registry } from '../schema/registry.js';
import type { Grants } from '../access/permissions.js';
import type { ComponentChange, ComponentItem, MediaChange, RelationChange, RowWrite } from './input.js';
import { parseId, parseRelationValue } from './parse-relation.js';
import { labelOf, type ScalarChecker } from './scalar-values.js';

export interface DataContext {
  readonly registry: Registry;
  readonly checker: ScalarChecker;
  /** The caller's grants: a relation may only point at a type the caller may read. */
  readonly grants: Grants;
  /**
   * The entry is a draft (created with `publishedAt: null`, or a draft being updated), which
   * Strapi saves unfinished: `required` holds only for repeatable components and zones, which
   * must be given (empty is fine), and `minLength` not at all — in its components too.
   */
  readonly draft: boolean;
}

export interface RowOptions {
  /** An update: absent attributes keep their value, and required ones need not be given. */
  readonly partial: boolean;
  readonly path: DataPath;
  /** Required attributes that may be absent: a new localization takes them from its source. */
  readonly inherited?: ReadonlySet<string>;
}

/** Keys the API maintains itself; writing them is a mistake worth a 400, not a silent no-op. */
const MAINTAINED = new Set(['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);


export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The writes `data` asks of one row of `model`; problems are appended to `problems`. */
export function parseRow(context: DataContext, model: Model, data: Record<string, unknown>, options: RowOptions, problems: DataProblem[]): RowWrite {
  const found: DataProblem[] = [];
  const write = parseRowInto(context, model, data, options, found);
  problems.push(...inSchemaOrder(model, options.path.length, found));
  return write;
}

/** Problems in the order of the attributes they are about, as Strapi lists them; unknown keys last. */
function inSchemaOrder(model: Model, depth: number, problems: DataProblem[]): DataProblem[] {
  const names = [...model.attributes.keys()];
  const rank = (problem: DataProblem) => {
    const key = String(problem.path[depth]);
    const index = names.indexOf(key);
    return key === 'id' ? -1 : index < 0 ? names.length : index;
  };
  return problems.map((problem, index) => ({ problem, index })).sort((a, b) => rank(a.problem) - rank(b.problem) || a.index - b.index).map(({ problem }) => problem);
}

function parseRowInto(context: DataContext, model: Model, data: Record<string, unknown>, options: RowOptions, problems: DataProblem[]): RowWrite {
  const scalars: Record<string, unknown> = {};
  const relations: RelationChange[] = [];
  const media: MediaChange[] = [];
  const components: ComponentChange[] = [];
  for (const [key, value] of Object.entries(data)) {
    const path = [...options.path, key];
    const attribute = model.attributes.get(key);
    if (MAINTAINED.has(key) || !attribute || !isWritable(attribute)) {
      problems.push({ path, message: MAINTAINED.has(key) || attribute ? `${labelOf(path)} cannot be written` : `${labelOf(path)} is not an attribute of ${model.displayName}` });
      continue;
    }
    switch (attribute.kind) {
      case 'scalar':
        scalars[key] = value;
        break;
      case 'relation': {
        if (!context.grants.can(attribute.target, 'find')) {
          problems.push({ path, message: `${labelOf(path)} relates to a type this role may not read` });
          break;
        }
        const operations = parseRelationValue(value, path, problems);
        if (operations) relations.push({ attribute, path, ...operations });
        break;
      }
      case 'media': {
        // Emptying names no file, so it tells nothing of them: any role may (Strapi stores it too).
        if (!context.grants.can(FILE_UID, 'find') && !namesNoFile(value)) {
          problems.push({ path, message: `${labelOf(path)} holds files, which this role may not read` });
          break;
        }
        const change = parseMedia(attribute, value, path, problems);
        if (change) media.push(change);
        break;
      }
      case 'component':
      case 'dynamiczone': {
        const change = parseComponents(context, attribute, value, { path, partial: options.partial }, problems);
        if (change) components.push(change);
        break;
      }
    }
  }
  if (!options.partial) checkRequired(model, data, options, context.draft, problems);
  const checked = context.checker.check(model.uid, scalars, { ...options, draft: context.draft });
  problems.push(...checked.problems);
  return { model, values: checked.values, relations, media, components };
}

/** Scalars (publishedAt among the implicit ones), relations, media and components; not createdBy, not the file's morphs, not the locale (set by the route). */
function isWritable(attribute: Attribute): boolean {
  if (attribute.kind === 'internal' || attribute.kind === 'morph') return false;
  if (attribute.kind === 'scalar' && attribute.implicit) return attribute.name === 'publishedAt';
  return true;
}

/**
 * Required relations, components and zones must be given, as Strapi checks them: not null, an
 * empty list being a value. A draft skips relations and single components; media are never
 * checked, as Strapi 4.26.2 does not on the content API (at any depth).
 */
function checkRequired(model: Model, data: Record<string, unknown>, options: RowOptions, draft: boolean, problems: DataProblem[]): void {
  for (const attribute of model.attributes.values()) {
    if (attribute.kind === 'scalar' || attribute.kind === 'internal' || attribute.kind === 'morph' || attribute.kind === 'media' || !attribute.required) continue;
    const many = attribute.kind === 'dynamiczone' || (attribute.kind === 'component' && attribute.repeatable);
    if ((draft && !many) || options.inherited?.has(attribute.name)) continue;
    const path = [...options.path, attribute.name];
    if (data[attribute.name] === undefined || data[attribute.name] === null) problems.push({ path, message: `${labelOf(path)} must be defined.` });
  }
}

/** `null` or an empty list: a media value that names no file. */
function namesNoFile(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0);
}

/** Media: a file id, `{ id }`, a list of them, or null. A single-file attribute takes one. */
function parseMedia(attribute: MediaAttribute, value: unknown, path: DataPath, problems: DataProblem[]): MediaChange | null {
  const values = value === null ? [] : Array.isArray(value) ? value : [value];
  const ids = values.map((entry) => parseId(isPlainObject(entry) && Object.keys(entry).length === 1 ? entry.id : entry));
  if (ids.some((id) => id === null)) {
    problems.push({ path, message: `${labelOf(path)} must be a file id, { id }, ${attribute.multiple ? 'a list of them ' : ''}or null` });
    return null;
  }
  if (!attribute.multiple && ids.length > 1) {
    problems.push({ path, message: `${labelOf(path)} holds one file` });
    return null;
  }
  return { attribute, path, fileIds: [...new Set(ids as number[])] };
}

function parseComponents(
  context: DataContext,
  attribute: ComponentAttribute | DynamicZoneAttribute,
  value: unknown,
  { path, partial }: RowOptions,
  problems: DataProblem[],
): ComponentChange | null {
  const many = attribute.kind === 'dynamiczone' || attribute.repeatable;
  if (value === null && !many) return { attribute, path, items: [] };
  if (many ? !Array.isArray(value) : !isPlainObject(value)) {
    problems.push({ path, message: `${labelOf(path)} must be ${many ? 'a list of components' : 'a component object or null'}` });
    return null;
  }
  const values = many ? (value as unknown[]) : [value];
  const items: ComponentItem[] = [];
  values.forEach((entry, index) => {
    const itemPath = many ? [...path, index] : path;
    const item = parseComponentItem(context, attribute, entry, { path: itemPath, partial }, problems);
    if (item) items.push(item);
  });
  if (many) checkCount(attribute, values.length, path, problems);
  return { attribute, path, items };
}

export function checkCount(attribute: ComponentAttribute | DynamicZoneAttribute, count: number, path: DataPath, problems: DataProblem[]): void {
  if (attribute.min !== null && count < attribute.min && (count > 0 || attribute.required)) {
    problems.push({ path, message: `${labelOf(path)} must have at least ${attribute.min} items` });
  }
  if (attribute.max !== null && count > attribute.max) problems.push({ path, message: `${labelOf(path)} must have at most ${attribute.max} items` });
}

/**
 * One component: its `id` (an existing one of this entry) and, in a dynamic zone, its `__component`.
 * `partial` is the write's: an update checks the components it creates as Strapi does, as an
 * update (required attributes may be absent, not null).
 */
function parseComponentItem(
  context: DataContext,
  attribute: ComponentAttribute | DynamicZoneAttribute,
  entry: unknown,
  { path, partial }: RowOptions,
  problems: DataProblem[],
): ComponentItem | null {
  if (!isPlainObject(entry)) {
    problems.push({ path, message: `${labelOf(path)} must be a component object` });
    return null;
  }
  const { id: rawId, __component: type, ...data } = entry;
  const component = componentOf(context.registry, attribute, type, path, problems);
  const id = rawId === undefined || rawId === null ? null : parseId(rawId);
  if (id === null && rawId !== undefined && rawId !== null) problems.push({ path: [...path, 'id'], message: `${labelOf([...path, 'id'])} must be a component id` });
  if (!component) return null;
  // An existing component is updated with what is given; a new one must be whole, unless an update makes it.
  const row = parseRow(context, component, data, { partial: partial || id !== null, path }, problems);
  return { component, id, row, path };
}

function componentOf(registry: Registry, attribute: ComponentAttribute | DynamicZoneAttribute, type: unknown, path: DataPath, problems: DataProblem[]): Model | null {
  if (attribute.kind === 'component') {
    if (type !== undefined) problems.push({ path: [...path, '__component'], message: `${labelOf([...path, '__component'])} is only for dynamic zones` });
    return modelOf(registry, attribute.component);
  }
  const at = [...path, '__component'];
  if (typeof type !== 'string') {
    problems.push({ path: at, message: `${labelOf(at)} must name the component, one of ${attribute.components.join(', ')}` });
    return null;
  }
  if (!attribute.components.includes(type)) {
    problems.push({ path: at, message: `${labelOf(at)} must be one of ${attribute.components.join(', ')}` });
    return null;
  }
  return modelOf(registry, type);
}
