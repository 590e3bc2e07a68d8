/** Number formatting shared by the bench's tables. */

export const geomean = (values: readonly number[]) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);

/** `value` with `digits` decimals, right-aligned in `width`; a dash when there is no figure. */
export const fixed = (value: number | null | undefined, digits: number, width: number) =>
  (value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits)).padStart(width);

/** `a / b`, or null when either is missing. */
export const ratio = (a: number | null | undefined, b: number | null | undefined): number | null => (a && b ? a / b : null);
