/**
 * Casts one filter value from the query string to the type of the field it is compared with.
 * Every failure is a 400 naming the parameter: a bad value must never reach the database, where
 * it would be a 500 (Strapi) or a silently wrong comparison.
 */
import { ValidationError } from '../errors.js';
import type { Field, FilterValue } from './tree.js';

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/**
 * Dates and datetimes from year 1 to 9999 (UTC): what both engines store. PostgreSQL rejects
 * year 0 and years past 9999 in timestamps, so anything outside is a 400 rather than a 500.
 */
const MIN_EPOCH_MS = Date.UTC(2000, 0, 1) - 730_119 * 86_400_000;
const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function inDateRange(epochMs: number): boolean {
  return epochMs >= MIN_EPOCH_MS && epochMs <= MAX_EPOCH_MS;
}

const TRUE_WORDS = new Set(['true', 't', '1']);
const FALSE_WORDS = new Set(['false', 'f', '0']);

/**
 * The text of a scalar query value: strings as they are, numbers and booleans (from programmatic
 * callers) as their decimal or `true`/`false` text; null for anything that is not a scalar.
 */
export function scalarText(raw: unknown): string | null {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'bigint') return String(raw);
  return null;
}

/** `true/t/1` and `false/f/0`, in any case; undefined for anything else. */
export function parseBooleanText(text: string): boolean | undefined {
  const word = text.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** A decimal integer (`^-?\d+$`) within the safe JavaScript range; undefined otherwise. */
export function parseIntegerText(text: string): number | undefined {
  if (!INTEGER.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return undefined;
  return value === 0 ? 0 : value;
}

/**
 * Casts `raw` (a string from qs, or a number or boolean) to `field`'s type. Null is never passed
 * here: the callers decide what a missing value means for their operator.
 */
export function castValue(field: Field, raw: unknown, path: string): FilterValue {
  const text = scalarText(raw);
  if (text === null) throw new ValidationError(path, `Invalid value for "${field.name}": expected a single value, not ${describeValue(raw)}`);
  switch (field.type) {
    case 'integer':
      return castInteger(field.name, text, path);
    case 'biginteger':
      return castBigInteger(field.name, text, path);
    case 'float':
    case 'decimal':
      return castDecimal(field.name, text, path);
    case 'boolean':
      return castBoolean(field.name, text, path);
    case 'date':
      return castDate(text, path);
    case 'time':
      return castTime(field.name, text, path);
    case 'datetime':
    case 'timestamp':
      return castDateTime(text, path);
    default:
      return castText(field.name, text, path);
  }
}

/**
 * The raw text of a value for the LIKE-family operators, which compare the column's text whatever
 * its type. `%` and `_` stay literal: the SQL layer escapes them (D15).
 */
export function castRawText(field: Field, raw: unknown, path: string): string {
  const text = scalarText(raw);
  if (text === null) throw new ValidationError(path, `Invalid value for "${field.name}": expected a text value, not ${describeValue(raw)}`);
  return castText(field.name, text, path);
}

/** A short, safe description of a value for error messages (never the whole of a huge string). */
export function describeValue(raw: unknown): string {
  if (raw === null) return 'an empty value (a key without "=")';
  if (Array.isArray(raw)) return 'a list';
  if (typeof raw === 'object') return 'an object';
  if (typeof raw === 'string') return quote(raw);
  return typeof raw;
}

/** Quotes user text for a message, cut short so that a huge value cannot bloat the response. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

function castText(name: string, text: string, path: string): string {
  // PostgreSQL rejects NUL in text parameters; caught here it is a 400 rather than a database error.
  if (text.includes('\u0000')) throw new ValidationError(path, `Invalid value for "${name}": text values cannot contain NUL characters`);
  return text;
}

function castInteger(name: string, text: string, path: string): number {
  const value = parseIntegerText(text);
  if (value === undefined) {
    throw new ValidationError(path, `Invalid value ${quote(text)} for "${name}": expected an integer between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`);
  }
  return value;
}

/** Bigintegers stay exact decimal strings (D8): a JavaScript number would round 2^53 + 1. */
function castBigInteger(name: string, text: string, path: string): string {
  const fail = () => new ValidationError(path, `Invalid value ${quote(text)} for "${name}": expected a 64-bit integer`);
  // The length check keeps BigInt() away from megabyte-long digit strings.
  if (!INTEGER.test(text) || text.length > 40) throw fail();
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX) throw fail();
  return value.toString();
}

function castDecimal(name: string, text: string, path: string): number {
  const value = DECIMAL.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(value)) throw new ValidationError(path, `Invalid value ${quote(text)} for "${name}": expected a finite number such as 4.5`);
  return value === 0 ? 0 : value;
}

