/**
 * `populate` in every form Strapi v4 accepts, at any depth: `*`, `a,b`, dot paths
 * (`seo.metaSocial.image`, merged when they share a root), arrays of those, and the object form
 * `populate[a]=true|*|1` / `false|0|''` / `populate[a][fields|filters|sort|populate|count|limit|start|publicationState]`,
 * with dynamic zones shared (`populate[zone][populate]=*`) or per component (`populate[zone][on][<uid>]`).
 * Unknown names, scalars and malformed shapes are 400s naming the path (D1, D2); createdBy and
 * updatedBy are known but never populated; pagination keys inside populate are 400s (D3).
 */
import { ValidationError } from '../errors.js';
import {
  isPopulatable,
  modelOf,
  type Attribute,
  type DynamicZoneAttribute,
  type Model,
  type PopulatableAttribute,
  type Registry,
} from '../schema/registry.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parseSort } from './parse-sort.js';
import { childPath, isPlainObject } from './path.js';
import { parsePopulateWindow, parsePopulateFlag } from './parse-populate-options.js';
import type {
  ComponentNode,
  DynamicZoneNode,
  DynamicZonePart,
  MediaNode,
  PopulateNode,
  PublicationState,
  RelationNode,
  Selection,
} from './tree.js';

const OPTION_KEYS = new Set(['fields', 'filters', 'sort', 'populate', 'count', 'limit', 'start', 'publicationState', 'on']);
const PAGINATION_KEYS = new Set(['pagination', 'page', 'pageSize']);

/** What was asked for one attribute: the object-form options, or the dot-path tails of the string forms. */
interface Request {
  readonly attribute: PopulatableAttribute;
  readonly path: string;
  readonly options: Record<string, unknown> | null;
  readonly tails: string[];
  /** The string parameter the tails were written in (`populate`, `populate[1]`), for errors. */
  readonly tailPath: string;
}

/** Parses the `populate` value found at `path` for rows of `model`. */
export function parsePopulate(registry: Registry, model: Model, raw: unknown, path: string): PopulateNode[] {
  return buildNodes(registry, collectRequests(registry, model, raw, path));
}

function collectRequests(registry: Registry, model: Model, raw: unknown, path: string): Request[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') return requestsFromStrings(model, [[raw, path]], true);
  if (Array.isArray(raw)) {
    const items = raw.map((item, index): [unknown, string] => [item, childPath(path, index)]);
    for (const [item, itemPath] of items) {
      if (typeof item !== 'string') {
        throw new ValidationError(itemPath, 'Invalid populate: expected attribute names; `*` and objects cannot be mixed with other populate entries');
      }
    }
    return requestsFromStrings(model, items as [string, string][], false);
  }
  if (isPlainObject(raw)) return requestsFromObject(model, raw, path);
  throw new ValidationError(path, 'Invalid populate: expected `*`, attribute names or an object');
}

/** `a,b`, `a.b.c` and arrays of them; `*` only alone. Paths sharing a root are merged. */
function requestsFromStrings(model: Model, items: [string, string][], starAllowed: boolean): Request[] {
  const requests = new Map<string, Request>();
  for (const [item, itemPath] of items) {
    const segments = item.split(',').map((segment) => segment.trim());
    if (segments.includes('*')) {
      if (!starAllowed || segments.length > 1) {
        throw new ValidationError(itemPath, 'Invalid populate: `*` cannot be combined with other populate entries');
      }
      return wildcardRequests(model, itemPath);
    }
    for (const segment of segments) {
      if (!segment) throw new ValidationError(itemPath, 'Invalid populate: empty attribute name');
      const dot = segment.indexOf('.');
      const name = dot === -1 ? segment : segment.slice(0, dot);
      const tail = dot === -1 ? null : segment.slice(dot + 1);
      if (tail === '') throw new ValidationError(itemPath, `Invalid populate: empty attribute name after "${name}."`);
      const attribute = resolveAttribute(model, name, itemPath);
      if (!attribute) continue;
      let request = requests.get(name);
      if (!request) {
        request = { attribute, path: childPath(itemPath, name), options: null, tails: [], tailPath: itemPath };
        requests.set(name, request);
      }
      if (tail !== null && !request.tails.includes(tail)) request.tails.push(tail);
    }
  }
  return [...requests.values()];
}

