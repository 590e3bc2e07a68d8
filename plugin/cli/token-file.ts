/**
 * Edits of the `tokens:` list of permissions.yaml that leave every other byte of the file as it
 * was: the `yaml` document locates the list and its entries, and the change is spliced into the
 * original text. Re-stringifying the whole document would restyle hand-written parts (`[find]`
 * becomes `[ find ]`, blank lines and quoting change), which makes a token change a noisy diff of
 * a file people edit by hand.
 */
import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Pair } from 'yaml';

export interface TokenEntry {
  readonly name: string;
  readonly role: string;
  readonly hash: string;
  readonly expiresAt?: string;
}

/** The file cannot be edited without restyling it (e.g. a flow-style top level); nothing is written. */
export class TokenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenFileError';
  }
}

function load(text: string): Document.Parsed {
  const document = parseDocument(text);
  if (document.errors.length) throw new TokenFileError(document.errors[0]!.message);
  return document;
}

function tokensPair(document: Document.Parsed): Pair | undefined {
  const contents = document.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return undefined;
  if (!isMap(contents) || contents.flow) throw new TokenFileError('permissions.yaml: expected a block mapping with roles and tokens at the top level');
  return contents.items.find((pair) => isScalar(pair.key) && pair.key.value === 'tokens');
}

/** A scalar as YAML writes it: plain when that reads back as the same string, quoted otherwise. */
function scalar(value: string): string {
  return stringify(value).trimEnd();
}

function column(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

function blockEntry(entry: TokenEntry, indent: number): string {
  const pad = ' '.repeat(indent);
  const fields = Object.entries(entry).filter(([, value]) => value !== undefined);
  return fields.map(([key, value], index) => `${pad}${index === 0 ? '- ' : '  '}${key}: ${scalar(value as string)}\n`).join('');
}

function flowEntry(entry: TokenEntry): string {
  const fields = Object.entries(entry).filter(([, value]) => value !== undefined);
  return `{ ${fields.map(([key, value]) => `${key}: ${scalar(value as string)}`).join(', ')} }`;
}

/** Where a node's text ends, through its trailing comment and the end of its line. */
function endOfLine(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') return offset;
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** `text` with `entry` appended to its tokens list (the list created when there is none). */
export function addTokenEntry(text: string, entry: TokenEntry): string {
  const document = load(text);
  const pair = tokensPair(document);
  let edited: string;
  if (!pair) {
    const separator = text === '' || text.endsWith('\n') ? '' : '\n';
    edited = `${text}${separator}tokens:\n${blockEntry(entry, 2)}`;
  } else if (isSeq(pair.value) && pair.value.flow) {
    // `tokens: []` becomes a block list; a flow list with entries gets one more.
    const [start, end] = pair.value.range!;
    if (pair.value.items.length === 0) {
      const indent = column(text, (pair.key as { range: [number, number, number] }).range[0]) + 2;
      const lineEnd = endOfLine(text, end);
      const rest = text.slice(end, lineEnd).trimEnd();
      edited = `${text.slice(0, start).trimEnd()}${rest ? ` ${rest.trimStart()}` : ''}\n${blockEntry(entry, indent)}${text.slice(lineEnd)}`;
    } else {
      const close = text.lastIndexOf(']', end - 1);
      const last = text.slice(start, close).trimEnd();
      const at = start + last.length;
      edited = `${text.slice(0, at)}${last.endsWith(',') ? ' ' : ', '}${flowEntry(entry)}${text.slice(at)}`;
    }
  } else if (isSeq(pair.value)) {
    const seq = pair.value;
    const indent = column(text, seq.range![0]);
    const last = seq.items.at(-1) as { range?: [number, number, number] } | undefined;
    const at = endOfLine(text, last?.range ? last.range[2] : seq.range![1]);
    const separator = at > 0 && text[at - 1] !== '\n' ? '\n' : '';
    // In the style of the entry before it: `- { name: …, role: … }` or a block of fields.
    const lines = isMap(last) && last.flow ? `${' '.repeat(indent)}- ${flowEntry(entry)}\n` : blockEntry(entry, indent);
    edited = `${text.slice(0, at)}${separator}${lines}${text.slice(at)}`;
  } else if (pair.value === null || (isScalar(pair.value) && pair.value.value === null)) {
    // `tokens:` with no value: the list goes on the lines after the key.
    const keyRange = (pair.key as { range: [number, number, number] }).range;
    const at = endOfLine(text, keyRange[1]);
    const separator = text[at - 1] === '\n' ? '' : '\n';
    edited = `${text.slice(0, at)}${separator}${blockEntry(entry, column(text, keyRange[0]) + 2)}${text.slice(at)}`;
  } else {
    throw new TokenFileError('permissions.yaml: tokens is not a list');
  }
  return checked(edited, (names) => names.includes(entry.name));
}

/** `text` without the token named `name`; null when there is no such token. */
export function removeTokenEntry(text: string, name: string): string | null {
  const document = load(text);
  const pair = tokensPair(document);
  if (!pair || !isSeq(pair.value)) return null;
  const seq = pair.value;
  const index = seq.items.findIndex((item) => isMap(item) && item.get('name') === name);
  if (index === -1) return null;
  const item = seq.items[index] as { range: [number, number, number] };
  let edited: string;
  if (seq.flow) {
    let [start, end] = item.range;
    const after = /^\s*,\s*/.exec(text.slice(end));
    if (after) end += after[0].length;
    else {
      const before = /,\s*$/.exec(text.slice(seq.range![0], start));
      if (before) start -= before[0].length;
    }
    edited = text.slice(0, start) + text.slice(end);
  } else if (seq.items.length === 1) {
    // The last token: `tokens: []` keeps the key, the comments around it and a valid file.
    const keyEnd = (pair.key as { range: [number, number, number] }).range[1];
    const colon = text.indexOf(':', keyEnd);
    edited = `${text.slice(0, colon + 1)} []${text.slice(colon + 1, lineStart(text, item.range[0]))}${text.slice(endOfLine(text, item.range[2]))}`;
  } else {
    const start = lineStart(text, item.range[0]);
    if (!/^\s*-\s*$/.test(text.slice(start, item.range[0]))) throw new TokenFileError(`permissions.yaml: the token "${name}" does not start its own line`);
    edited = text.slice(0, start) + text.slice(endOfLine(text, item.range[2]));
  }
  return checked(edited, (names) => !names.includes(name));
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The edited text, after making sure it parses and lists the tokens expected. */
function checked(text: string, expected: (names: string[]) => boolean): string {
  const document = parseDocument(text);
  const tokens = document.errors.length ? undefined : (document.toJS() as { tokens?: unknown } | null)?.tokens;
  const names = Array.isArray(tokens) ? tokens.map((token) => (token as { name?: unknown })?.name as string) : tokens == null ? [] : null;
  if (!names || !expected(names)) throw new TokenFileError('permissions.yaml could not be edited in place; nothing was written');
  return text;
}
