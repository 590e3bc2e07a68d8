/**
 * What a YAML file may cost before the `yaml` library reads it. The library's parser spends time
 * and memory on each node, more on nested ones (400 KB of `[` blocked the event loop for seconds
 * and kept 250 MB), and permissions.yaml and webhooks.yaml are read again by a running server
 * whenever they change: their size, depth and node count are checked first, by one linear scan
 * that builds nothing.
 *
 * The scan over-approximates the depth the way a YAML parser counts it: each flow collection
 * (`[`, `{`) opened at the start of a node, each more-indented line of block context, and each
 * compact entry (`- - x`, `? x`). It skips quoted scalars, comments and block scalars (`|`, `>`),
 * whose brackets are text, and a bracket inside a plain scalar (`Array[0]`) opens nothing.
 */

/** Files larger than this are not parsed (permissions, webhooks and schema files are a few KB). */
export const MAX_YAML_BYTES = 1024 * 1024;
/** Collections inside collections: a schema or permissions file needs fewer than ten. */
export const MAX_YAML_DEPTH = 64;
/**
 * Nodes, counted cheaply: lines of block context, flow collections and their entries. The library
 * spends tens of microseconds on each: 400 KB of `[],` is 130,000 of them and seconds of parsing,
 * however shallow. The largest YAML file of the repository and its examples has under 200.
 */
export const MAX_YAML_NODES = 10_000;
/** The `yaml` library's limit on the nodes aliases expand to (its default): a "billion laughs" is refused. */
export const MAX_YAML_ALIAS_COUNT = 100;

export interface YamlLimits {
  readonly maxBytes?: number;
  readonly maxDepth?: number;
  readonly maxNodes?: number;
}

export interface LimitExceeded {
  /** Offset in the text where the limit was passed. */
  readonly offset: number;
  readonly message: string;
}

const SPACE = new Set([' ', '\t', '\r', '\n']);

/** The first limit the text passes, or null. Linear in the text, and allocates nothing per character. */
export function exceededYamlLimit(text: string, limits: YamlLimits = {}): LimitExceeded | null {
  const maxBytes = limits.maxBytes ?? MAX_YAML_BYTES;
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: the exact count is needed only near the limit.
  if (text.length * 3 > maxBytes && Buffer.byteLength(text, 'utf8') > maxBytes) {
    return { offset: 0, message: `the file is ${Buffer.byteLength(text, 'utf8')} bytes; at most ${maxBytes} bytes (${mebibytes(maxBytes)}) are read` };
  }
  return scanStructure(text, limits.maxDepth ?? MAX_YAML_DEPTH, limits.maxNodes ?? MAX_YAML_NODES);
}

function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function scanStructure(text: string, maxDepth: number, maxNodes: number): LimitExceeded | null {
  const tooDeep = (offset: number): LimitExceeded => ({ offset, message: `the YAML nests deeper than ${maxDepth} levels (collections inside collections); at most ${maxDepth} are read` });
  const tooMany = (offset: number): LimitExceeded => ({ offset, message: `the YAML has more than ${maxNodes} nodes (lines, collections and their entries); at most ${maxNodes} are read` });
  let nodes = 0;
  /** Indentations of the open block levels, innermost last. */
  const indents: number[] = [];
  let flow = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    // A line starts: its indentation.
    const lineStart = index;
    while (index < length && text[index] === ' ') index++;
    const indent = index - lineStart;
    if (index >= length) break;
    const first = text[index]!;
    if (first === '\n' || first === '\r' || (first === '#' && flow === 0)) {
      index = endOfLine(text, index) + 1;
      continue;
    }
    let compact = 0;
    if (++nodes > maxNodes) return tooMany(index);
    if (flow === 0) {
      while (indents.length && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      if (text.startsWith('---', index) && indent === 0) indents.length = 0;
      if (indents.length > maxDepth) return tooDeep(index);
    }
    let atNodeStart = true;
    let blockScalar = false;
    // The rest of the line (a quoted scalar or flow collection may run on over the next lines).
    while (index < length && text[index] !== '\n') {
      const char = text[index]!;
      const next = text[index + 1];
      const spaced = next === undefined || SPACE.has(next);
      if (char === ' ' || char === '\t' || char === '\r') {
        index++;
        continue;
      }
      if (char === '#' && (index === lineStart || SPACE.has(text[index - 1]!))) {
        index = endOfLine(text, index);
        break;
      }
      if (atNodeStart && (char === '"' || char === "'")) {
        index = endOfQuoted(text, index);
        atNodeStart = false;
        continue;
      }
      if (char === '[' || char === '{') {
        if (flow > 0 || atNodeStart) {
          flow++;
          if (++nodes > maxNodes) return tooMany(index);
          if (indents.length + compact + flow > maxDepth) return tooDeep(index);
          atNodeStart = true;
        } else {
          atNodeStart = false;
        }
        index++;
        continue;
      }
      if ((char === ']' || char === '}') && flow > 0) {
        flow--;
        atNodeStart = false;
        index++;
        continue;
      }
      if (char === ',' && flow > 0) {
        atNodeStart = true;
        if (++nodes > maxNodes) return tooMany(index);
        index++;
        continue;
      }
      if ((char === '-' || char === '?') && atNodeStart && spaced && flow === 0) {
        compact++;
        if (indents.length + compact > maxDepth) return tooDeep(index);
        index++;
        continue;
      }
      if (char === ':' && (spaced || flow > 0)) {
        atNodeStart = true;
        index++;
        continue;
      }
      if (atNodeStart && (char === '&' || char === '!')) {
        // An anchor or a tag: the node itself comes after it.
        while (index < length && !SPACE.has(text[index]!)) index++;
        continue;
      }
      if (atNodeStart && flow === 0 && (char === '|' || char === '>')) blockScalar = true;
      atNodeStart = false;
      index++;
    }
    index++;
    if (blockScalar) {
      // Its text is every following line more indented than the line that opened it, and the blank ones.
      while (index < length) {
        let cursor = index;
        while (cursor < length && text[cursor] === ' ') cursor++;
        const blank = cursor >= length || text[cursor] === '\n' || text[cursor] === '\r';
        if (!blank && cursor - index <= indent) break;
        index = endOfLine(text, cursor) + 1;
      }
    }
  }
  return null;
}

function endOfLine(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

/** The offset after a quoted scalar that starts at `from` (or the end of the text when it is never closed). */
function endOfQuoted(text: string, from: number): number {
  const quote = text[from]!;
  let index = from + 1;
  while (index < text.length) {
    const char = text[index]!;
    if (quote === '"' && char === '\\') {
      index += 2;
      continue;
    }
    if (char === quote) {
      // '' is a quote inside a single-quoted scalar.
      if (quote === "'" && text[index + 1] === "'") {
        index += 2;
        continue;
      }
      return index + 1;
    }
    index++;
  }
  return text.length;
}
