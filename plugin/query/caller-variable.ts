/**
 * A value of a row rule that names the caller (`$user.id`, `$claims.sub`, `$now`): known only when
 * a request arrives. Rules are parsed once, with these in place of values; the compiled statement
 * holds a parameter for each, bound per request (sql/caller-values.ts), so one plan serves every
 * caller of a role. Only permissions.yaml makes them: a query string's `$user.id` stays text.
 */
export class CallerVariable {
  constructor(
    /** `user.id`, `user.role`, `claims.sub`, `now`: the name without its `$`. */
    readonly name: string,
  ) {}

  toJSON(): string {
    return `$${this.name}`;
  }
}

/** `$user.<field>`, `$claims.<name>` (dotted paths reach into objects) and `$now`. */
const VARIABLE = /^\$(?:(?:user|claims)(?:\.[A-Za-z_][A-Za-z0-9_-]*)+|now)$/;

/** What a caller is, for the variables: the role, the end user (if any), the credentials' claims. */
export interface CallerValues {
  readonly role: string;
  readonly user: Readonly<Record<string, unknown>> | null;
  readonly claims: Readonly<Record<string, unknown>>;
  /** The request's time, epoch ms. */
  readonly now: number;
  /** Who asks, for the share of heavy statement slots (access/caller.ts `callerKey`); not a rule variable. */
  readonly key?: string;
}

/** Whether a rule's text value is written as a variable (`$` and a name): a misspelt one is reported, never compared as text. */
export function looksLikeVariable(text: string): boolean {
  return /^\$[A-Za-z]/.test(text);
}

/** The variable a rule's text value names, or null when it is not a well-formed one. */
export function parseVariable(text: string): CallerVariable | null {
  return VARIABLE.test(text) ? new CallerVariable(text.slice(1)) : null;
}

/**
 * The variable's value for this caller; undefined when the caller has none (no user, no such
 * claim), which a rule then never matches. `$user.role` is the role the caller acts as.
 */
export function callerValue(variable: CallerVariable, caller: CallerValues): unknown {
  if (variable.name === 'now') return new Date(caller.now).toISOString();
  if (variable.name === 'user.role') return caller.role;
  const [root, ...path] = variable.name.split('.');
  let value: unknown = root === 'user' ? caller.user : caller.claims;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A caller without user or claims, acting as `role`. */
export function anonymousCaller(role: string, now = Date.now()): CallerValues {
  return { role, user: null, claims: {}, now };
}
