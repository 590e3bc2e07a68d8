/**
 * Column values as the Objection models hold them, and as each database stores them. Models hold
 * datetimes as Date, json parsed, booleans as booleans, bigintegers as exact decimal strings,
 * decimals as numbers, dates as `YYYY-MM-DD` and times as `HH:mm:ss.SSS`. SQLite stores what
 * Strapi stores there: datetimes as epoch milliseconds, booleans as 0/1, json as text.
 */
import type { DatabaseClient } from './database.js';
import type { ColumnType } from './layout.js';

/** A datetime from a Date, epoch milliseconds, or ISO text; text with a time but no zone is UTC. */
function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  const zoneless = text.includes(':') && !/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(text);
  const millis = /^-?\d+$/.test(text) ? Number(text) : Date.parse(zoneless ? `${text.replace(' ', 'T')}Z` : text);
  if (Number.isNaN(millis)) throw new Error(`"${text}" is not a datetime`);
  return new Date(millis);
}

/** `2024-03-24 19:00:00.000`: UTC wall-clock text for a timestamp without time zone. */
function utcTimestampText(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * pg builds a Date from a timestamp without time zone in the process's local time zone; the
 * stored wall-clock time is UTC, so the local fields are read back as UTC fields.
 */
function localFieldsAsUtc(date: Date): Date {
  const utc = new Date(0);
  utc.setUTCFullYear(date.getFullYear(), date.getMonth(), date.getDate());
  utc.setUTCHours(date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds());
  return utc;
}

function localDateText(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `08:14:59` and `08:14:59.5` become `08:14:59.000` and `08:14:59.500`. */
function timeWithMilliseconds(text: string): string {
  const [clock, fraction = ''] = text.split('.');
  return `${clock}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}

/** A model's property value as `client` stores it in a column of `type`. */
export function formatColumnValue(client: DatabaseClient, type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (type) {
    case 'datetime':
      return client === 'sqlite' ? toDate(value).getTime() : utcTimestampText(toDate(value));
    case 'boolean':
      return client === 'postgres' ? Boolean(value) : value ? 1 : 0;
    case 'jsonb':
      // pg would send a JavaScript array as a PostgreSQL array, and a string as JSON text.
      return JSON.stringify(value);
    case 'bigInteger':
      // Decimal text: SQLite's integer affinity stores it as an exact 64-bit integer.
      return String(value);
    case 'decimal':
      return client === 'sqlite' ? Number(value) : value;
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : value;
    default:
      return value;
  }
}

/** A column value as `client` returns it, as the model holds it. */
export function parseColumnValue(client: DatabaseClient, type: ColumnType, raw: unknown): unknown {
  if (raw === null || raw === undefined) return raw;
  switch (type) {
    case 'datetime':
      return raw instanceof Date ? localFieldsAsUtc(raw) : toDate(raw);
    case 'boolean':
      return client === 'postgres' ? raw : Boolean(Number(raw));
    case 'jsonb':
      // SQLite and MariaDB hold JSON as text (mysql2 is asked for text on MySQL too).
      return client !== 'postgres' && typeof raw === 'string' ? JSON.parse(raw) : raw;
    case 'bigInteger':
      return String(raw);
    case 'decimal':
      return Number(raw);
    case 'date':
      return raw instanceof Date ? localDateText(raw) : raw;
    case 'time':
      return timeWithMilliseconds(String(raw));
    default:
      // Integers read with better-sqlite3's safe integers arrive as BigInt; they all fit a number.
      return typeof raw === 'bigint' ? Number(raw) : raw;
  }
}
