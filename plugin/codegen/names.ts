/**
 * One PascalCase name per model, shared by the TypeScript declarations and the OpenAPI schemas:
 * `Article`, `SharedSeo` (components by uid), `UploadFile` (the media file type).
 */
import type { Registry } from '../schema/registry.js';
import { FILE_UID } from '../schema/registry.js';

/** Names a generated file already uses for its own declarations. */
export type ReservedNames = ReadonlySet<string>;

/** uid → a name unique among the registry's models and `reserved`. */
export function modelTypeNames(registry: Registry, reserved: ReservedNames): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set(reserved);
  for (const model of registry.models.values()) {
    const words = model.uid === FILE_UID ? 'upload file' : model.modelType === 'component' ? model.uid : model.singularName;
    let name = pascalCase(words);
    // Two content types of different plugins may share a singular name.
    if (taken.has(name)) name = pascalCase(model.uid.replace(/^[a-z]+::/, ''));
    for (let suffix = 2; taken.has(name); suffix += 1) name = `${pascalCase(words)}${suffix}`;
    taken.add(name);
    names.set(model.uid, name);
  }
  return names;
}

export function pascalCase(words: string): string {
  return words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')
    .replace(/^(?=\d)/, '_');
}

/** A property name, quoted only when it is not an identifier (`"meta-title"`). */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}
