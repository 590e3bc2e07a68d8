/**
 * A plugin's content type written as a JavaScript or TypeScript module instead of `schema.json`:
 * `schema.js` exporting the schema, or `index.js` exporting `{ schema }` with the schema inline
 * or taken from `./schema` (`require('./schema')`, `import schema from './schema'`). Strapi runs
 * these modules at boot; the importer never runs an app's code, so it reads one only when what
 * it exports is a plain object literal (strings, numbers, booleans, null, arrays, objects,
 * comments, trailing commas, `as const`), and says so when it is not.
 */
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';

const MODULE_EXTENSIONS = ['js', 'cjs', 'mjs', 'ts'];

/** A schema read from a content type's folder of modules, with the file it came from (relative to `appDir`). */
export interface ModuleSchema {
  readonly source: string;
  readonly json: Record<string, unknown>;
}

export class SchemaModuleError extends Error {
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}; the importer reads a content type module only when it exports a plain object literal (it never runs an app's code): write its schema.json`);
    this.name = 'SchemaModuleError';
  }
}

/**
 * The schema a content type folder (`<appDir>/<folder>`, without schema.json) defines in
 * `schema.<ext>` or `index.<ext>`, or null when it holds neither.
 * @throws SchemaModuleError when a module is there but exports no plain object literal
 */
export async function readSchemaModule(appDir: string, folder: string): Promise<ModuleSchema | null> {
  // index first: it is the module Strapi requires for the folder; schema.<ext> alone is read too.
  for (const stem of ['index', 'schema']) {
    for (const extension of MODULE_EXTENSIONS) {
      const source = posix.join(folder, `${stem}.${extension}`);
      const text = await readFile(join(appDir, source), 'utf8').catch(() => null);
      if (text === null) continue;
      const exported = await resolveValue(appDir, source, text, exportedLiteral(source, text), 0);
      const json = schemaOf(exported);
      if (!json) throw new SchemaModuleError(source, 'its export is not a content type schema (no attributes)');
      return { source, json };
    }
  }
  return null;
}

/** The schema itself, or the `schema` an index module wraps it in. */
function schemaOf(value: unknown): Record<string, unknown> | null {
  if (!isObject(value)) return null;
  if (isObject(value.attributes)) return value;
  return isObject(value.schema) && isObject(value.schema.attributes) ? value.schema : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Reference);
}

/** A name the literal uses for a value bound elsewhere in the module (`{ schema }`). */
class Reference {
  constructor(readonly name: string) {}
}

/** The literal after `module.exports =`, `export default` or `exports.default =`. */
function exportedLiteral(source: string, text: string): unknown {
  const code = withoutComments(text);
  const found = /(?:module\.exports|exports\.default)\s*=|export\s+default\b/.exec(code);
  if (!found) throw new SchemaModuleError(source, 'no module.exports or export default');
  return new LiteralParser(source, code, found.index + found[0].length).value();
}

/** Follows the references of a literal to the module's bindings, two modules deep at most. */
async function resolveValue(appDir: string, source: string, text: string, value: unknown, depth: number): Promise<unknown> {
  if (value instanceof Reference) return resolveBinding(appDir, source, text, value.name, depth);
  if (Array.isArray(value)) return Promise.all(value.map((item) => resolveValue(appDir, source, text, item, depth)));
  if (!isObject(value)) return value;
  const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await resolveValue(appDir, source, text, item, depth)] as const));
  return Object.fromEntries(entries);
}

/** `const name = require('./x')`, `import name from './x'` (JSON or a module) or `const name = { … }`. */
async function resolveBinding(appDir: string, source: string, text: string, name: string, depth: number): Promise<unknown> {
  const code = withoutComments(text);
  // An identifier may hold `$`, which a pattern reads as an anchor.
  const pattern = name.replace(/\$/g, '\\$');
  const imported =
    new RegExp(`(?:const|let|var)\\s+${pattern}\\s*=\\s*require\\(\\s*(['"])([^'"]+)\\1\\s*\\)`).exec(code) ??
    new RegExp(`import\\s+${pattern}\\s+from\\s*(['"])([^'"]+)\\1`).exec(code);
  if (imported && depth < 2) return readImported(appDir, source, imported[2]!, depth + 1);
  const declared = new RegExp(`(?:const|let|var)\\s+${pattern}\\s*(?::[^=]+)?=`).exec(code);
  if (declared) return resolveValue(appDir, source, text, new LiteralParser(source, code, declared.index + declared[0].length).value(), depth);
  throw new SchemaModuleError(source, `${name} is not bound to an object literal or a relative require/import`);
}

