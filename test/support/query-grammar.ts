/**
 * Random queries written in the query language itself: filters through relations, components
 * and media with every operator and awkward values, populate in object form with nested options,
 * sort through paths, locale and search — real attribute names of the schema most of the time,
 * wrong ones some of the time. Deterministic for a seed.
 */
import type { Attribute, Model, Registry } from '../../plugin/schema/registry.js';
import { picker, seededRandom } from './seeded-random.js';

const OPERATORS = [
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi',
  '$notContainsi', '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
];
const VALUES = [
  '1', '0', '-1', 'abc', '', 'true', 'false', '2024-01-01', '2024-01-01T10:00:00Z', '10:00', '9007199254740993', '1e309', '%', '_',
  "'", '"', '\\', 'null', '[1]', '{"a":1}', '999999999999999999999', '-0', '0.5', 'NaN', 'ä', '\u0000', '2024-02-30', '24:00',
];
const WRONG_NAMES = ['nope', 'createdBy', '__proto__', 'constructor', 'id'];

export function queryGrammar(registry: Registry, seed: number) {
  const random = seededRandom(seed);
  const pick = picker(random);
  const attributesOf = (model: Model): Attribute[] => [...model.attributes.values()];
  const targetOf = (attribute: Attribute): Model | null => {
    if (attribute.kind === 'relation') return registry.models.get(attribute.target) ?? null;
    if (attribute.kind === 'component') return registry.models.get(attribute.component) ?? null;
    if (attribute.kind === 'media') return registry.file;
    return null;
  };
  const value = () => encodeURIComponent(pick(VALUES));

  function filters(model: Model, prefix: string, depth: number): string[] {
    const parts: string[] = [];
    for (let count = 1 + Math.floor(random() * 2); count > 0; count -= 1) {
      const roll = random();
      if (roll < 0.1 && depth < 4) {
        parts.push(...filters(model, `${prefix}[${pick(['$and', '$or'])}][${Math.floor(random() * 2)}]`, depth + 1));
        continue;
      }
      if (roll < 0.15 && depth < 4) {
        parts.push(...filters(model, `${prefix}[$not]`, depth + 1));
        continue;
      }
      const name = random() < 0.1 ? pick(WRONG_NAMES) : pick(attributesOf(model)).name;
      const attribute = model.attributes.get(name);
      const target = attribute ? targetOf(attribute) : null;
      if (target && depth < 4 && random() < 0.6) {
        parts.push(...filters(target, `${prefix}[${name}]`, depth + 1));
        continue;
      }
      const operator = random() < 0.2 ? '' : `[${pick(OPERATORS)}]`;
      const index = random() < 0.2 ? `[${Math.floor(random() * 3)}]` : '';
      parts.push(`${prefix}[${name}]${operator}${index}=${value()}`);
    }
    return parts;
  }

  function populate(model: Model, prefix: string, depth: number): string[] {
    const candidates = attributesOf(model).filter((attribute) => ['relation', 'media', 'component', 'dynamiczone'].includes(attribute.kind));
    if (random() < 0.15 || !candidates.length) return [`${prefix}=*`];
    const parts: string[] = [];
    for (let count = 1 + Math.floor(random() * 2); count > 0; count -= 1) {
      const attribute = random() < 0.05 ? null : pick(candidates);
      const key = `${prefix}[${attribute?.name ?? pick(['title', 'nope', 'createdBy'])}]`;
      const target = attribute && attribute.kind !== 'dynamiczone' ? targetOf(attribute) : null;
      if (random() < 0.3) {
        parts.push(`${key}=${pick(['true', '1', 'false', '*', 'x'])}`);
        continue;
      }
      if (target && random() < 0.4) parts.push(`${key}[fields][0]=${pick(attributesOf(target)).name}`);
      if (target && random() < 0.3) parts.push(...filters(target, `${key}[filters]`, 2));
      if (target && random() < 0.3) parts.push(`${key}[sort]=${pick(attributesOf(target)).name}:${pick(['asc', 'desc', 'up'])}`);
      if (random() < 0.2) parts.push(`${key}[limit]=${pick(['1', '2', '-1', '0', 'x'])}`);
      if (random() < 0.2) parts.push(`${key}[start]=${pick(['1', '0', '-3'])}`);
      if (random() < 0.15) parts.push(`${key}[count]=${pick(['true', 'false'])}`);
      if (attribute?.kind === 'dynamiczone' && random() < 0.5) parts.push(`${key}[on][${pick(attribute.components)}][populate]=*`);
      if (target && depth < 4 && random() < 0.5) parts.push(...populate(target, `${key}[populate]`, depth + 1));
      if (!parts.length) parts.push(`${key}=true`);
    }
    return parts;
  }

  function sortPath(model: Model): string {
    const through = attributesOf(model).filter((attribute) => attribute.kind === 'relation' || attribute.kind === 'component');
    const attribute = through.length && random() < 0.5 ? pick(through) : null;
    const target = attribute ? targetOf(attribute) : null;
    const field = pick(attributesOf(target ?? model)).name;
    return `sort=${attribute && target ? `${attribute.name}.` : ''}${field}:${pick(['asc', 'desc'])}`;
  }

  /** A request path with a random query for one of the routes. */
  return function next(): string {
    const [route, model] = pick([...registry.routes.entries()]);
    const query: string[] = [];
    if (random() < 0.6) query.push(...filters(model, 'filters', 0));
    if (random() < 0.6) query.push(...populate(model, 'populate', 0));
    if (random() < 0.4) query.push(sortPath(model));
    if (random() < 0.2) query.push(`_q=${value()}`);
    if (random() < 0.2) query.push(`locale=${pick(['all', 'fr', 'en', 'xx'])}`);
    if (random() < 0.2) query.push(`pagination[pageSize]=${pick(['1', '100', '0'])}`);
    return `/api/${route}${random() < 0.2 && model.kind === 'collectionType' ? '/1' : ''}?${query.join('&')}`;
  };
}
