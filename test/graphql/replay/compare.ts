/**
 * How a replayed answer is compared with the recorded one: the status, then the JSON exactly —
 * values, array order, and the order of keys wherever GraphQL fixes it (a response's keys follow
 * the selection). Key order is left free only in an error object and inside a value of a JSON
 * field, whose order is the engine's (PostgreSQL's jsonb orders keys its own way, for Strapi too).
 * Each difference is one line with its JSON path, a few at most.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { buildSchema, getNamedType, isObjectType } from 'graphql';
import type { Answer } from './recorded.js';

/** The names of the fields whose type is the JSON scalar, in an SDL file. */
export function jsonFieldNames(sdlFile: string): ReadonlySet<string> {
  const schema = buildSchema(readFileSync(sdlFile, 'utf8'));
  const names = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) if (getNamedType(field.type).name === 'JSON') names.add(field.name);
  }
  return names;
}

const MOST_DIFFERENCES = 6;
const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 300));

export function compareAnswers(expected: Answer, actual: Answer, jsonFields: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  if (expected.status !== actual.status) problems.push(`status ${actual.status}, Strapi ${expected.status}`);
  if (expected.text !== undefined || actual.text !== undefined) {
    if (expected.text !== actual.text) problems.push(`answered ${actual.text !== undefined ? `text ${shown(actual.text)}` : `JSON ${shown(actual.body)}`}, Strapi ${expected.text !== undefined ? `text ${shown(expected.text)}` : `JSON ${shown(expected.body)}`}`);
    return problems;
  }
  walk(expected.body, actual.body, '$', true, jsonFields, problems);
  return problems.length > MOST_DIFFERENCES ? [...problems.slice(0, MOST_DIFFERENCES), `… ${problems.length - MOST_DIFFERENCES} more`] : problems;
}

function walk(expected: unknown, actual: unknown, path: string, ordered: boolean, jsonFields: ReadonlySet<string>, problems: string[]): void {
  if (problems.length > MOST_DIFFERENCES) return;
  if (isDeepStrictEqual(expected, actual) && (!ordered || sameKeyOrder(expected, actual, jsonFields))) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) problems.push(`${path}: ${actual.length} items, Strapi ${expected.length}: ${shown(actual)} vs ${shown(expected)}`);
    else expected.forEach((item, index) => walk(item, actual[index], `${path}[${index}]`, ordered, jsonFields, problems));
    return;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    for (const key of keys) walk(expected[key], actual[key], `${path}.${key}`, ordered && !unordered(key, jsonFields), jsonFields, problems);
    const expectedKeys = Object.keys(expected);
    const actualKeys = Object.keys(actual);
    if (ordered && isDeepStrictEqual([...expectedKeys].sort(), [...actualKeys].sort()) && !isDeepStrictEqual(expectedKeys, actualKeys)) {
      problems.push(`${path}: keys in the order ${actualKeys.join(', ')}, Strapi ${expectedKeys.join(', ')}`);
    }
    return;
  }
  problems.push(`${path}: ${shown(actual)}, Strapi ${shown(expected)}`);
}

/** Under these keys, objects may list their keys in any order. */
const unordered = (key: string, jsonFields: ReadonlySet<string>) => key === 'errors' || jsonFields.has(key);

/** Whether every object in `a` lists its keys in the order of its counterpart in `b` (errors and JSON values aside). */
function sameKeyOrder(a: unknown, b: unknown, jsonFields: ReadonlySet<string>): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.every((item, index) => sameKeyOrder(item, b[index], jsonFields));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return isDeepStrictEqual(keys, Object.keys(b)) && keys.every((key) => unordered(key, jsonFields) || sameKeyOrder(a[key], b[key], jsonFields));
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The statements a Server-Timing header reports (`sql;desc="statements=1"`), or null. */
export function statementsOf(serverTiming: string | null): number | null {
  const match = /statements=(\d+)/.exec(serverTiming ?? '');
  return match ? Number(match[1]) : null;
}
