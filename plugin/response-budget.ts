/**
 * The response budget: a body larger than `maxResponseBytes` is a 400 decided before anything is
 * sent, naming the populate path to narrow. Nested to-many lists are what multiply a response
 * (each parent repeats its list), so the message names the deepest to-many populate of the
 * request, or pagination when there is none.
 */
import { ValidationError } from './errors.js';
import type { PopulateNode, RootQuery, Selection } from './query/tree.js';

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * A body above this is large: it goes to the socket in slices of this size (http/paced-body.ts),
 * and a SQLite read worker lends it from shared memory instead of moving it (sql/body-slabs.ts).
 */
export const LARGE_BODY_BYTES = 256 * 1024;

/** The budget's 400: a refusal for cost, which the routes pace per caller (http/refusal-pacing.ts). */
export class ResponseTooLargeError extends ValidationError {}

/** A 400 when the body (`estimated`: as estimated before running, sql/estimate.ts) is over the budget. */
export function checkResponseSize(root: RootQuery, bytes: number, maxBytes: number, estimated = false): void {
  if (bytes <= maxBytes) return;
  const path = deepestToMany(root.selection, 'populate', 0)?.path ?? (root.action === 'find' ? 'pagination' : 'populate');
  throw new ResponseTooLargeError(
    path,
    `The response would be ${estimated ? 'about ' : ''}${megabytes(bytes)}, above the limit of ${megabytes(maxBytes)}; narrow it with fields, filters or limit on this populate, or a smaller page`,
  );
}

/** The same 400 for a GraphQL operation, whose fields are narrowed by their own arguments. */
export function checkOperationSize(bytes: number, maxBytes: number, estimated = false): void {
  if (bytes <= maxBytes) return;
  throw new ResponseTooLargeError(
    'pagination',
    `The response would be ${estimated ? 'about ' : ''}${megabytes(bytes)}, above the limit of ${megabytes(maxBytes)}; narrow it with filters or pagination on its lists`,
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface Found {
  readonly path: string;
  readonly depth: number;
}

function deepestToMany(selection: Selection, base: string, depth: number): Found | null {
  let found: Found | null = null;
  for (const node of selection.populate) {
    const path = `${base}.${node.attribute.name}`;
    const own = isToMany(node) ? { path, depth: depth + 1 } : null;
    const below = node.kind === 'dynamiczone' ? null : deepestToMany(node.selection, `${path}.populate`, depth + 1);
    for (const candidate of [below, own]) if (candidate && (!found || candidate.depth > found.depth)) found = candidate;
  }
  return found;
}

function isToMany(node: PopulateNode): boolean {
  switch (node.kind) {
    case 'relation':
      return node.attribute.toMany && !node.count;
    case 'media':
      return node.attribute.multiple;
    case 'component':
      return node.attribute.repeatable && !node.count;
    case 'dynamiczone':
      return !node.count;
  }
}
