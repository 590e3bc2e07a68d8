/**
 * Parameters of a compiled statement whose values come from the caller (`$user.id` in a row rule):
 * the plan keeps a LateValue in their place, and each request binds its caller's values before
 * running it. A value the caller lacks (no user, no such claim) or that does not fit the compared
 * field binds NULL: a comparison with NULL is never true, nor is its negation, so the rule then
 * matches no row.
 */
import { callerValue, type CallerValues, type CallerVariable } from '../query/caller-variable.js';
import { castRawText, castValue } from '../query/cast-value.js';
import type { Field, FilterValue } from '../query/tree.js';

export class LateValue {
  constructor(
    readonly variable: CallerVariable,
    private readonly field: Field,
    /** Compared as text (the LIKE family, `$eqi`): cast as the text operators cast. */
    private readonly asText: boolean,
    /** The parameter of a cast value, as the compiler would have bound a literal one. */
    private readonly convert: (value: FilterValue) => unknown,
  ) {}

  bind(caller: CallerValues): unknown {
    const raw = callerValue(this.variable, caller);
    if (raw === undefined || raw === null) return null;
    try {
      return this.convert(this.asText ? castRawText(this.field, raw, '') : castValue(this.field, raw, ''));
    } catch {
      return null;
    }
  }

  /** What `explain` prints in the value's place. */
  toJSON(): string {
    return this.variable.toJSON();
  }
}

/** The statement's values with the caller's in place of each LateValue (the same array when it has none). */
export function bindCallerValues(values: readonly unknown[], caller: CallerValues): readonly unknown[] {
  if (!values.some((value) => value instanceof LateValue)) return values;
  return values.map((value) => (value instanceof LateValue ? value.bind(caller) : value));
}
