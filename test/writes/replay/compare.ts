/**
 * How a replay compares an answer with the recorded one (test/writes/recorded/README.md): the
 * status always; for an error, `error.name` and the paths of `error.details.errors`; for a
 * success, the whole body, where `"<now>"` stands for an ISO date-time close to now. A mismatch
 * is told as the first differing JSON path with both values, so a failure reads without a diff tool.
 */
import type { RecordedAnswer } from './cases.js';

/** An answer as the replay received it: the parsed JSON body (undefined when it was not JSON) and the text. */
export interface ReceivedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The recording's stand-in for a date-time the reference wrote while the run was going. */
export const NOW = '<now>';
/** How far from the replay's clock a `"<now>"` date-time may be: the whole replay takes seconds. */
const NOW_TOLERANCE_MS = 10 * 60 * 1000;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const SHOWN_CHARS = 300;

export type JsonPath = readonly (string | number)[];

/** `$.data.attributes.blocks[0].__component` */
export function formatPath(path: JsonPath): string {
  const keys = path.map((key) => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`));
  return `$${keys.join('')}`;
}

/** A value as a message shows it: JSON, cut short. */
export function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} chars)` : text;
}

function isCloseToNow(value: unknown, now: number): boolean {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && Math.abs(Date.parse(value) - now) <= NOW_TOLERANCE_MS;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first place where `actual` differs from `expected`, in the expected value's order (then the
 * keys only `actual` has), or undefined when they are equal.
 */
export function firstDifference(expected: unknown, actual: unknown, now: number, path: JsonPath = []): string | undefined {
  const differ = () => `${formatPath(path)}: expected ${show(expected)}, got ${show(actual)}`;
  if (expected === NOW) return isCloseToNow(actual, now) ? undefined : `${formatPath(path)}: expected an ISO date-time close to now, got ${show(actual)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return differ();
    for (let index = 0; index < Math.max(expected.length, actual.length); index += 1) {
      if (index >= expected.length || index >= actual.length) {
        return `${formatPath([...path, index])}: expected ${show(expected[index])}, got ${show(actual[index])} (${expected.length} items expected, ${actual.length} received)`;
      }
      const difference = firstDifference(expected[index], actual[index], now, [...path, index]);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return differ();
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const difference = firstDifference(expected[key], actual[key], now, [...path, key]);
      if (difference) return difference;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : differ();
}

/** `ValidationError: "message" at title, seo.metaTitle`, or the body cut short: what a status mismatch shows. */
function describeAnswer(answer: ReceivedAnswer): string {
  const error = isObject(answer.body) && isObject(answer.body.error) ? answer.body.error : undefined;
  if (!error) return answer.body === undefined ? show(answer.text) : show(answer.body);
  const paths = errorPaths(answer.body);
  return `${String(error.name)}: ${show(error.message)}${paths ? ` at ${paths.map((path) => show(path)).join(', ')}` : ''}`;
}

/** The `error.details.errors[].path` list of an error body, when it has one. */
export function errorPaths(body: unknown): JsonPath[] | undefined {
  const details = isObject(body) && isObject(body.error) && isObject(body.error.details) ? body.error.details : undefined;
  return Array.isArray(details?.errors) ? details.errors.map((error) => (isObject(error) && Array.isArray(error.path) ? error.path : [])) : undefined;
}

function errorName(body: unknown): unknown {
  return isObject(body) && isObject(body.error) ? body.error.name : undefined;
}

/**
 * The paths as a sorted list: the order errors are listed in is not part of the contract, nor is
 * how an array index is spelled (yup, hence Strapi, writes `"0"`; the plugin writes `0`).
 */
function sortedPaths(paths: readonly JsonPath[]): string[] {
  return paths.map((path) => JSON.stringify(path.map((key) => (typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key)))).sort();
}

export interface ErrorExpectation {
  readonly status: number;
  readonly name?: string;
  readonly paths?: readonly JsonPath[];
}

/** Problems of an answer against a status, error name and error paths (each only when given). */
export function compareError(label: string, expected: ErrorExpectation, actual: ReceivedAnswer): string[] {
  if (actual.status !== expected.status) return [`${label} status: expected ${expected.status}, got ${actual.status} — ${describeAnswer(actual)}`];
  const problems: string[] = [];
  const name = errorName(actual.body);
  if (expected.name !== undefined && name !== expected.name) problems.push(`${label} error.name: expected ${show(expected.name)}, got ${show(name)} — ${describeAnswer(actual)}`);
  if (expected.paths !== undefined) {
    const want = sortedPaths(expected.paths);
    const got = sortedPaths(errorPaths(actual.body) ?? []);
    if (JSON.stringify(want) !== JSON.stringify(got)) problems.push(`${label} error.details.errors[].path: expected ${want.join(' ') || '(none)'}, got ${got.join(' ') || '(none)'} — ${describeAnswer(actual)}`);
  }
  return problems;
}

/** Problems of an answer against the recorded one, by the README's rules; none when it matches. */
export function compareAnswer(label: string, expected: RecordedAnswer, actual: ReceivedAnswer, now: number): string[] {
  if (expected.status >= 400) {
    const name = errorName(expected.response);
    return compareError(label, { status: expected.status, name: typeof name === 'string' ? name : undefined, paths: errorPaths(expected.response) }, actual);
  }
  if (actual.status !== expected.status) return [`${label} status: expected ${expected.status}, got ${actual.status} — ${describeAnswer(actual)}`];
  const difference = firstDifference(expected.response, actual.body, now);
  return difference ? [`${label} ${difference}`] : [];
}
