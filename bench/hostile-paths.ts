/**
 * The heaviest requests a stranger can type on the example schema, as the load run and the
 * worst-cost search send them: populates that multiply related rows, refused by the response
 * budget or by the estimate, and the heavy populate the speed target names.
 */

/** Refused by the 32 MB budget after the statement ran, and a heavy one answered. */
export const HOSTILE = [
  '/api/categories?pagination[pageSize]=100&populate[articles][populate][categories][populate][articles]=true',
  '/api/categories?populate[articles][populate]=*',
];
/** The heavy query of the speed target: 2.8 MB, about 30 ms of statement. */
export const HEAVY = '/api/categories?populate[articles][populate]=*';
/** About 950 MB if it were built: refused by its estimate, in milliseconds. */
export const HUGE_ESTIMATED = '/api/categories?populate[articles][populate][category][populate][articles][populate][category][populate][articles]=*&pagination[pageSize]=100';

/** Populates alternating articles and their category, `depth` levels deep and everything below, on pages of `pageSize`. */
export function deepPopulate(depth: number, pageSize = 100): string {
  const hops = Array.from({ length: depth }, (_, level) => (level % 2 === 0 ? '[articles]' : '[category]'));
  return `/api/categories?pagination[pageSize]=${pageSize}&populate${hops.join('[populate]')}[populate]=*`;
}

/** A filter through `depth` hops of articles and categories, with a pattern every row must be scanned for. */
export function deepFilter(depth: number): string {
  let path = '';
  for (let level = 0; level < depth; level += 1) path += level % 2 === 0 ? '[articles]' : '[category]';
  const field = depth % 2 === 1 ? '[title]' : '[name]';
  return `/api/categories?pagination[pageSize]=100&filters${path}${field}[$containsi]=zq&sort=name`;
}
