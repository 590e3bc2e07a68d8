/**
 * What the article seeding draws on: the writer, the random sequence, and the ids of everything
 * seeded before the articles.
 */
import type { DemoCategories } from './categories.js';
import type { DemoFiles } from './files.js';
import type { SeededRandom } from './random.js';
import type { DemoUsers } from './users.js';
import type { SeedWriter } from './writer.js';

export interface DemoContext {
  readonly writer: SeedWriter;
  readonly random: SeededRandom;
  readonly files: DemoFiles;
  readonly users: DemoUsers;
  readonly categories: DemoCategories;
  readonly restaurants: readonly number[];
}
