/**
 * Recorded operations the package answers differently from Strapi 4.26.2 on purpose
 * (docs/deviations.md), each with what is expected instead. Either the recorded answer with the
 * words of its errors left free (D13: messages and `details` may be more precise), or an answer of
 * its own: a status, the `extensions.code` of its errors in order, and — when given — its `data`
 * exactly, or the recorded `data` changed by a function.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Answer } from './recorded.js';
import { DEVIATIONS_DATA, DEVIATIONS_REFUSED } from './deviation-list.js';

export interface ExpectedInstead {
  /** The rule of docs/deviations.md, then why it applies here. */
  readonly reason: string;
  readonly status: number;
  readonly codes: readonly string[];
  readonly data?: unknown;
  /** The recorded data as the package answers it. */
  readonly patch?: (recorded: Record<string, any>) => void;
}

export interface MessagesOnly {
  readonly reason: string;
  readonly messagesOnly: true;
}

export type Deviation = ExpectedInstead | MessagesOnly;

export const DEVIATIONS: Readonly<Record<string, Deviation>> = { ...DEVIATIONS_REFUSED, ...DEVIATIONS_DATA };

/** An answer with the words of its errors removed: `message`, `extensions.error.message` and `details`. */
export function withoutMessages(answer: Answer): Answer {
  const strip = (error: Record<string, any>) => {
    const { message: _message, extensions, ...rest } = error;
    if (!extensions?.error) return { ...rest, ...(extensions ? { extensions } : {}) };
    const { message: _inner, details: _details, ...named } = extensions.error;
    return { ...rest, extensions: { ...extensions, error: named } };
  };
  const body = answer.body as { errors?: Record<string, any>[] } | undefined;
  if (!body || !Array.isArray(body.errors)) return answer;
  return { ...answer, body: { ...body, errors: body.errors.map(strip) } };
}

/** The differences between the package's answer and what the deviation expects of it. */
export function checkDeviation(deviation: ExpectedInstead, recorded: Answer, actual: Answer): string[] {
  const problems: string[] = [];
  if (actual.status !== deviation.status) problems.push(`status ${actual.status}, expected ${deviation.status}`);
  const body = (actual.body ?? {}) as { errors?: { extensions?: { code?: string } }[]; data?: unknown };
  const codes = (body.errors ?? []).map((error) => error.extensions?.code ?? '(none)');
  if (!isDeepStrictEqual(codes, deviation.codes)) problems.push(`error codes ${JSON.stringify(codes)}, expected ${JSON.stringify(deviation.codes)}`);
  const data = expectedData(deviation, recorded);
  if (data !== undefined && !isDeepStrictEqual(body.data, data)) {
    problems.push(`data ${JSON.stringify(body.data).slice(0, 400)}, expected ${JSON.stringify(data).slice(0, 400)}`);
  }
  return problems.map((problem) => `${problem} (${deviation.reason.split(':')[0]})`);
}

function expectedData(deviation: ExpectedInstead, recorded: Answer): unknown {
  if (!deviation.patch) return deviation.data;
  const data = structuredClone((recorded.body as { data: Record<string, any> }).data);
  deviation.patch(data);
  return data;
}
