/**
 * The write cases recorded from Strapi 4.26.2 (test/writes/recorded/, see its README): loaded in
 * `seq` order across every group, the order a replay must send them in, since the ids in later
 * paths and answers are the ids the earlier cases were given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/api.js';

export const RECORDED_DIR = join(repoRoot, 'test', 'writes', 'recorded');

/** A request as recorded: `body` goes out as JSON, `rawBody` as the exact string. */
export interface RecordedRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly rawBody?: string;
  /** A string of `length` "x" put at `path` of `body` when it is sent: a body too large to keep in the recording. */
  readonly padding?: { readonly path: readonly (string | number)[]; readonly length: number };
  readonly headers?: Readonly<Record<string, string>>;
  /** `"none"`: no writer token (the public role, or whatever `headers` sends). */
  readonly token?: 'none';
}

/** What the reference answered: the parsed JSON body, or `responseText` when it was not JSON. */
export interface RecordedAnswer {
  readonly status: number;
  readonly response: unknown;
  readonly responseText?: string;
}

/** The answer to a request and to its read-back GET, as a replay compares them. */
export interface Expectation {
  readonly answer: RecordedAnswer;
  readonly readBack?: RecordedAnswer & { readonly path: string };
}

export interface RecordedCase extends RecordedAnswer {
  readonly seq: number;
  readonly group: string;
  readonly name: string;
  readonly note?: string;
  readonly request: RecordedRequest;
  readonly readBack?: RecordedAnswer & { readonly path: string };
}

interface RecordedIndex {
  readonly total: number;
  readonly groups: readonly { readonly group: string; readonly file: string; readonly cases: number }[];
}

/** Every recorded case, sorted by `seq`; throws when the files disagree with index.json. */
export function loadRecordedCases(directory = RECORDED_DIR): RecordedCase[] {
  const index = JSON.parse(readFileSync(join(directory, 'index.json'), 'utf8')) as RecordedIndex;
  const cases: RecordedCase[] = [];
  for (const { group, file, cases: count } of index.groups) {
    const parsed = JSON.parse(readFileSync(join(directory, file), 'utf8')) as { cases: Omit<RecordedCase, 'group'>[] };
    if (parsed.cases.length !== count) throw new Error(`${file}: ${parsed.cases.length} cases, index.json says ${count}`);
    for (const recorded of parsed.cases) cases.push({ ...recorded, group });
  }
  cases.sort((a, b) => a.seq - b.seq);
  const gap = cases.findIndex((recorded, position) => recorded.seq !== position + 1);
  if (gap >= 0) throw new Error(`recorded cases: seq ${cases[gap]!.seq} found where ${gap + 1} was expected`);
  if (cases.length !== index.total) throw new Error(`recorded cases: ${cases.length}, index.json says ${index.total}`);
  return cases;
}

/** The expectation a case carries as recorded. */
export function recordedExpectation(recorded: RecordedCase): Expectation {
  const { status, response, responseText, readBack } = recorded;
  return { answer: { status, response, ...(responseText !== undefined ? { responseText } : {}) }, ...(readBack ? { readBack } : {}) };
}
