/**
 * A YAML schema file parsed with its source positions kept, so every later problem (structural
 * or cross-file) can name the line and column of the node it is about. A file past the limits of
 * yaml-limits.ts (size, nesting, aliases) is a problem, not parsed.
 */
import { readFile } from 'node:fs/promises';
import { isCollection, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node, type YAMLError } from 'yaml';
import type { SourcePosition } from './document.js';
import type { SchemaProblem } from './problems.js';
import type { YamlPath } from './validate.js';
import { exceededYamlLimit, MAX_YAML_ALIAS_COUNT, type YamlLimits } from './yaml-limits.js';

/** A parsed file: its plain data, a locator for YAML paths, and its syntax problems. */
export interface YamlSource {
  readonly file: string;
  readonly data: unknown;
  /** Syntax errors and duplicate keys; when there are any, `data` is not to be trusted. */
  readonly problems: readonly SchemaProblem[];
  /** The node at a YAML path (or its nearest existing parent); `atKey` prefers the key of the last step. */
  locate(path: YamlPath, atKey?: boolean): SourcePosition;
}

/** Parse one file. `file` is the name used in positions and problems. */
export function parseYamlSource(file: string, text: string, limits: YamlLimits = {}): YamlSource {
  const exceeded = exceededYamlLimit(text, limits);
  if (exceeded) {
    const position = { file, ...lineAndColumn(text, exceeded.offset) };
    return { file, data: null, problems: [{ ...position, path: '', message: exceeded.message }], locate: () => position };
  }
  const lineCounter = new LineCounter();
  // Duplicate keys are found here in linear time: the library's own check compares each key with every other.
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const positionAt = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const problemAt = (offset: number, message: (path: (string | number)[]) => string): SchemaProblem => {
    const path = pathAtOffset(document.contents, offset);
    return { ...positionAt(offset), path: path.join('.'), message: message(path) };
  };
  // Past its first syntax error the parser has lost its place: what it reports for the lines
  // after (one wrong indentation or tab gives dozens) follows from that error, not from the text.
  const [syntax] = [...document.errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const problems = duplicateKeyOffsets(document).map((offset) =>
    problemAt(offset, (path) => `duplicate key "${path[path.length - 1] ?? ''}"; a key may appear only once in a mapping`),
  );
  if (syntax) problems.push(problemAt(syntaxErrorOffset(document, syntax), () => `YAML syntax error: ${syntax.message}`));
  let data: unknown = null;
  if (!problems.length) {
    try {
      data = document.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
    } catch (error) {
      if (!(error instanceof ReferenceError)) throw error;
      // The library refuses aliases that expand too far ("billion laughs"), or one without its anchor.
      const at = firstAliasOffset(document);
      const message = /excessive alias/i.test(error.message)
        ? `aliases expand to too many nodes (at most ${MAX_YAML_ALIAS_COUNT}); write the values out instead of nesting aliases of aliases`
        : `YAML alias error: ${error.message}`;
      problems.push(problemAt(at, () => message));
    }
  }
  return {
    file,
    data,
    problems,
    locate: (path, atKey = false) => positionAt(offsetOf(document, path, atKey)),
  };
}

/** Where each key that repeats an earlier key of its mapping starts (scalar keys by value, as the library compares them). */
function duplicateKeyOffsets(document: Document): number[] {
  const offsets: number[] = [];
  visit(document, {
    Map(_key, node) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) offsets.push(isNode(pair.key) && pair.key.range ? pair.key.range[0] : 0);
        seen.add(key);
      }
    },
  });
  return offsets;
}

function firstAliasOffset(document: Document): number {
  let offset = -1;
  visit(document, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset >= 0 ? offset : 0;
}

/** The 1-based line and column of an offset, for a file the parser never saw. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Where an author should look for a syntax error. A quote never closed runs to the end of the file,
 * where the parser reports it: the quote that opens it is the last quoted scalar starting before.
 */
function syntaxErrorOffset(document: Document, error: YAMLError): number {
  const offset = error.pos[0];
  if (error.code !== 'MISSING_CHAR' || !/quote/.test(error.message)) return offset;
  let opening = -1;
  visit(document, {
    Scalar(_key, node) {
      const start = node.range?.[0] ?? -1;
      if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && start <= offset && start > opening) opening = start;
    },
  });
  return opening >= 0 ? opening : offset;
}

/** Where the node at `path` starts, walking as far down the path as the document goes. */
function offsetOf(document: Document, path: YamlPath, atKey: boolean): number {
  let node: unknown = document.contents;
  let offset = isNode(node) && node.range ? node.range[0] : 0;
  for (const [index, step] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
      if (!pair) break;
      offset = entryOffset(pair.key as Node, pair.value, atKey && last);
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number' && isNode(node.items[step])) {
      node = node.items[step];
      offset = (node as Node).range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

/**
 * A mapping entry is best shown by its value when the value sits on the same line (a scalar or a
 * flow collection) and by its key otherwise: a block collection starts on the next line, and an
 * empty value has no text of its own.
 */
function entryOffset(key: Node, value: unknown, atKey: boolean): number {
  const keyOffset = key.range?.[0] ?? 0;
  if (atKey || !isNode(value) || !value.range) return keyOffset;
  if (isScalar(value) && value.value === null && !value.source) return keyOffset;
  if (isCollection(value) && !value.flow) return keyOffset;
  return value.range[0];
}

/** The YAML path of the deepest node containing a source offset, for syntax problems. */
function pathAtOffset(node: unknown, offset: number): (string | number)[] {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key;
      const name = isScalar(key) ? String(key.value) : '?';
      if (isNode(key) && key.range && offset >= key.range[0] && offset < key.range[2]) return [name];
      if (isNode(pair.value) && pair.value.range && offset >= pair.value.range[0] && offset < pair.value.range[2]) {
        return [name, ...pathAtOffset(pair.value, offset)];
      }
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) {
      if (isNode(item) && item.range && offset >= item.range[0] && offset < item.range[2]) return [index, ...pathAtOffset(item, offset)];
    }
  }
  return [];
}

function isNode(value: unknown): value is Node {
  return isScalar(value) || isCollection(value);
}

/** A file's text, or null when there is no such file (the caller decides what that means). */
export async function readOptionalFile(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
