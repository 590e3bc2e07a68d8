/**
 * `data.locale` of a write body. On a localized type it is the entry's locale, which the route
 * handles (never a value of `data`); on a type that is not localized but has an attribute of
 * that name, it is that attribute's value, written like any other.
 */
import type { Model } from '../schema/registry.js';

/** Whether `locale` in `data` is a plain attribute of the model (not the entry's locale). */
export function localeIsAttribute(model: Model): boolean {
  const attribute = model.attributes.get('locale');
  return attribute?.kind === 'scalar' && !attribute.implicit;
}

/** The entry's locale given in `data` (undefined when none, or when `locale` is an attribute) and the rest of `data`. */
export function splitDataLocale(model: Model, data: Record<string, unknown>): { locale: unknown; data: Record<string, unknown> } {
  if (localeIsAttribute(model)) return { locale: undefined, data };
  const { locale, ...rest } = data;
  return { locale, data: rest };
}
