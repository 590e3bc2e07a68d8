/**
 * `npm run bench:strapi -- --index article.views:desc`: the bench measured with one more index on
 * both sides, so that a query a declared index serves is compared with Strapi reading the same
 * layout. `serve` gets it declared in a copy of the schema folder (`indexes:` in the type's file,
 * docs/indexes.md), which its sync creates; Strapi, which has no such option, gets the very same
 * index created in its databases before it serves (its boot leaves an unknown index alone while
 * its own schema is unchanged; checked after it starts).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { parse, stringify } from 'yaml';
import { loadSchema } from '../plugin/schema/load.js';
import { clientOf, openDatabase } from '../plugin/storage/database.js';
import { createDeclaredIndex } from '../plugin/storage/declared-indexes.js';
import { describeKeys } from '../plugin/storage/index-marks.js';
import { inspectDatabase, storedName } from '../plugin/storage/inspect.js';
import { describeLayout, type IndexLayout, type TableLayout } from '../plugin/storage/layout.js';
import { repoRoot } from './engines.js';

export interface BenchIndex {
  /** `articles_views_desc_index on articles (views desc)`, for the bench's heading. */
  readonly description: string;
  /** The schema folder `serve` is started on: the package's, with the index declared. */
  readonly root: string;
  /** Creates the index in a database Strapi serves (SQLite or MariaDB). */
  create(knex: Knex): Promise<void>;
  /** A copy of the SQLite file `database` in the bench's folder, with the index. */
  sqliteCopy(database: string): Promise<string>;
  /** Fails unless the database (or SQLite file) still has the index (Strapi drops unknown ones when its schema changes). */
  verify(database: Knex | string): Promise<void>;
  remove(): void;
}

/** `<type>.<attribute>[:desc]`: the type by its file in content-types/, the key as `indexes:` writes it. */
export async function declareBenchIndex(spec: string): Promise<BenchIndex> {
  const found = /^([a-z][a-z0-9-]*)\.([A-Za-z][A-Za-z0-9_]*(?::(?:asc|desc))?)$/.exec(spec);
  if (!found) throw new Error(`--index ${spec}: expected <type>.<attribute>[:desc], as article.views:desc`);
  const [, type, key] = found as unknown as [string, string, string];
  const root = mkdtempSync(join(tmpdir(), 'content-api-bench-index-'));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    const file = join(root, 'content-types', `${type}.yaml`);
    const document = parse(readFileSync(file, 'utf8')) as { indexes?: unknown[] };
    document.indexes = [...(document.indexes ?? []), { attributes: [key] }];
    writeFileSync(file, stringify(document));
    const registry = await loadSchema(root);
    const model = [...registry.models.values()].find((candidate) => candidate.singularName === type);
    if (!model) throw new Error(`--index ${spec}: no content type ${type}`);
    const table = describeLayout(registry).tables.find((candidate) => candidate.name === model.tableName) as TableLayout;
    const index = model.indexes.at(-1)!;
    const layout: IndexLayout = { name: index.name, columns: index.columns, descending: index.descending, unique: false, origin: 'schema' };
    const description = `${index.name} on ${table.name} (${describeKeys(index)})`;
    const create = (knex: Knex) => createDeclaredIndex(knex, clientOf(knex), table, storedName(clientOf(knex), index.name), layout);
    return {
      description,
      root,
      create,
      sqliteCopy: async (database) => {
        const copy = join(root, `indexed-${type}.db`);
        cpSync(database, copy);
        const knex = openDatabase(`sqlite:${copy}`, { mustExist: true });
        try {
          await create(knex);
        } finally {
          await knex.destroy();
        }
        return copy;
      },
      verify: async (database) => {
        const knex = typeof database === 'string' ? openDatabase(`sqlite:${database}`, { mustExist: true }) : database;
        try {
          const indexes = (await inspectDatabase(knex)).get(storedName(clientOf(knex), table.name))?.indexes ?? [];
          if (!indexes.includes(storedName(clientOf(knex), index.name))) throw new Error(`the reference dropped ${description} when it started`);
        } finally {
          if (typeof database === 'string') await knex.destroy();
        }
      },
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}
