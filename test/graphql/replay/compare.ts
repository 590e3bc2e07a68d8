/**
 * How a replayed answer is compared with the recorded one: the status, then the JSON exactly —
 * values, array order, and the order of keys wherever GraphQL fixes it (a response's keys follow
 * the selection; only the keys of an error object are in no particular order). Each difference is
 * one line with its JSON path, a few at most.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Answer } from './recorded.js';

const MOST_DIFFERENCES = 6;
const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 300));

export function compareAnswers(expected: Answer, actual: Answer): string[] {
  const problems: string[] = [];
  if (expected.status !== actual.status) problems.push(`status ${actual.status}, Strapi ${expected.status}`);
  if (expected.text !== undefined || actual.text !== undefined) {
    if (expected.text !== actual.text) problems.push(`answered ${actual.text !== undefined ? `text ${shown(actual.text)}` : `JSON ${shown(actual.body)}`}, Strapi ${expected.text !== undefined ? `text ${shown(expected.text)}` : `JSON ${shown(expected.body)}`}`);
    return problems;
  }
  walk(expected.body, actual.body, '$', true, problems);
  return problems.length > MOST_DIFFERENCES ? [...problems.slice(0, MOST_DIFFERENCES), `… ${problems.length - MOST_DIFFERENCES} more`] : problems;
}

function walk(expected: unknown, actual: unknown, path: string, ordered: boolean, problems: string[]): void {
  if (problems.length > MOST_DIFFERENCES) return;
  if (isDeepStrictEqual(expected, actual) && (!ordered || sameKeyOrder(expected, actual))) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) problems.push(`${path}: ${actual.length} items, Strapi ${expected.length}: ${shown(actual)} vs ${shown(expected)}`);
    else expected.forEach((item, index) => walk(item, actual[index], `${path}[${index}]`, ordered, problems));
    return;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    for (const key of keys) walk(expected[key], actual[key], `${path}.${key}`, ordered && key !== 'errors', problems);
    const expectedKeys = Object.keys(expected);
    const actualKeys = Object.keys(actual);
    if (ordered && isDeepStrictEqual([...expectedKeys].sort(), [...actualKeys].sort()) && !isDeepStrictEqual(expectedKeys, actualKeys)) {
      problems.push(`${path}: keys in the order ${actualKeys.join(', ')}, Strapi ${expectedKeys.join(', ')}`);
    }
    return;
  }
  problems.push(`${path}: ${shown(actual)}, Strapi ${shown(expected)}`);
}

/** Whether every object in `a` lists its keys in the order of its counterpart in `b` (errors aside). */
function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.every((item, index) => sameKeyOrder(item, b[index]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return isDeepStrictEqual(keys, Object.keys(b)) && keys.every((key) => key === 'errors' || sameKeyOrder(a[key], b[key]));
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
