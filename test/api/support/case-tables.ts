/**
 * Tables of cases as tests: each row of a table is one `it`, named after the row, so a failure
 * names the query that failed and a new case is one line of data.
 */
import { expect } from 'chai';
import type { ServedApi } from '../../support/api.js';
import { expectValidationError, idsOf } from './all-types.js';

/** `[query, ids]`: the query lists exactly these entries, in this order. */
export type IdsCase = readonly [query: string, ids: readonly number[]];

/** `[query, path]`: the query is a 400 naming this parameter. */
export type RefusedCase = readonly [query: string, path: string];

/** One test per case, named by `name` and run by `check`. */
function itEachCase<Case extends readonly unknown[]>(
  cases: readonly Case[],
  name: (...row: NoInfer<[...Case]>) => string,
  check: (...row: NoInfer<[...Case]>) => Promise<unknown>,
): void {
  for (const row of cases) {
    it(name(...row), async function () {
      await check(...row);
    });
  }
}

/** {@link itEachCase} inside `describe(title)`. */
export function caseTable<Case extends readonly unknown[]>(
  title: string,
  cases: readonly Case[],
  name: (...row: NoInfer<[...Case]>) => string,
  check: (...row: NoInfer<[...Case]>) => Promise<unknown>,
): void {
  describe(title, function () {
    itEachCase(cases, name, check);
  });
}

export interface IdsOptions {
  /** Put before each query (default `/api/items?fields=id&`). */
  readonly prefix?: string;
  /** Request headers (an API token). */
  readonly headers?: Record<string, string>;
  /** How a test names the empty query (default `(none)`). */
  readonly none?: string;
}

/** One test per case, `query → [ids]`: GET `prefix + query` lists exactly `ids`, in that order. */
export function itListsIds(app: () => ServedApi, cases: readonly IdsCase[], options: IdsOptions = {}): void {
  const { prefix = '/api/items?fields=id&', headers = {}, none = '(none)' } = options;
  itEachCase(
    cases,
    (query, ids) => `${query || none} → [${ids.join(', ')}]`,
    async (query, ids) => expect(await idsOf(app(), `${prefix}${query}`, headers)).to.deep.equal(ids),
  );
}

/** {@link itListsIds} inside `describe(title)`. */
export function idsTable(app: () => ServedApi, title: string, cases: readonly IdsCase[], options: IdsOptions = {}): void {
  describe(title, function () {
    itListsIds(app, cases, options);
  });
}

/** `describe(title)`, one test per case, `query → 400 at path`: GET `prefix + query` is that 400. */
export function refusedTable(app: () => ServedApi, title: string, cases: readonly RefusedCase[], prefix = '/api/items?'): void {
  caseTable(title, cases, (query, path) => `${query} → 400 at ${path}`, (query, path) => expectValidationError(app(), `${prefix}${query}`, path));
}
