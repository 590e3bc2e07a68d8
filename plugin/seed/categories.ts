/**
 * The demo categories: four top-level sections with icons, and sub-categories linked to them
 * through the `parent` self relation (three levels deep under Food), so that `parent` and
 * `children` both have something to show. Featured articles and restaurants are linked later,
 * once those exist.
 */
import { timestamps } from './dates.js';
import type { DemoFiles } from './files.js';
import type { SeededRandom } from './random.js';
import { sentences, slugify } from './text.js';
import type { SeedWriter } from './writer.js';

export const CATEGORY_UID = 'api::category.category';

/** [name, parent name or null, icon index or null] in creation order. */
const CATEGORIES: readonly [string, string | null, number | null][] = [
  ['Food', null, 0],
  ['Travel', null, 1],
  ['Culture', null, 2],
  ['Technology', null, 3],
  ['Street Food', 'Food', null],
  ['Baking', 'Food', null],
  ['Wine & Drinks', 'Food', null],
  ['City Guides', 'Travel', null],
  ['Road Trips', 'Travel', null],
  ['Books', 'Culture', null],
  ['Music', 'Culture', null],
  ['Sourdough', 'Baking', null],
];

/** The ids of the demo categories by name. */
export type DemoCategories = ReadonlyMap<string, number>;

/** Creates the categories with their icons, then links each sub-category to its parent. */
export async function seedCategories(writer: SeedWriter, random: SeededRandom, files: DemoFiles): Promise<DemoCategories> {
  const created = new Map<string, Awaited<ReturnType<SeedWriter['create']>>>();
  for (const [index, [name, , icon]] of CATEGORIES.entries()) {
    const category = await writer.create(CATEGORY_UID, {
      name,
      slug: slugify(name),
      description: sentences(random, 'en', random.int(1, 2)),
      sort_order: (index + 1) * 10,
      ...timestamps(96 + index, random.int(0, 1) * 12),
    });
    if (icon !== null) await writer.attachMedia(category, 'icon', files.icons[icon]);
    created.set(name, category);
  }
  for (const [name, parent] of CATEGORIES) {
    if (parent) await writer.link(created.get(name)!, 'parent', created.get(parent)!.id);
  }
  return new Map([...created].map(([name, category]) => [name, category.id]));
}

/** The id of a demo category, failing loudly on a name the demo data does not define. */
export function categoryId(categories: DemoCategories, name: string): number {
  const id = categories.get(name);
  if (id === undefined) throw new Error(`no demo category named ${name}`);
  return id;
}
