/**
 * A nested relation whose type the role may not read, as Strapi's plugin answers it: `null`, and
 * one FORBIDDEN error for each entry it was asked on (its scope is checked when the relation is
 * resolved, once per parent entry). The statement answers those relations null (the access stage
 * prunes them); the errors are counted on the answer it built, walking it along the operation's
 * shape, and placed with the operation's errors, before the data. No statement more.
 *
 * Strapi checks relations of content-type entries only, reached from a root field through
 * relations it may read; a relation inside a component, a zone or a media file is not checked
 * there (and is null without an error here: G4).
 */
import { allowsField, type ActionRule } from '../access/action-rules.js';
import type { Grants } from '../access/permissions.js';
import { ForbiddenError } from '../errors.js';
import type { RootQuery, Selection, Shape } from '../query/tree.js';
import { graphqlError, type GraphqlErrorJson } from './errors.js';

/** The forbidden relations of one kind of row, and the readable relations below which there are more. */
interface Level {
  readonly forbidden: number;
  readonly children: readonly { readonly path: readonly string[]; readonly rowsKey: string; readonly level: Level }[];
}

/** The number of FORBIDDEN errors a root field's answer (its wrapper's JSON value) calls for. */
export type ForbiddenCount = (fieldValue: unknown) => number;

/** The counter of the translated (not yet authorized) tree of a root field, or null when nothing it asks for is forbidden. */
export function forbiddenCounter(tree: RootQuery, grants: Grants): ForbiddenCount | null {
  const rowsKey = tree.shape?.wrapper.find((key) => key.kind === 'rows')?.key;
  if (!tree.shape || rowsKey === undefined) return null;
  const level = levelOf(tree.shape.row, tree.selection, grants.rule(tree.model.uid, tree.action), grants);
  return level && ((fieldValue) => countRows(member(fieldValue, [rowsKey]), level));
}

function levelOf(row: Shape, selection: Selection, rule: ActionRule | null, grants: Grants): Level | null {
  let forbidden = 0;
  const children: Level['children'][number][] = [];
  const visit = (shape: Shape, path: readonly string[]) => {
    for (const key of shape) {
      if (key.kind === 'object') visit(key.shape, [...path, key.key]);
      if (key.kind !== 'populate') continue;
      const node = selection.populate.find((candidate) => candidate.ref === key.ref);
      // As the access stage decides: a field rule's denial answers null without an error (G5).
      if (!node || node.kind !== 'relation' || !allowsField(rule, node.attribute.name)) continue;
      if (!grants.can(node.target.uid, 'find')) {
        forbidden += 1;
        continue;
      }
      const rowsKey = node.shape?.wrapper.find((wrapperKey) => wrapperKey.kind === 'rows')?.key;
      const level = node.shape && rowsKey !== undefined ? levelOf(node.shape.row, node.selection, grants.rule(node.target.uid, 'find'), grants) : null;
      if (level && rowsKey !== undefined) children.push({ path: [...path, key.key], rowsKey, level });
    }
  };
  visit(row, []);
  return forbidden || children.length ? { forbidden, children } : null;
}

function member(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) current = current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

/** Rows: a list, one entry, or none (null). */
function countRows(rows: unknown, level: Level): number {
  const list = Array.isArray(rows) ? rows : rows && typeof rows === 'object' ? [rows] : [];
  let count = 0;
  for (const row of list) {
    count += level.forbidden;
    for (const child of level.children) count += countRows(member(member(row, child.path), [child.rowsKey]), child.level);
  }
  return count;
}

const FORBIDDEN: GraphqlErrorJson = graphqlError(new ForbiddenError(), null, null);

/**
 * The operation's answer with its nested FORBIDDEN errors: `head` is the errors part the statement
 * began its body with (`"errors":[…],` or nothing), `errors` those errors.
 */
export function withForbiddenErrors(body: Buffer, head: string, errors: readonly GraphqlErrorJson[], counters: readonly { key: string; count: ForbiddenCount }[]): Buffer | null {
  const data = (JSON.parse(body.toString('utf8')) as { data?: Record<string, unknown> }).data ?? {};
  const count = counters.reduce((sum, { key, count: of }) => sum + of(data[key]), 0);
  if (!count) return null;
  const all = [...errors, ...Array.from({ length: count }, () => FORBIDDEN)];
  const rest = body.subarray(Buffer.byteLength(`{${head}`));
  return Buffer.concat([Buffer.from(`{"errors":${JSON.stringify(all)},`), rest]);
}