async function readImported(appDir: string, source: string, specifier: string, depth: number): Promise<unknown> {
  if (!specifier.startsWith('.')) throw new SchemaModuleError(source, `${specifier} is not a file of the app`);
  const base = posix.join(posix.dirname(source), specifier);
  const candidates = /\.(json|c?js|mjs|ts)$/.test(base) ? [base] : [`${base}.json`, ...MODULE_EXTENSIONS.map((extension) => `${base}.${extension}`)];
  for (const candidate of candidates) {
    const text = await readFile(join(appDir, candidate), 'utf8').catch(() => null);
    if (text === null) continue;
    if (candidate.endsWith('.json')) return JSON.parse(text) as unknown;
    return resolveValue(appDir, candidate, text, exportedLiteral(candidate, text), depth);
  }
  throw new SchemaModuleError(source, `${specifier} names no file`);
}

/** The code with its comments blanked (string contents kept), so offsets stay those of the text. */
function withoutComments(text: string): string {
  let result = '';
  for (let at = 0; at < text.length; ) {
    const char = text[at]!;
    if (char === '"' || char === "'" || char === '`') {
      const end = stringEnd(text, at);
      result += text.slice(at, end);
      at = end;
    } else if (text.startsWith('//', at)) {
      const end = text.indexOf('\n', at);
      const stop = end < 0 ? text.length : end;
      result += ' '.repeat(stop - at);
      at = stop;
    } else if (text.startsWith('/*', at)) {
      const end = text.indexOf('*/', at + 2);
      const stop = end < 0 ? text.length : end + 2;
      result += text.slice(at, stop).replace(/[^\n]/g, ' ');
      at = stop;
    } else {
      result += char;
      at += 1;
    }
  }
  return result;
}

/** The offset just after the string literal opening at `start`. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let at = start + 1; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === quote) return at + 1;
  }
  return text.length;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** A string literal's body as the string it means. */
function unescapeString(body: string): string {
  let result = '';
  for (let at = 0; at < body.length; at += 1) {
    const char = body[at]!;
    if (char !== '\\') {
      result += char;
      continue;
    }
    const next = body[at + 1] ?? '';
    at += 1;
    if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(body.slice(at + 1, at + 5))) {
      result += String.fromCharCode(parseInt(body.slice(at + 1, at + 5), 16));
      at += 4;
    } else if (next !== '\n') result += ESCAPES[next] ?? next;
  }
  return result;
}

/** A recursive-descent reader of one object-literal value (comments already blanked). */
class LiteralParser {
  constructor(
    private readonly source: string,
    private readonly code: string,
    private at: number,
  ) {}

  value(): unknown {
    this.space();
    const char = this.code[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"' || char === "'" || char === '`') return this.string();
    const number = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(this.code.slice(this.at, this.at + 40));
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    const word = this.identifier();
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (word !== null && !['function', 'new', 'async', 'class'].includes(word) && !/^\s*[.(]/.test(this.code.slice(this.at))) return new Reference(word);
    throw this.failure();
  }

  private object(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at += 1;
    for (;;) {
      this.space();
      if (this.code[this.at] === '}') {
        this.at += 1;
        return result;
      }
      const char = this.code[this.at];
      const key = char === '"' || char === "'" ? this.string() : (this.identifier() ?? this.numberKey());
      this.space();
      if (this.code[this.at] === ':') {
        this.at += 1;
        result[key] = this.value();
      } else if (/^[A-Za-z_$][\w$]*$/.test(key)) {
        result[key] = new Reference(key);
      } else throw this.failure();
      this.afterItem('}');
    }
  }

  private array(): unknown[] {
    const result: unknown[] = [];
    this.at += 1;
    for (;;) {
      this.space();
      if (this.code[this.at] === ']') {
        this.at += 1;
        return result;
      }
      result.push(this.value());
      this.afterItem(']');
    }
  }

  /** A comma, or the closing bracket left for the caller; `as const` and type assertions are read past. */
  private afterItem(close: string): void {
    this.space();
    if (this.code.startsWith('as ', this.at)) {
      this.at += 3;
      this.space();
      this.identifier();
      this.space();
    }
    if (this.code[this.at] === ',') this.at += 1;
    else if (this.code[this.at] !== close) throw this.failure();
  }

  private string(): string {
    const start = this.at;
    const end = stringEnd(this.code, start);
    const body = this.code.slice(start + 1, end - 1);
    this.at = end;
    if (this.code[start] === '`' && body.includes('${')) throw this.failure();
    return unescapeString(body);
  }

  private identifier(): string | null {
    const word = /^[A-Za-z_$][\w$]*/.exec(this.code.slice(this.at, this.at + 200));
    if (!word) return null;
    this.at += word[0].length;
    return word[0];
  }

  private numberKey(): string {
    const number = /^\d+/.exec(this.code.slice(this.at));
    if (!number) throw this.failure();
    this.at += number[0].length;
    return number[0];
  }

  private space(): void {
    while (this.at < this.code.length && /\s/.test(this.code[this.at]!)) this.at += 1;
  }

  private failure(): SchemaModuleError {
    const line = this.code.slice(0, this.at).split('\n').length;
    return new SchemaModuleError(this.source, `line ${line}: not a plain object literal`);
  }
}
