/**
 * Helpers for the query parser unit tests: the real qs with the plugin's options, assertions on
 * ValidationErrors and their paths, a compact text form of filter trees, and fuzz inputs.
 */
import { expect } from 'chai';
import qs from 'qs';
import { ValidationError } from '../../plugin/errors.js';
import type { Filter } from '../../plugin/query/tree.js';
import { picker, seededRandom } from './seeded-random.js';

/** `qs.parse` exactly as the plugin calls it (strict null handling, depth 20, 100 array items). */
export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, { strictNullHandling: true, depth: 20, arrayLimit: 100 }) as Record<string, unknown>;
}

/**
 * A filter tree as compact text: `title $eq ["A"]`, `category{name $eq ["Food"]}`, `category{}`
 * (some related row), `and(…, …)`, `or(…)`, `not(…)`; null as `null`.
 */
export function describeFilter(filter: Filter | null): string {
  if (filter === null) return 'null';
  switch (filter.kind) {
    case 'compare':
      return `${filter.field.name} ${filter.operator} ${JSON.stringify(filter.values)}`;
    case 'related':
      return `${filter.attribute.name}{${filter.filter === null ? '' : describeFilter(filter.filter)}}`;
    case 'not':
      return `not(${describeFilter(filter.item)})`;
    default:
      return `${filter.kind}(${filter.items.map(describeFilter).join(', ')})`;
  }
}

/** Runs `parse` and asserts it threw a 400 ValidationError whose path is `path`. */
export function expectValidationError(parse: () => unknown, path: string, message?: RegExp): ValidationError {
  let thrown: unknown;
  try {
    parse();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected a ValidationError').to.be.instanceOf(ValidationError);
  const error = thrown as ValidationError;
  expect(error.status).to.equal(400);
  expect(error.path).to.equal(path);
  expect(error.details).to.deep.equal({ path });
  if (message) expect(error.message).to.match(message);
  return error;
}

/** One test per case: parsing the case's query string with `parse` fails with a 400 at the case's path. */
export function itRejects(cases: readonly (readonly [query: string, path: string])[], parse: (query: Record<string, unknown>) => unknown): void {
  for (const [query, path] of cases) {
    it(`${query} → 400 at ${path}`, () => {
      expectValidationError(() => parse(parseQueryString(query)), path);
    });
  }
}

export interface FuzzOptions {
  readonly seed: number;
  readonly runs: number;
  /** Object keys to draw from, besides hostile ones. */
  readonly keys: readonly string[];
  /** String values to draw from. */
  readonly values: readonly string[];
  readonly depth: number;
}

/** Feeds random qs-shaped inputs to `parse`: each must parse or be rejected with a ValidationError. */
export function fuzz(options: FuzzOptions, parse: (input: unknown) => unknown): void {
  const random = seededRandom(options.seed);
  for (let run = 0; run < options.runs; run += 1) {
    const input = randomQueryValue(random, options.keys, options.values, options.depth);
    expectParsedOrRejected(() => parse(input), input);
  }
}

/** Runs `parse` and returns whether it either succeeded or threw a ValidationError: anything else fails. */
export function expectParsedOrRejected(parse: () => unknown, input: unknown): void {
  try {
    parse();
  } catch (error) {
    if (!(error instanceof ValidationError)) {
      expect.fail(`threw ${String(error)} for ${JSON.stringify(input)?.slice(0, 300)}`);
    }
  }
}

/**
 * A random value of the shapes qs produces (strings, null, arrays, plain objects), with keys
 * drawn from `keys` plus hostile ones (`__proto__`, `constructor`, wrong-case operators).
 */
function randomQueryValue(random: () => number, keys: readonly string[], values: readonly string[], depth: number): unknown {
  const pick = picker(random);
  const roll = random();
  if (depth <= 0 || roll < 0.35) return roll < 0.05 ? null : pick(values);
  if (roll < 0.5) {
    return Array.from({ length: Math.floor(random() * 4) }, () => randomQueryValue(random, keys, values, depth - 1));
  }
  const object: Record<string, unknown> = {};
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i += 1) {
    Object.defineProperty(object, pick([...keys, ...HOSTILE_KEYS]), {
      value: randomQueryValue(random, keys, values, depth - 1),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return object;
}

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '$EQ', '$Not', '', '0', '$', 'id.id'];
