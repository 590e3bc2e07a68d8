/**
 * The recorded upload cases (test/uploads/recorded/cases.json, written by record.mjs) and the
 * recorder's helpers the replay shares (requests.mjs, normalize.mjs), loaded from the source tree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../support/api.js';

export const UPLOADS_DIR = join(repoRoot, 'test', 'uploads');

export interface RecordedPart {
  readonly file?: string;
  readonly bytes?: number;
  readonly filename?: string;
  readonly type?: string;
  readonly field?: string;
  readonly value?: string;
}

export interface TableDiff {
  readonly added: Record<string, unknown>[];
  readonly changed: Record<string, unknown>[];
  readonly removed: unknown[];
}

export interface RecordedCase {
  readonly seq: number;
  readonly name: string;
  readonly request: { readonly method: string; readonly path: string; readonly parts?: RecordedPart[]; readonly json?: unknown; readonly token?: string };
  readonly status: number;
  readonly response: unknown;
  readonly rows: Record<string, TableDiff>;
  readonly objects: { readonly added: string[]; readonly removed: string[] };
}

export interface Recording {
  readonly maxFileBytes: number;
  readonly cases: RecordedCase[];
}

export function loadRecording(): Recording {
  return JSON.parse(readFileSync(join(UPLOADS_DIR, 'recorded', 'cases.json'), 'utf8')) as Recording;
}

export type Snapshot = Record<string, Map<string, Record<string, unknown>>>;

/** normalize.mjs, as the recorder uses it. */
export interface Normalizer {
  readonly ROW_TABLES: readonly string[];
  snapshotKnex(knex: unknown): Promise<Snapshot>;
  diffRows(before: Map<string, Record<string, unknown>>, after: Map<string, Record<string, unknown>>): TableDiff;
  normalize<T>(value: T, runStartedAt: number): T;
  normalizeObjectNames(names: string[]): string[];
}

/** requests.mjs, as the recorder uses it. */
export interface Requests {
  resolvePart(part: RecordedPart, filesDir: string): { field: string; value?: string; filename?: string; type?: string; content?: Buffer };
}

export async function loadHelpers(): Promise<{ normalizer: Normalizer; requests: Requests }> {
  const load = (name: string) => import(pathToFileURL(join(UPLOADS_DIR, name)).href) as Promise<unknown>;
  return { normalizer: (await load('normalize.mjs')) as Normalizer, requests: (await load('requests.mjs')) as Requests };
}