/** `*`: every populatable attribute of the model, one level. */
function wildcardRequests(model: Model, path: string): Request[] {
  const requests: Request[] = [];
  for (const attribute of model.attributes.values()) {
    if (isPopulatable(attribute) && !attribute.hidden) {
      requests.push({ attribute, path: childPath(path, attribute.name), options: null, tails: [], tailPath: path });
    }
  }
  return requests;
}

function requestsFromObject(model: Model, raw: Record<string, unknown>, path: string): Request[] {
  const requests: Request[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const keyPath = childPath(path, name);
    const attribute = resolveAttribute(model, name, keyPath);
    if (isPlainObject(value)) {
      if (attribute) requests.push({ attribute, path: keyPath, options: value, tails: [], tailPath: keyPath });
    } else if (parsePopulateFlag(value, keyPath) && attribute) {
      requests.push({ attribute, path: keyPath, options: null, tails: [], tailPath: keyPath });
    }
  }
  return requests;
}

/**
 * The attribute a populate key names, or null when it is known but never populated (createdBy,
 * updatedBy, the file's folder, private relations). Anything else that cannot be populated is a 400.
 */
function resolveAttribute(model: Model, name: string, path: string): PopulatableAttribute | null {
  const attribute: Attribute | undefined = model.attributes.get(name);
  if (!attribute) throw new ValidationError(path, `Invalid populate: "${name}" is not an attribute of ${model.displayName}`);
  if (attribute.kind === 'internal') return null;
  if (attribute.kind === 'morph') {
    throw new ValidationError(path, `Invalid populate: "${name}" (the entries using a media file) cannot be populated`);
  }
  if (!isPopulatable(attribute)) {
    throw new ValidationError(path, `Invalid populate: "${name}" is a scalar attribute; select it with fields`);
  }
  return attribute.hidden ? null : attribute;
}

function buildNodes(registry: Registry, requests: Request[]): PopulateNode[] {
  return requests.map((request) => buildNode(registry, request));
}

function buildNode(registry: Registry, request: Request): PopulateNode {
  const { attribute, options, path } = request;
  if (options) checkOptionKeys(options, attribute, path);
  switch (attribute.kind) {
    case 'relation':
      return buildRelationNode(registry, request, modelOf(registry, attribute.target));
    case 'media':
      return buildMediaNode(registry, request);
    case 'component':
      return buildComponentNode(registry, request, modelOf(registry, attribute.component));
    case 'dynamiczone':
      return buildDynamicZoneNode(registry, request, attribute);
  }
}

function checkOptionKeys(options: Record<string, unknown>, attribute: PopulatableAttribute, path: string): void {
  for (const key of Object.keys(options)) {
    const keyPath = childPath(path, key);
    if (PAGINATION_KEYS.has(key)) {
      throw new ValidationError(keyPath, `Invalid populate option "${key}": pagination is not supported inside populate; use limit and start, applied per parent entry`);
    }
    if (!OPTION_KEYS.has(key)) {
      throw new ValidationError(keyPath, `Invalid populate option "${key}"; expected one of fields, filters, sort, populate, count, limit, start, publicationState${attribute.kind === 'dynamiczone' ? ', on' : ''}`);
    }
    if (key === 'on' && attribute.kind !== 'dynamiczone') {
      throw new ValidationError(keyPath, '`on` is only valid on a dynamic zone');
    }
    if (key === 'publicationState' && attribute.kind !== 'relation') {
      throw new ValidationError(keyPath, 'publicationState is only valid on a relation');
    }
  }
}

