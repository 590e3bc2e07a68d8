/**
 * Parameter paths for error messages: object keys joined with dots, array indexes in brackets,
 * e.g. `populate.category.fields[0]`, `filters.$or[1].title.$eq`, `pagination.page`.
 */
import { CallerVariable } from './caller-variable.js';

export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** A plain object as qs produces it (not an array, not null, not a rule's variable). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof CallerVariable);
}
