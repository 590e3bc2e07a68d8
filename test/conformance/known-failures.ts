/**
 * known-failures.txt: conformance cases that are expected to fail on a database kind, each with
 * its reason. One entry per line:
 *
 *   <sqlite|postgres|mysql|all> <case-id> # <reason>
 *
 * Blank lines and lines starting with `#` are comments. A listed case is reported as pending
 * while it fails and as a failure once it passes, so the list can only shrink.
 */
import { readFileSync } from 'node:fs';

export const KNOWN_FAILURE_KINDS = ['sqlite', 'postgres', 'mysql', 'all'] as const;
export type KnownFailureKind = (typeof KNOWN_FAILURE_KINDS)[number];

export interface KnownFailure {
  readonly kind: KnownFailureKind;
  readonly caseId: string;
  readonly reason: string;
  readonly line: number;
}

export interface KnownFailures {
  readonly entries: readonly KnownFailure[];
  /** Lines that do not follow the format, as `file:line: problem`. */
  readonly problems: readonly string[];
  /** The entry that covers this case on this database kind, if any. */
  lookup(databaseKind: string, caseId: string): KnownFailure | undefined;
}

export function parseKnownFailures(text: string, fileName = 'known-failures.txt'): KnownFailures {
  const entries: KnownFailure[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) return;
    const match = /^(\S+)\s+(\S+)\s*#\s*(\S.*)$/.exec(content);
    if (!match) {
      problems.push(`${fileName}:${line}: expected "<sqlite|postgres|mysql|all> <case-id> # <reason>", got "${content}"`);
      return;
    }
    const [, kind, caseId, reason] = match as unknown as [string, string, string, string];
    if (!(KNOWN_FAILURE_KINDS as readonly string[]).includes(kind)) {
      problems.push(`${fileName}:${line}: unknown database kind "${kind}" (expected ${KNOWN_FAILURE_KINDS.join(', ')})`);
      return;
    }
    const key = `${kind} ${caseId}`;
    if (seen.has(key)) problems.push(`${fileName}:${line}: "${key}" is listed twice`);
    seen.add(key);
    entries.push({ kind: kind as KnownFailureKind, caseId, reason: reason.trim(), line });
  });
  for (const entry of entries) {
    if (entry.kind !== 'all' && seen.has(`all ${entry.caseId}`)) {
      problems.push(`${fileName}:${entry.line}: ${entry.caseId} is also listed for all databases`);
    }
  }
  return {
    entries,
    problems,
    lookup: (databaseKind, caseId) =>
      entries.find((entry) => entry.caseId === caseId && (entry.kind === databaseKind || entry.kind === 'all')),
  };
}

export function readKnownFailures(path: string): KnownFailures {
  return parseKnownFailures(readFileSync(path, 'utf8'), path);
}

/** A failure that shows the problems alone: a stack trace into the harness would say nothing about the case. */
export function caseFailure(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  return error;
}

/**
 * The verdict on a replayed case: passes when it has no problems (a failure if it is listed, so
 * the list shrinks), pending when it is a listed known failure, else a failure headed by `header`.
 */
export function settleReplayedCase(test: Mocha.Context, problems: readonly string[] | undefined, known: KnownFailure | undefined, header: () => string): void {
  if (!problems) throw caseFailure('not replayed');
  if (problems.length === 0) {
    if (known) throw caseFailure(`passes now: remove it from known-failures.txt (line ${known.line}: ${known.kind} ${known.caseId})`);
    return;
  }
  if (known) {
    test.test!.title += `  [known failure: ${known.reason}]`;
    test.skip();
  }
  throw caseFailure(`${header()}\n  ${problems.join('\n  ')}`);
}
