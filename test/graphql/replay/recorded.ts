/**
 * The recorded GraphQL operations (test/graphql/recorded/kit.json, written by
 * record-operations.mjs) and the module that sent them to the reference (operations/send.mjs),
 * whose request sender and normalisation the replay uses as they are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../support/server.js';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** An answer: its status, and its JSON body, or its text when it was not JSON. */
export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly text?: string;
}

export interface RecordedOperation extends Answer {
  readonly name: string;
  readonly kind: 'query' | 'mutation';
  readonly auth?: string;
  readonly query?: string;
  readonly variables?: unknown;
  readonly operationName?: string;
  readonly method?: string;
  readonly request: RecordedRequest;
}

/** An API token of the recording: Strapi's `full-access`, or `custom` with Strapi's action names. */
export interface RecordedToken {
  readonly name: string;
  readonly key: string;
  readonly type: 'full-access' | 'custom' | 'read-only';
  readonly actions?: readonly string[];
}

export interface Recording {
  readonly recordedWith: string;
  readonly tokens: readonly RecordedToken[];
  readonly operations: readonly RecordedOperation[];
}

export const RECORDING_FILE = join(repoRoot, 'test', 'graphql', 'recorded', 'kit.json');

export function loadRecording(): Recording {
  return JSON.parse(readFileSync(RECORDING_FILE, 'utf8')) as Recording;
}

/** What operations/send.mjs exports. */
export interface SendModule {
  sendRequest(base: string, request: RecordedRequest): Promise<Answer & { serverTiming: string | null }>;
  normalizeAnswer(value: unknown, runStartedAt: number): unknown;
}

export async function loadSendModule(): Promise<SendModule> {
  return (await import(pathToFileURL(join(repoRoot, 'test', 'graphql', 'operations', 'send.mjs')).href)) as SendModule;
}

/** The operations as operations/kit.mjs lists them today (to tell a stale recording). */
export async function loadOperationSources(): Promise<readonly Record<string, unknown>[]> {
  const module = (await import(pathToFileURL(join(repoRoot, 'test', 'graphql', 'operations', 'kit.mjs')).href)) as { operations: Record<string, unknown>[] };
  return module.operations;
}
