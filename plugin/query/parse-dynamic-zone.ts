/**
 * `populate` of a dynamic zone: shared options applied to every component of the zone
 * (`populate[zone][populate]=*`, `populate[zone][fields]`…), or one set per component
 * (`populate[zone][on][<uid>]`), where the components not listed are dropped from the zone.
 */
import { ValidationError } from '../errors.js';
import { modelOf, type DynamicZoneAttribute, type Model, type Registry } from '../schema/registry.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parsePopulateFlag, parsePopulateWindow } from './parse-populate-options.js';
import { parseCount, parsePopulate, type PopulateRequest } from './parse-populate.js';
import { parseSort } from './parse-sort.js';
import { childPath, isPlainObject } from './path.js';
import type { DynamicZoneNode, DynamicZonePart, PopulateNode } from './tree.js';

export function parseDynamicZone(registry: Registry, request: PopulateRequest, attribute: DynamicZoneAttribute): DynamicZoneNode {
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
    count: parseCount(options, path),
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
function sharedDynamicZoneParts(registry: Registry, components: Model[], request: PopulateRequest): DynamicZonePart[] {
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
