/**
 * `fields`: which scalar attributes each entry returns (`id` always). Accepts a name, a comma
 * list (D9: Strapi rejects it although its own converter splits it), an array of either, and `*`.
 */
import { ValidationError } from '../errors.js';
import type { Model, ScalarAttribute } from '../schema/registry.js';
import { describeValue, quote } from './cast-value.js';
import { childPath } from './path.js';
import { describeKind, resolveAttribute } from './resolve-attribute.js';

const WILDCARD = '*';

/**
 * Parses `fields` for `model`: the requested public scalar attributes in the model's attribute
 * order, without duplicates. Absent (undefined or null) or `*` anywhere: every default field.
 * `id` is accepted and implied. Anything else (empty names, objects, relations, media,
 * components, dynamic zones, hidden or unknown names) is a 400 at `path` or `path[i]`.
 */
export function parseFields(model: Model, raw: unknown, path: string): readonly ScalarAttribute[] {
  if (raw === undefined || raw === null) return model.defaultFields;
  const requested = new Set<string>();
  if (typeof raw === 'string') {
    collectNames(model, raw, path, requested);
  } else if (Array.isArray(raw)) {
    raw.forEach((item, index) => {
      const itemPath = childPath(path, index);
      if (typeof item !== 'string') throw new ValidationError(itemPath, `Invalid fields item: expected an attribute name, not ${describeValue(item)}`);
      collectNames(model, item, itemPath, requested);
    });
  } else {
    throw new ValidationError(path, `Invalid fields: expected an attribute name, a comma-separated list or fields[0]=name, not ${describeValue(raw)}`);
  }
  if (requested.has(WILDCARD)) return model.defaultFields;
  return Object.freeze(model.defaultFields.filter((field) => requested.has(field.name)));
}

/** Checks every name of a comma list and adds it to `requested`. */
function collectNames(model: Model, text: string, path: string, requested: Set<string>): void {
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name === '') {
      throw new ValidationError(path, `Invalid fields ${quote(text)}: empty attribute name; expected names such as title or title,slug`);
    }
    checkName(model, name, path);
    requested.add(name);
  }
}

function checkName(model: Model, name: string, path: string): void {
  if (name === WILDCARD || name === 'id') return;
  const attribute = resolveAttribute(model, name, path, 'fields');
  if (attribute.kind !== 'scalar') {
    throw new ValidationError(path, `Invalid parameter ${quote(name)}: ${describeKind(attribute)} cannot be selected with fields; use populate[${name}] to include it`);
  }
}
