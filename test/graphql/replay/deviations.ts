/**
 * Recorded operations the package answers differently from Strapi 4.26.2 on purpose
 * (docs/deviations.md), each with the answer expected instead: its status, the `extensions.code`
 * of its errors in order, and (when given) its `data` exactly.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Answer } from './recorded.js';

export interface Deviation {
  /** The rule of docs/deviations.md (`D7`), then why it applies here. */
  readonly reason: string;
  readonly status: number;
  readonly codes: readonly string[];
  readonly data?: unknown;
}

export const DEVIATIONS: Readonly<Record<string, Deviation>> = {};

/** The differences between the package's answer and the deviation's expectation. */
export function checkDeviation(deviation: Deviation, actual: Answer): string[] {
  const problems: string[] = [];
  if (actual.status !== deviation.status) problems.push(`status ${actual.status}, expected ${deviation.status} (${deviation.reason})`);
  const body = (actual.body ?? {}) as { errors?: { extensions?: { code?: string } }[]; data?: unknown };
  const codes = (body.errors ?? []).map((error) => error.extensions?.code ?? '(none)');
  if (!isDeepStrictEqual(codes, deviation.codes)) problems.push(`error codes ${JSON.stringify(codes)}, expected ${JSON.stringify(deviation.codes)}`);
  if (deviation.data !== undefined && !isDeepStrictEqual(body.data, deviation.data)) {
    problems.push(`data ${JSON.stringify(body.data).slice(0, 300)}, expected ${JSON.stringify(deviation.data).slice(0, 300)}`);
  }
  return problems;
}
