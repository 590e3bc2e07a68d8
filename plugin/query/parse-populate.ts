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
  type Model,
  type PopulatableAttribute,
  type Registry,
} from '../schema/registry.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parseSort } from './parse-sort.js';
import { childPath, isPlainObject } from './path.js';
import { parsePopulateWindow, parsePopulateFlag } from './parse-populate-options.js';
import { parseDynamicZone } from './parse-dynamic-zone.js';
import type {
  ComponentNode,
  MediaNode,
  PopulateNode,
  PublicationState,
  RelationNode,
  Selection,
} from './tree.js';

/**
 * How deep populate may nest. Beyond it a request is a 400: each level is a nested subquery, the
 * engines cap expression depth, and the response grows with every level (Strapi's deep-populate
 * plugins default to 5).
 */
export const MAX_POPULATE_DEPTH = 10;

const OPTION_KEYS = new Set(['fields', 'filters', 'sort', 'populate', 'count', 'limit', 'start', 'publicationState', 'on']);
const PAGINATION_KEYS = new Set(['pagination', 'page', 'pageSize']);

/** What was asked for one attribute: the object-form options, or the dot-path tails of the string forms. */
export interface PopulateRequest {
  readonly attribute: PopulatableAttribute;
  readonly path: string;
  readonly options: Record<string, unknown> | null;
  readonly tails: string[];
  /** The string parameter the tails were written in (`populate`, `populate[1]`), for errors. */
  readonly tailPath: string;
}

/** Parses the `populate` value found at `path` for rows of `model`. */
export function parsePopulate(registry: Registry, model: Model, raw: unknown, path: string): PopulateNode[] {
  return buildNodes(registry, collectRequests(model, raw, path));
}

function collectRequests(model: Model, raw: unknown, path: string): PopulateRequest[] {
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
function requestsFromStrings(model: Model, items: [string, string][], starAllowed: boolean): PopulateRequest[] {
  const requests = new Map<string, PopulateRequest>();
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
      if (segment.split('.').length > MAX_POPULATE_DEPTH) throw tooDeep(itemPath);
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
function wildcardRequests(model: Model, path: string): PopulateRequest[] {
  const requests: PopulateRequest[] = [];
  for (const attribute of model.attributes.values()) {
    if (isPopulatable(attribute) && !attribute.hidden) {
      requests.push({ attribute, path: childPath(path, attribute.name), options: null, tails: [], tailPath: path });
    }
  }
  return requests;
}

function requestsFromObject(model: Model, raw: Record<string, unknown>, path: string): PopulateRequest[] {
  const requests: PopulateRequest[] = [];
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

function buildNodes(registry: Registry, requests: PopulateRequest[]): PopulateNode[] {
  return requests.map((request) => buildNode(registry, request));
}

function buildNode(registry: Registry, request: PopulateRequest): PopulateNode {
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
      return parseDynamicZone(registry, request, attribute);
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
export function buildSelection(registry: Registry, target: Model, request: PopulateRequest): Selection {
  const { options, path } = request;
  const fields = parseFields(target, options?.fields, childPath(path, 'fields'));
  const populate = options ? parsePopulate(registry, target, options.populate, childPath(path, 'populate')) : populateTails(registry, target, request);
  return { fields, populate };
}

/**
 * The rest of dot paths (`seo.metaSocial.image` → `metaSocial.image` inside seo), errors naming the
 * written parameter. A `*` ending a dot path (`category.*`) adds nothing below: Strapi 4.26.2
 * populates `category` alone.
 */
function populateTails(registry: Registry, target: Model, request: PopulateRequest): PopulateNode[] {
  const tails = request.tails.filter((tail) => tail !== WILDCARD_TAIL);
  return buildNodes(registry, requestsFromStrings(target, tails.map((tail) => [tail, request.tailPath]), false));
}

const WILDCARD_TAIL = '*';

/** What a relation, media or component node loads: its selection, filters, sort and per-parent window. */
function rowsOf(registry: Registry, target: Model, request: PopulateRequest) {
  const { options, path } = request;
  return {
    selection: buildSelection(registry, target, request),
    filters: parseFilters(target, options?.filters, childPath(path, 'filters'), registry),
    sort: parseSort(target, options?.sort, childPath(path, 'sort'), registry),
    window: parsePopulateWindow(options, path),
  };
}

function buildRelationNode(registry: Registry, request: PopulateRequest, target: Model): RelationNode {
  const { options, path } = request;
  return {
    kind: 'relation',
    attribute: request.attribute as RelationNode['attribute'],
    target,
    ...rowsOf(registry, target, request),
    count: parseCount(options, path),
    publicationState: parseNodePublicationState(options?.publicationState, childPath(path, 'publicationState')),
  };
}

/** `count` is ignored on media, as in Strapi: the list is returned. */
function buildMediaNode(registry: Registry, request: PopulateRequest): MediaNode {
  parseCount(request.options, request.path);
  return { kind: 'media', attribute: request.attribute as MediaNode['attribute'], target: registry.file, ...rowsOf(registry, registry.file, request) };
}

function buildComponentNode(registry: Registry, request: PopulateRequest, component: Model): ComponentNode {
  return {
    kind: 'component',
    attribute: request.attribute as ComponentNode['attribute'],
    component,
    ...rowsOf(registry, component, request),
    count: parseCount(request.options, request.path),
  };
}

/** `populate[x][count]`: `{ count }` instead of the entries. */
export function parseCount(options: Record<string, unknown> | null, path: string): boolean {
  return parsePopulateFlag(options?.count ?? 'false', childPath(path, 'count'));
}

function parseNodePublicationState(raw: unknown, path: string): PublicationState | null {
  if (raw === undefined) return null;
  if (raw === 'live' || raw === 'preview') return raw;
  throw new ValidationError(path, 'Invalid publicationState; expected live or preview');
}

export function tooDeep(path: string): ValidationError {
  return new ValidationError(path, `Invalid populate: it nests more than ${MAX_POPULATE_DEPTH} levels`);
}

/** The number of nested populate levels of a selection (0 when nothing is populated). */
export function populateDepth(selection: Selection): number {
  let deepest = 0;
  for (const node of selection.populate) {
    const below = node.kind === 'dynamiczone' ? Math.max(0, ...node.parts.map((part) => populateDepth(part.selection))) : populateDepth(node.selection);
    deepest = Math.max(deepest, 1 + below);
  }
  return deepest;
}
