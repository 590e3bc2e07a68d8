/**
 * What a database lacks of a registry's layout, for `content-api check --database`: a missing
 * table or column is a problem (a request reading it fails), a declared index that is missing,
 * or one sync made for a declaration that is gone or changed, is a warning (requests are served,
 * slower, until `content-api sync` runs). The API's own query indexes are not reported: a Strapi
 * database served with `--no-sync` lacks them by design.
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import { clientOf } from './database.js';
import { declaredIndexWork } from './declared-indexes.js';
import { describeKeys } from './index-marks.js';
import { inspectDatabase, storedName } from './inspect.js';
import { describeLayout } from './layout.js';

export interface LayoutDifferences {
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
}

export async function findLayoutDifferences(knex: Knex, registry: Registry): Promise<LayoutDifferences> {
  const client = clientOf(knex);
  const existing = await inspectDatabase(knex);
  const declaredIn = new Map([...registry.models.values()].map((model) => [model.tableName, model.source?.file ?? model.uid]));
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const table of describeLayout(registry).tables) {
    const found = existing.get(storedName(client, table.name));
    if (!found) {
      problems.push(`table ${table.name} is missing; content-api sync creates it`);
      continue;
    }
    for (const column of table.columns) {
      if (!found.columns.includes(storedName(client, column.name))) problems.push(`column ${table.name}.${column.name} is missing; content-api sync adds it`);
    }
    const work = declaredIndexWork(client, table, found);
    for (const name of work.stale) warnings.push(`index ${name} on ${table.name} was made by sync for a declaration that is gone or changed; content-api sync drops it`);
    for (const index of work.missing) {
      warnings.push(`index ${index.name} on ${table.name} (${describeKeys(index)}), declared in ${declaredIn.get(table.name)}, is missing; content-api sync creates it`);
    }
  }
  return { problems, warnings };
}
