/**
 * Schema problems: what is wrong in which file, at which YAML path and line:column.
 * Every stage of loading collects them and the loader reports them all at once.
 */
import type { LoadedDocument } from './document.js';

export interface SchemaProblem {
  readonly file: string;
  /** The YAML path of the offending node, dot-separated (`attributes.title.type`); '' for the whole file. */
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** Thrown when a schema folder cannot be loaded; carries every problem found. */
export class SchemaError extends Error {
  readonly problems: readonly SchemaProblem[];

  constructor(problems: readonly SchemaProblem[]) {
    super(`${problems.length} schema problem${problems.length === 1 ? '' : 's'}:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'SchemaError';
    this.problems = problems;
  }
}

export function formatProblem(problem: SchemaProblem): string {
  const where = problem.path ? ` ${problem.path}:` : '';
  return `${problem.file}:${problem.line}:${problem.column}${where} ${problem.message}`;
}

/** A problem at a YAML path of a loaded document, located by the document itself. */
export function problemAt(
  loaded: LoadedDocument<unknown>,
  path: readonly (string | number)[],
  message: string,
): SchemaProblem {
  const position = loaded.locate(path);
  return { file: position.file, path: path.join('.'), line: position.line, column: position.column, message };
}