/** fields and nested populate of one populated level: from the object form, or the dot-path tails. */
function buildSelection(registry: Registry, target: Model, request: Request): Selection {
  const { options, path } = request;
  const fields = parseFields(target, options?.fields, childPath(path, 'fields'));
  const populate = options ? parsePopulate(registry, target, options.populate, childPath(path, 'populate')) : populateTails(registry, target, request);
  return { fields, populate };
}

/** The rest of dot paths (`seo.metaSocial.image` → `metaSocial.image` inside seo), errors naming the written parameter. */
function populateTails(registry: Registry, target: Model, request: Request): PopulateNode[] {
  return buildNodes(registry, requestsFromStrings(target, request.tails.map((tail) => [tail, request.tailPath]), false));
}

function buildRelationNode(registry: Registry, request: Request, target: Model): RelationNode {
  const { options, path } = request;
  return {
    kind: 'relation',
    attribute: request.attribute as RelationNode['attribute'],
    target,
    selection: buildSelection(registry, target, request),
    filters: parseFilters(target, options?.filters, childPath(path, 'filters'), registry),
    sort: parseSort(target, options?.sort, childPath(path, 'sort'), registry),
    window: parsePopulateWindow(options, path),
    count: parsePopulateFlag(options?.count ?? 'false', childPath(path, 'count')),
    publicationState: parseNodePublicationState(options?.publicationState, childPath(path, 'publicationState')),
  };
}

/** `count` is ignored on media, as in Strapi: the list is returned. */
function buildMediaNode(registry: Registry, request: Request): MediaNode {
  const { options, path } = request;
  if (options?.count !== undefined) parsePopulateFlag(options.count, childPath(path, 'count'));
  return {
    kind: 'media',
    attribute: request.attribute as MediaNode['attribute'],
    target: registry.file,
    selection: buildSelection(registry, registry.file, request),
    filters: parseFilters(registry.file, options?.filters, childPath(path, 'filters'), registry),
    sort: parseSort(registry.file, options?.sort, childPath(path, 'sort'), registry),
    window: parsePopulateWindow(options, path),
  };
}

function buildComponentNode(registry: Registry, request: Request, component: Model): ComponentNode {
  const { options, path } = request;
  return {
    kind: 'component',
    attribute: request.attribute as ComponentNode['attribute'],
    component,
    selection: buildSelection(registry, component, request),
    filters: parseFilters(component, options?.filters, childPath(path, 'filters'), registry),
    sort: parseSort(component, options?.sort, childPath(path, 'sort'), registry),
    window: parsePopulateWindow(options, path),
    count: parsePopulateFlag(options?.count ?? 'false', childPath(path, 'count')),
  };
}

function parseNodePublicationState(raw: unknown, path: string): PublicationState | null {
  if (raw === undefined) return null;
  if (raw === 'live' || raw === 'preview') return raw;
  throw new ValidationError(path, 'Invalid publicationState; expected live or preview');
}

function buildDynamicZoneNode(registry: Registry, request: Request, attribute: DynamicZoneAttribute): DynamicZoneNode {
  const { options, path } = request;
  const components = attribute.components.map((uid) => modelOf(registry, uid));
  let parts: DynamicZonePart[];
  if (options?.on !== undefined) {
    for (const key of ['fields', 'filters', 'sort', 'populate']) {
      if (options[key] !== undefined) {
        throw new ValidationError(childPath(path, key), 'A dynamic zone takes either `on` (per component) or shared options, not both');
      }
    }
    parts = dynamicZoneFragments(registry, attribute, options.on, childPath(path, 'on'));
  } else {
    parts = sharedDynamicZoneParts(registry, components, request);
  }
  return {
    kind: 'dynamiczone',
    attribute,
    parts,
    window: parsePopulateWindow(options, path),
    count: parsePopulateFlag(options?.count ?? 'false', childPath(path, 'count')),
  };
}

