/**
 * Replays one recorded case: sends it, compares the answer and the read-back with the recording
 * — or, for a deviation, with our own expectation, then sends its repair — and returns every
 * problem found (none: the case passes). Never throws for a mismatch, so the run goes on.
 */
import type supertest from 'supertest';
import { recordedExpectation, type Expectation, type RecordedCase, type RecordedRequest } from './cases.js';
import { compareAnswer, compareError, show } from './compare.js';
import type { Deviation } from './deviations.js';
import { readRequest, sendRequest } from './send.js';

export async function replayCase(agent: supertest.Agent, recorded: RecordedCase, deviation: Deviation | undefined): Promise<string[]> {
  const expected = recordedExpectation(recorded);
  if (!deviation) return replayAsRecorded(agent, recorded.request, expected, '');
  if ('adjust' in deviation) return replayAsRecorded(agent, recorded.request, deviation.adjust(expected), '');
  const answer = await sendRequest(agent, recorded.request);
  const problems = compareError('answer', deviation, answer);
  const problem = problems.length === 0 ? deviation.check?.(answer.body) : undefined;
  if (problem) problems.push(`answer ${problem}`);
  if (deviation.repair) {
    // Only after a refusal: had something been written, a repair would write a second entry.
    if (answer.status >= 300) {
      problems.push(...(await replayAsRecorded(agent, deviation.repair.request(recorded.request), deviation.repair.adjust?.(expected) ?? expected, 'repair ')));
    }
  } else if (recorded.readBack) {
    problems.push(...compareAnswer('readBack', recorded.readBack, await sendRequest(agent, readRequest(recorded.readBack.path)), Date.now()));
  }
  return problems;
}

/** Sends `request` and its read-back, comparing both with `expected` by the recording's rules. */
async function replayAsRecorded(agent: supertest.Agent, request: RecordedRequest, expected: Expectation, label: string): Promise<string[]> {
  const answer = await sendRequest(agent, request);
  const problems = compareAnswer(`${label}answer`, expected.answer, answer, Date.now());
  if (expected.readBack) {
    const readBack = await sendRequest(agent, readRequest(expected.readBack.path));
    problems.push(...compareAnswer(`${label}readBack`, expected.readBack, readBack, Date.now()));
  }
  return problems;
}

/** `POST /api/categories {"data":{…}}`: the request a failure message names. */
export function describeRequest(request: RecordedRequest): string {
  const payload = request.rawBody !== undefined ? ` raw ${show(request.rawBody)}` : request.body !== undefined ? ` ${show(request.body)}` : '';
  const headers = request.headers ? ` headers ${show(request.headers)}` : '';
  const padding = request.padding ? ` padded with ${request.padding.length} "x" at ${request.padding.path.join('.')}` : '';
  return `${request.method} ${request.path}${payload}${padding}${headers}${request.token === 'none' ? ' (no token)' : ''}`;
}