function castBoolean(name: string, text: string, path: string): boolean {
  const value = parseBooleanText(text);
  if (value === undefined) {
    throw new ValidationError(path, `Invalid value ${quote(text)} for "${name}": expected a boolean (true, t, 1, false, f or 0)`);
  }
  return value;
}

/** `YYYY-MM-DD`; a full ISO datetime is reduced to its UTC date. */
function castDate(text: string, path: string): string {
  const parts = parseIsoDateTime(text);
  if (parts === undefined || !inDateRange(parts.epochMs)) throw new ValidationError(path, `Invalid format, expected yyyy-MM-dd, got ${quote(text)}`);
  if (!parts.hasTime) return text.slice(0, 10);
  const date = new Date(parts.epochMs);
  const year = date.getUTCFullYear();
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** `HH:mm`, `HH:mm:ss` or `HH:mm:ss.S` to `.SSS`, normalized to `HH:mm:ss.SSS` as stored. */
function castTime(name: string, text: string, path: string): string {
  const match = TIME.exec(text);
  const [hours, minutes, seconds = '00', fraction = ''] = match ? match.slice(1) : [];
  if (!match || Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) {
    throw new ValidationError(path, `Invalid value ${quote(text)} for "${name}": expected a time HH:mm, HH:mm:ss or HH:mm:ss.SSS`);
  }
  return `${hours}:${minutes}:${seconds}.${fraction.padEnd(3, '0')}`;
}

/** An ISO-8601 date or datetime (no offset means UTC), or integer epoch milliseconds. */
function castDateTime(text: string, path: string): number {
  const fail = () => new ValidationError(path, `Invalid format, expected a timestamp or an ISO date, got ${quote(text)}`);
  if (INTEGER.test(text)) {
    const epochMs = parseIntegerText(text);
    if (epochMs === undefined || !inDateRange(epochMs)) throw fail();
    return epochMs;
  }
  const parts = parseIsoDateTime(text);
  if (parts === undefined || !inDateRange(parts.epochMs)) throw fail();
  return parts.epochMs;
}

interface IsoDateTime {
  readonly epochMs: number;
  readonly hasTime: boolean;
}

/** Parses and validates (calendar, clock and offset ranges) an ISO date or datetime. */
function parseIsoDateTime(text: string): IsoDateTime | undefined {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const hours = Number(h ?? 0);
  const minutes = Number(mi ?? 0);
  const seconds = Number(s ?? 0);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const offsetMinutes = parseOffset(zone);
  if (offsetMinutes === undefined) return undefined;
  const millis = Number((fraction ?? '').slice(0, 3).padEnd(3, '0'));
  const date = new Date(Date.UTC(2000, month - 1, day, hours, minutes, seconds, millis));
  // Date.UTC maps years 0–99 to 1900–1999; setting the year afterwards keeps it exact.
  date.setUTCFullYear(year, month - 1, day);
  return { epochMs: date.getTime() - offsetMinutes * 60_000, hasTime: h !== undefined };
}

/** Minutes east of UTC for `Z`, `±HH`, `±HHmm` or `±HH:mm`; undefined when out of range. */
export function parseOffset(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
