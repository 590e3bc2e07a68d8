/**
 * The plain-code half of the scalar checker: the parsers behind ajv's custom formats and keywords
 * (calendar dates, instants, exact number comparison), and the conversion of a value ajv has
 * accepted into what the row store writes. ajv only says yes or no; the value's stored form is
 * decided here, once.
 */
import type { ScalarType } from '../schema/registry.js';
import { daysInMonth, parseOffset } from '../query/cast-value.js';

/** An integer as JSON text: what integer and biginteger strings must look like. */
export const INTEGER_TEXT = '^-?\\d+$';
/** A finite-looking decimal as JSON text (`3.25`, `-.5`, `1e3`); no spaces, no `Infinity`. */
export const DECIMAL_TEXT = '^-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$';
/** `HH:mm:ss` or `HH:mm:ss.S` to `.SSS`: seconds are required, as Strapi requires them. */
export const TIME_TEXT = '^(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,3})?$';

const DECIMAL = new RegExp(DECIMAL_TEXT);
const INTEGER = new RegExp(INTEGER_TEXT);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * Years 1 to 9999 (UTC), what both engines store: PostgreSQL rejects year 0 and years past 9999,
 * so anything outside is a problem of the body rather than a database error.
 */
export const MIN_EPOCH_MS = Date.UTC(2000, 0, 1) - 730_119 * 86_400_000;
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Epoch milliseconds of `YYYY-MM-DD` (midnight UTC) or of an ISO 8601 date-time with `Z` or an
 * offset; null when the text is neither, or names a day or a time that does not exist. A
 * date-time without a zone is refused: its instant would depend on the server's time zone.
 */
export function parseInstant(text: string): number | null {
  const match = DATE.exec(text) ?? DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1, 7).map((part) => Number(part ?? 0));
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const offset = parseOffset(match[8]) ?? null;
  if (offset === null) return null;
  const millis = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const date = new Date(Date.UTC(2000, month - 1, day, hours, minutes, seconds, millis));
  // Date.UTC maps years 0–99 to 1900–1999; setting the year afterwards keeps it exact.
  date.setUTCFullYear(year, month - 1, day);
  const epochMs = date.getTime() - offset * 60_000;
  return epochMs >= MIN_EPOCH_MS && epochMs <= MAX_EPOCH_MS ? epochMs : null;
}

/** A date attribute takes `YYYY-MM-DD` or a full date-time (whose UTC date is kept). */
export function isDateText(text: string): boolean {
  return parseInstant(text) !== null;
}

/**
 * Compares a number or numeric text with a bound written in the schema. Two integers are compared
 * exactly, as decimal text, so that 64-bit bounds and values past 2^53 keep every digit.
 */
export function compareNumeric(value: number | string, bound: number | string): number {
  const left = integerText(value);
  const right = integerText(bound);
  if (left !== null && right !== null) return compareIntegerText(left, right);
  return Math.sign(Number(value) - Number(bound));
}

/** Whether text or a JSON number is a number the checker can compare (non-numeric text is another keyword's problem). */
export function isNumeric(value: unknown): value is number | string {
  return typeof value === 'number' || (typeof value === 'string' && DECIMAL.test(value));
}

/** The stored form of a value ajv accepted for an attribute of `type` (never null: the caller keeps null as it is). */
export function convertScalar(type: ScalarType, value: unknown): unknown {
  switch (type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return Number(value);
    case 'biginteger':
      // A string stays exactly as sent: a JavaScript number would round 2^53 + 1.
      return typeof value === 'number' ? String(value) : value;
    case 'boolean':
      return value === true || value === 1 || value === 'true' || value === '1';
    case 'date':
      return new Date(parseInstant(value as string) as number).toISOString().slice(0, 10);
    case 'time':
      return toTime(value as string);
    case 'datetime':
    case 'timestamp':
      return new Date(typeof value === 'number' ? value : (parseInstant(value as string) as number));
    default:
      return value;
  }
}

/** `HH:mm:ss` and `HH:mm:ss.S` padded to `HH:mm:ss.SSS`, as the database stores times. */
function toTime(text: string): string {
  const [clock, fraction = ''] = text.split('.');
  return `${clock}.${fraction.padEnd(3, '0')}`;
}

/** Integer decimal text without a plus sign or leading zeros; null for anything else. */
function integerText(value: number | string): string | null {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : null) : value;
  if (text === null || !INTEGER.test(text)) return null;
  const negative = text.startsWith('-');
  const digits = text.slice(negative ? 1 : 0).replace(/^0+(?=\d)/, '');
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** Sign, then number of digits, then digits: exact at any length, without BigInt on huge text. */
function compareIntegerText(left: string, right: string): number {
  const leftNegative = left.startsWith('-');
  if (leftNegative !== right.startsWith('-')) return leftNegative ? -1 : 1;
  const sign = leftNegative ? -1 : 1;
  if (left.length !== right.length) return sign * Math.sign(left.length - right.length);
  return left === right ? 0 : sign * (left < right ? -1 : 1);
}