/** `populate[zone][on][<uid>]=true|{…}`: only the listed components, each with its own options. */
function dynamicZoneFragments(registry: Registry, attribute: DynamicZoneAttribute, raw: unknown, path: string): DynamicZonePart[] {
  if (!isPlainObject(raw)) throw new ValidationError(path, 'Invalid populate: `on` expects component uids as keys');
  const parts: DynamicZonePart[] = [];
  for (const [uid, value] of Object.entries(raw)) {
    const partPath = childPath(path, uid);
    if (!attribute.components.includes(uid)) {
      throw new ValidationError(partPath, `Invalid populate: "${uid}" is not a component of the dynamic zone ${attribute.name} (${attribute.components.join(', ')})`);
    }
    const component = modelOf(registry, uid);
    if (isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        if (!['fields', 'filters', 'sort', 'populate'].includes(key)) {
          throw new ValidationError(childPath(partPath, key), `Invalid populate option "${key}"; expected fields, filters, sort or populate`);
        }
      }
      parts.push({
        component,
        selection: {
          fields: parseFields(component, value.fields, childPath(partPath, 'fields')),
          populate: parsePopulate(registry, component, value.populate, childPath(partPath, 'populate')),
        },
        filters: parseFilters(component, value.filters, childPath(partPath, 'filters'), registry),
      });
    } else if (parsePopulateFlag(value, partPath)) {
      parts.push({ component, selection: { fields: component.defaultFields, populate: [] }, filters: null });
    }
  }
  return parts;
}

/**
 * The shared form applies one set of options to every component of the zone: fields, filters
 * and sort must be valid for each (a 400 otherwise); nested populate names must exist in at least
 * one component and apply to those that have them.
 */
function sharedDynamicZoneParts(registry: Registry, components: Model[], request: Request): DynamicZonePart[] {
  const { options, path, tails } = request;
  const populateRaw = options ? options.populate : tails.length ? tails : undefined;
  if (options?.sort !== undefined) {
    for (const component of components) parseSort(component, options.sort, childPath(path, 'sort'), registry);
  }
  const nested = sharedZonePopulate(registry, components, populateRaw, options ? childPath(path, 'populate') : request.tailPath);
  return components.map((component, index) => ({
    component,
    selection: {
      fields: parseFields(component, options?.fields, childPath(path, 'fields')),
      populate: nested[index],
    },
    filters: parseFilters(component, options?.filters, childPath(path, 'filters'), registry),
  }));
}

/** Each component's share of a zone-wide populate; a name no component has is a 400. */
function sharedZonePopulate(registry: Registry, components: Model[], raw: unknown, path: string): PopulateNode[][] {
  if (raw === undefined || raw === null || raw === '') return components.map(() => []);
  if (raw === '*') return components.map((component) => parsePopulate(registry, component, '*', path));
  const names = populateNames(raw, path);
  for (const name of names) {
    if (!components.some((component) => component.attributes.has(name))) {
      throw new ValidationError(path, `Invalid populate: no component of the dynamic zone has an attribute "${name}"`);
    }
  }
  return components.map((component) => parsePopulate(registry, component, restrictTo(raw, component), path));
}

/** The attribute names a populate value refers to at its first level. */
function populateNames(raw: unknown, path: string): string[] {
  if (typeof raw === 'string') return raw.split(',').map((segment) => segment.trim().split('.')[0]);
  if (Array.isArray(raw)) return raw.flatMap((item, index) => populateNames(item, childPath(path, index)));
  if (isPlainObject(raw)) return Object.keys(raw);
  throw new ValidationError(path, 'Invalid populate: expected `*`, attribute names or an object');
}

/** The part of a populate value that names attributes the component has. */
function restrictTo(raw: unknown, component: Model): unknown {
  const has = (segment: string) => component.attributes.has(segment.trim().split('.')[0]);
  if (typeof raw === 'string') return raw.split(',').filter(has);
  if (Array.isArray(raw)) return raw.flatMap((item) => (typeof item === 'string' ? item.split(',').filter(has) : [item]));
  if (isPlainObject(raw)) return Object.fromEntries(Object.entries(raw).filter(([name]) => component.attributes.has(name)));
  return raw;
}
