/**
 * Hostile query strings: queries of the grammar (query-grammar.ts) broken on purpose, and pieces
 * no client should send — unbalanced brackets, huge indexes, prototype keys, SQL and LIKE
 * metacharacters, NUL, percent-escapes that are not UTF-8, very long values. Deterministic for a
 * seed, so a failing input can be replayed.
 */
import type { Registry } from '../../plugin/schema/registry.js';
import { queryGrammar } from './query-grammar.js';
import { picker, seededRandom } from './seeded-random.js';

const BROKEN_KEYS = [
  'filters[title', 'filters]]', 'populate[[[', 'sort[]', '[]', 'a[b]]c', 'filters[$or][', 'populate[category][populate',
  'fields[', 'filters[[title]]', 'populate]*[', 'pagination[page][', 'filters[$and][0][$or][0', '=', '&&', '[', ']',
];
const HUGE_INDEXES = [
  'filters[$or][99999999][title]', 'fields[4294967295]', 'sort[2147483648]', 'populate[category][fields][99999999]',
  'filters[id][$in][1000000000]', 'filters[$and][18446744073709551616][id]', 'locale[999999]',
];
const PROTOTYPE_KEYS = [
  '__proto__[polluted]', '__proto__', 'constructor[prototype][polluted]', 'filters[__proto__][polluted]',
  'filters[constructor][prototype][polluted][$eq]', 'populate[__proto__]', 'populate[constructor][prototype]',
  'sort[__proto__]', 'pagination[__proto__][pageSize]', 'fields[__proto__]', 'filters[title][__proto__]',
  'filters[$or][__proto__][title]', 'populate[category][__proto__][polluted]', 'hasOwnProperty', 'toString',
];
const HOSTILE_VALUES = [
  "' OR 1=1 --", '"; DROP TABLE articles; --', '%', '_', '\\', '%_%', '*/', '/*', '$1', '?', ':name', '\u0000', 'a\u0000b',
  '%00', '%C3%28', '%FF', '%E2%82', '%ED%A0%80', '%F4%90%80%80', '%%', '%G1', '%', '\uFFFF', '\uD800', '🦄', 'NaN', '-0', '1e999',
  'Infinity', '0x10', '[object Object]', 'undefined', 'null', 'true', '2024-13-45', '9'.repeat(400),
];

export interface GarbageOptions {
  /** Length of the longest values sent (default 1 MB). */
  readonly longValueBytes?: number;
}

export function garbageQueries(registry: Registry, seed: number, options: GarbageOptions = {}) {
  const random = seededRandom(seed);
  const pick = picker(random);
  const grammar = queryGrammar(registry, seed ^ 0x5eed);
  const routes = [...registry.routes.keys()];
  const longValue = 'x'.repeat(options.longValueBytes ?? 1024 * 1024);

  /** A value as it appears on the wire: often raw (percent-escapes left as they are), sometimes encoded. */
  const wireValue = (): string => {
    if (random() < 0.03) return longValue;
    const value = pick(HOSTILE_VALUES);
    // Lone surrogates cannot be percent-encoded; they travel raw and the request line encodes them.
    return random() < 0.5 && !value.startsWith('%') && !/[\uD800-\uDFFF]/.test(value) ? encodeURIComponent(value) : value.replace(/\u0000/g, '%00');
  };
  const key = (): string => pick([...BROKEN_KEYS, ...HUGE_INDEXES, ...PROTOTYPE_KEYS]);

  /** Breaks a valid-looking query: drops or doubles a bracket, or swaps in a hostile key or value. */
  const mutate = (query: string): string => {
    const parts = query.split('&').filter(Boolean);
    for (let count = 1 + Math.floor(random() * 3); count > 0; count -= 1) {
      const roll = random();
      const at = Math.floor(random() * (parts.length + 1));
      if (roll < 0.3 && parts.length) {
        const part = parts[at % parts.length]!;
        const bracket = part.search(/[[\]]/);
        parts[at % parts.length] = bracket < 0 ? `${part}[` : part.slice(0, bracket) + part.slice(bracket + 1);
      } else if (roll < 0.6 && parts.length) {
        const part = parts[at % parts.length]!;
        parts[at % parts.length] = `${part.split('=')[0]}=${wireValue()}`;
      } else {
        parts.splice(at, 0, `${key()}=${wireValue()}`);
      }
    }
    return parts.join('&');
  };

  /** A request path with a hostile query string. */
  return function next(): string {
    const [path, query = ''] = grammar().split('?');
    if (random() < 0.25) return `/api/${pick(routes)}${random() < 0.3 ? `/${pick(['0', '-1', '1.5', '99999999999999999999', '%00', '1e3', '__proto__'])}` : ''}?${key()}=${wireValue()}`;
    return `${path}?${mutate(query)}`;
  };
}
