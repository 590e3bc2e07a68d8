/**
 * Resolves a name written in `fields`, `filters` or `sort` to an attribute the API may use, and
 * explains every refusal. Private and password attributes are refused with the same words as
 * unknown names, so that an error never confirms that a hidden attribute exists.
 */
import { ValidationError } from '../errors.js';
import { modelOf, type Attribute, type Model, type Registry, type ScalarAttribute } from '../schema/registry.js';
import { quote } from './cast-value.js';
import type { PathAttribute } from './tree.js';

/** The query parameter a name is used in, for messages. */
export type NameUsage = 'fields' | 'filters' | 'sort';

/** What a name may resolve to: a public scalar, or an attribute leading to other rows. */
export type UsableAttribute = ScalarAttribute | PathAttribute;

const USAGE_VERB: Record<NameUsage, string> = { fields: 'selected', filters: 'filtered', sort: 'sorted' };

/**
 * The public scalar, relation, component or media attribute `name` of `model`. Unknown and hidden
 * names, dynamic zones, internal attributes (createdBy, updatedBy, folder) and the media morph
 * relation are a 400 at `path`.
 */
export function resolveAttribute(model: Model, name: string, path: string, usage: NameUsage): UsableAttribute {
  const attribute = model.attributes.get(name);
  if (attribute === undefined || attribute.hidden) throw unknownName(model, name, path, usage);
  switch (attribute.kind) {
    case 'scalar':
    case 'relation':
    case 'component':
    case 'media':
      return attribute;
    case 'dynamiczone':
      throw new ValidationError(path, `Invalid parameter ${quote(name)}: dynamic zones cannot be ${USAGE_VERB[usage]}${usage === 'fields' ? '; use populate' : ''}`);
    default:
      throw new ValidationError(path, `Invalid parameter ${quote(name)}: ${describeKind(attribute)} of ${model.uid} is not available through the API`);
  }
}

/** The model on the other side of a relation, component or media attribute. */
export function targetOf(attribute: PathAttribute, registry: Registry): Model {
  if (attribute.kind === 'relation') return modelOf(registry, attribute.target);
  if (attribute.kind === 'component') return modelOf(registry, attribute.component);
  return registry.file;
}

/** "a relation", "a component", "media": for messages about where a name leads. */
export function describeKind(attribute: Attribute): string {
  switch (attribute.kind) {
    case 'relation':
      return 'a relation';
    case 'component':
      return 'a component';
    case 'media':
      return 'a media attribute';
    case 'dynamiczone':
      return 'a dynamic zone';
    case 'morph':
      return 'the polymorphic relation';
    case 'internal':
      return 'an internal attribute';
    default:
      return 'a scalar attribute';
  }
}

function unknownName(model: Model, name: string, path: string, usage: NameUsage): ValidationError {
  const hint = suggestName(model, name);
  const suffix = hint ? `; did you mean ${quote(hint)}?` : '';
  return new ValidationError(path, `Invalid parameter ${quote(name)}: ${model.uid} has no attribute by that name that can be ${USAGE_VERB[usage]}${suffix}`);
}

/**
 * A public attribute whose name differs only in case, or whose column is the name written
 * (`publish_date` for `publishDate`): Strapi accepts column names, we point at the attribute.
 */
function suggestName(model: Model, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const attribute of model.attributes.values()) {
    if (attribute.hidden || attribute.kind === 'morph') continue;
    if (attribute.name.toLowerCase() === lower) return attribute.name;
    if (attribute.kind === 'scalar' && attribute.column === name) return attribute.name;
  }
  return undefined;
}
