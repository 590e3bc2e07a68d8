/**
 * A relation's value in a write body, in each form Strapi v4 takes: an id, a list of ids (the new
 * list), `null` (none), `{ id }`, or `{ connect, disconnect, set }` whose connect items may carry a
 * `position` (`{ before: id }`, `{ after: id }`, `{ start: true }`, `{ end: true }`). Ids are
 * positive integers, as numbers or digit strings. Anything else is a problem naming its path.
 */
import type { DataPath, DataProblem } from '../errors.js';
import type { Position, RelationItem, RelationOperations } from './input.js';
import { labelOf } from './scalar-values.js';

const OPERATION_KEYS = new Set(['connect', 'disconnect', 'set']);

/** An entry id: a positive integer, or its digits as a string. */
export function parseId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value)) return Number(value);
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The operations a relation value asks for, or null after reporting why it cannot be read. */
export function parseRelationValue(value: unknown, path: DataPath, problems: DataProblem[]): RelationOperations | null {
  if (value === null) return { set: [], connect: [], disconnect: [] };
  if (Array.isArray(value)) {
    const set = parseItems(value, path, problems, false);
    return set ? { set, connect: [], disconnect: [] } : null;
  }
  if (isObject(value) && Object.keys(value).some((key) => OPERATION_KEYS.has(key))) return parseOperations(value, path, problems);
  const item = parseItem(value, path, problems, false);
  return item ? { set: [item], connect: [], disconnect: [] } : null;
}

function parseOperations(value: Record<string, unknown>, path: DataPath, problems: DataProblem[]): RelationOperations | null {
  const before = problems.length;
  for (const key of Object.keys(value)) {
    if (!OPERATION_KEYS.has(key)) problems.push({ path: [...path, key], message: `${labelOf([...path, key])} is not a relation operation; expected connect, disconnect or set` });
  }
  const list = (key: string, positions: boolean) => (value[key] === undefined ? [] : (parseItems(value[key], [...path, key], problems, positions) ?? []));
  const set = value.set === undefined ? null : list('set', false);
  const connect = list('connect', true);
  const disconnect = list('disconnect', false).map((item) => item.id);
  return problems.length > before ? null : { set, connect, disconnect };
}

function parseItems(value: unknown, path: DataPath, problems: DataProblem[], positions: boolean): RelationItem[] | null {
  const values = Array.isArray(value) ? value : [value];
  const items = values.map((entry, index) => parseItem(entry, Array.isArray(value) ? [...path, index] : path, problems, positions));
  return items.every((item): item is RelationItem => item !== null) ? items : null;
}

function parseItem(value: unknown, path: DataPath, problems: DataProblem[], positions: boolean): RelationItem | null {
  const id = parseId(isObject(value) ? value.id : value);
  const extra = isObject(value) ? Object.keys(value).filter((key) => key !== 'id' && !(positions && key === 'position')) : [];
  if (id === null || extra.length) {
    problems.push({ path, message: `${labelOf(path)} must be an entry id, or an object with the id${positions ? ' and a position' : ''}` });
    return null;
  }
  if (!isObject(value) || value.position === undefined) return { id, position: null };
  const position = parsePosition(value.position);
  if (!position) {
    problems.push({ path: [...path, 'position'], message: `${labelOf([...path, 'position'])} must be one of { before: id }, { after: id }, { start: true }, { end: true }` });
    return null;
  }
  return { id, position };
}

function parsePosition(value: unknown): Position | null {
  if (!isObject(value) || Object.keys(value).length !== 1) return null;
  if (value.start === true) return { kind: 'start' };
  if (value.end === true) return { kind: 'end' };
  const before = parseId(value.before);
  if (before !== null) return { kind: 'before', id: before };
  const after = parseId(value.after);
  return after !== null ? { kind: 'after', id: after } : null;
}
