/**
 * How `copy` moves each column type between SQLite, PostgreSQL and MariaDB without losing or shifting a
 * value. Values travel in a neutral *transfer form*: datetimes as UTC ISO text, booleans as
 * booleans, json as compact JSON text, bigintegers as decimal text, dates and times as text.
 * Nothing goes through a JavaScript Date or the node process's time zone, and PostgreSQL values
 * whose driver parsing would do so (timestamp, date, time, jsonb) are read as text by the query.
 */
import type { Knex } from 'knex';
import type { DatabaseClient } from './database.js';
import type { ColumnLayout, ColumnType } from './layout.js';

/** The select-list entry that reads a column in a form `toTransferForm` understands. */
export function readExpression(knex: Knex, client: DatabaseClient, column: ColumnLayout): Knex.Raw {
  const name = column.name;
  if (client === 'sqlite') {
    // better-sqlite3 would round integers above 2^53 to the nearest double.
    if (column.type === 'bigInteger') return knex.raw('CAST(?? AS TEXT) AS ??', [name, name]);
    return knex.raw('??', [name]);
  }
  if (client === 'mysql') return mysqlReadExpression(knex, column);
  switch (column.type) {
    case 'datetime':
      return knex.raw(`to_char(??, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ??`, [name, name]);
    case 'date':
      return knex.raw(`to_char(??, 'YYYY-MM-DD') AS ??`, [name, name]);
    case 'time':
      return knex.raw(`to_char(??, 'HH24:MI:SS.MS') AS ??`, [name, name]);
    case 'jsonb':
      return knex.raw('??::text AS ??', [name, name]);
    default:
      return knex.raw('??', [name]);
  }
}

/** MariaDB and MySQL: datetimes and times as text with their fraction; the rest arrives as text already (mysql-session.ts). */
function mysqlReadExpression(knex: Knex, column: ColumnLayout): Knex.Raw {
  const name = column.name;
  switch (column.type) {
    case 'datetime':
      return knex.raw(`DATE_FORMAT(??, '%Y-%m-%dT%H:%i:%s.%fZ') AS ??`, [name, name]);
    case 'time':
      return knex.raw(`LEFT(TIME_FORMAT(??, '%H:%i:%s.%f'), 12) AS ??`, [name, name]);
    default:
      return knex.raw('??', [name]);
  }
}

/** JSON text without the insignificant whitespace PostgreSQL's jsonb output adds. */
export function compactJson(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*")|\s+/g, (_match, quoted: string | undefined) => quoted ?? '');
}

/** SQLite datetimes are epoch milliseconds; text is accepted too, as other tools may write it. */
function sqliteDatetimeToTransfer(raw: unknown): string {
  const millis = typeof raw === 'number' || typeof raw === 'bigint' ? Number(raw) : /^-?\d+$/.test(String(raw)) ? Number(raw) : null;
  if (millis === null) return String(raw);
  return new Date(millis).toISOString();
}

function sqliteToTransfer(type: ColumnType, raw: unknown): unknown {
  switch (type) {
    case 'datetime':
      return sqliteDatetimeToTransfer(raw);
    case 'boolean':
      return typeof raw === 'string' ? raw === 'true' || raw === '1' : Boolean(Number(raw));
    case 'jsonb':
      // A column declared `json` has numeric affinity: SQLite stores the JSON text `12` as the number 12.
      return String(raw);
    default:
      return raw;
  }
}

function postgresToTransfer(type: ColumnType, raw: unknown): unknown {
  return type === 'jsonb' ? compactJson(raw as string) : raw;
}

/** tinyint booleans; MariaDB's JSON is text as it was written, compacted like PostgreSQL's. */
function mysqlToTransfer(type: ColumnType, raw: unknown): unknown {
  if (type === 'boolean') return Boolean(Number(raw));
  if (type === 'jsonb') return compactJson(String(raw));
  return raw;
}

/** A value as read by `readExpression`, in transfer form. */
export function toTransferForm(client: DatabaseClient, type: ColumnType, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (client === 'mysql') return mysqlToTransfer(type, raw);
  return client === 'sqlite' ? sqliteToTransfer(type, raw) : postgresToTransfer(type, raw);
}

function epochMillis(text: string): number {
  const millis = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(millis)) throw new Error(`"${text}" is not a datetime`);
  return millis;
}

function toSqlite(type: ColumnType, value: unknown): unknown {
  switch (type) {
    case 'datetime':
      return epochMillis(String(value));
    case 'boolean':
      return value ? 1 : 0;
    case 'decimal':
      return Number(value);
    default:
      return value;
  }
}

function toPostgres(type: ColumnType, value: unknown): unknown {
  // A timestamp without time zone takes the UTC wall-clock time; the `Z` is dropped rather than
  // left for PostgreSQL to ignore.
  if (type === 'datetime') return String(value).replace('T', ' ').replace(/[zZ]$/, '');
  return value;
}

/**
 * A transfer-form value as the target database stores it. Bigintegers stay decimal text on both:
 * SQLite's integer affinity stores such text as an exact 64-bit integer.
 */
export function fromTransferForm(client: DatabaseClient, type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (client === 'mysql') return type === 'boolean' ? (value ? 1 : 0) : toPostgres(type, value);
  return client === 'sqlite' ? toSqlite(type, value) : toPostgres(type, value);
}
