/**
 * What a statement does to the data, read from its text: nothing (a read, a lock, a setting),
 * the start or end of a transaction, or a write to some tables — or to tables it cannot tell
 * (DDL, several statements, a procedure, a CTE), which the cache treats as a write to every table.
 * Knex writes `insert into "t"`, `update "t"`, `delete from "t"`; host SQL is read the same way.
 */

export type StatementEffect =
  | { readonly kind: 'none' }
  | { readonly kind: 'begin' }
  | { readonly kind: 'end' }
  | { readonly kind: 'write'; readonly tables: readonly string[] | null };

const NONE: StatementEffect = { kind: 'none' };
const BEGIN: StatementEffect = { kind: 'begin' };
const END: StatementEffect = { kind: 'end' };
const EVERYTHING: StatementEffect = { kind: 'write', tables: null };

/** Verbs that read, lock, set the session or explain: no table's rows change. */
const READS = new Set(['select', 'pragma', 'set', 'show', 'explain', 'describe', 'desc', 'values', 'do', 'listen', 'unlisten', 'notify', 'reset', 'discard', 'deallocate', 'prepare', 'execute', 'lock', 'unlock', 'savepoint', 'release', 'analyze', 'vacuum', 'checkpoint', 'handler', 'table']);

/** A table name, quoted with "", `` or [] or bare, possibly qualified by a schema: the last part. */
const NAME = String.raw`(?:"(?:[^"]|"")+"|\x60(?:[^\x60]|\x60\x60)+\x60|\[[^\]]+\]|[A-Za-z_][\w$]*)`;
const QUALIFIED = new RegExp(String.raw`^\s*(${NAME}(?:\s*\.\s*${NAME})*)`);
/** What follows the table of a single-table UPDATE: an optional alias, then SET. */
const SINGLE_TABLE_SET = new RegExp(String.raw`^\s*(?:(?:as\s+)?${NAME}\s+)?set\b`, 'i');
const WRITES: readonly [RegExp, string][] = [
  [/^insert\s+(?:or\s+\w+\s+|ignore\s+|low_priority\s+|delayed\s+|high_priority\s+)*(?:into\s+)?/i, 'insert'],
  [/^replace\s+(?:low_priority\s+|delayed\s+)*(?:into\s+)?/i, 'replace'],
  [/^upsert\s+(?:into\s+)?/i, 'upsert'],
  [/^update\s+(?:or\s+\w+\s+|low_priority\s+|ignore\s+|only\s+)*/i, 'update'],
  [/^delete\s+(?:low_priority\s+|quick\s+|ignore\s+)*from\s+(?:only\s+)?/i, 'delete'],
  [/^truncate\s+(?:table\s+)?(?:only\s+)?/i, 'truncate'],
];

/** The effect of `sql` on the data. */
export function statementEffect(sql: string): StatementEffect {
  const text = withoutLeadingComments(sql);
  const verb = /^[A-Za-z]+/.exec(text)?.[0].toLowerCase() ?? '';
  if (verb === 'begin' || verb === 'start') return BEGIN;
  if (verb === 'commit' || verb === 'end') return END;
  if (verb === 'rollback') return /^rollback\s+(?:work\s+|transaction\s+)?to\b/i.test(text) ? NONE : END;
  // A SELECT writes no table the cache reads (SELECT INTO makes a new one).
  if (READS.has(verb)) return NONE;
  if (hasSecondStatement(text)) return EVERYTHING;
  // A CTE that only reads (`WITH … SELECT`).
  if (verb === 'with') return /\b(?:insert|update|delete|merge|truncate|replace|upsert)\b/i.test(stripStrings(text)) ? EVERYTHING : NONE;
  for (const [pattern, kind] of WRITES) {
    const head = pattern.exec(text);
    if (!head) continue;
    const name = QUALIFIED.exec(text.slice(head[0].length));
    if (!name) return EVERYTHING;
    // MariaDB's multi-table UPDATE (`update a join b … set`, `update a, b set`) writes more than its first table.
    if (kind === 'update' && !SINGLE_TABLE_SET.test(text.slice(head[0].length + name[0].length))) return EVERYTHING;
    return { kind: 'write', tables: [unquote(lastPart(name[1]!))] };
  }
  return EVERYTHING;
}

function withoutLeadingComments(sql: string): string {
  let text = sql.trimStart();
  for (;;) {
    if (text.startsWith('--')) text = text.slice(text.indexOf('\n') + 1 || text.length).trimStart();
    else if (text.startsWith('/*')) text = text.slice(text.indexOf('*/') + 2 || text.length).trimStart();
    else return text;
  }
}

/** String literals and quoted names emptied, so that a `;` or a word inside them is not read as SQL. */
function stripStrings(text: string): string {
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`/g, "''");
}

/** A `;` followed by more than space or comments: two statements in one text. */
function hasSecondStatement(text: string): boolean {
  const stripped = stripStrings(text);
  const at = stripped.indexOf(';');
  return at >= 0 && withoutLeadingComments(stripped.slice(at + 1).replace(/^[\s;]+/, '')) !== '';
}

function lastPart(qualified: string): string {
  const parts = qualified.match(new RegExp(NAME, 'g'))!;
  return parts[parts.length - 1]!;
}

function unquote(name: string): string {
  if (name.startsWith('"')) return name.slice(1, -1).replace(/""/g, '"');
  if (name.startsWith('`')) return name.slice(1, -1).replace(/``/g, '`');
  if (name.startsWith('[')) return name.slice(1, -1);
  // An unquoted name is folded: PostgreSQL to lower case; the layout's names are lower case.
  return name.toLowerCase();
}
