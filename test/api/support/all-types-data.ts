/**
 * The data set of the all-types test app (test/fixtures/apps/all-types), written straight into
 * the Strapi v4 tables with knex, in each engine's storage format: SQLite keeps datetimes as
 * epoch milliseconds, booleans as 0/1 and json as text, exactly as Strapi writes them there;
 * PostgreSQL gets native values. Writing the tables by hand (not through the plugin) means the
 * tests also check that the plugin reads what Strapi would have stored.
 *
 * The rows are chosen so that every filter operator, sort and search rule has rows on both sides
 * of it; the tests name the ids they expect. Overview of `items` (id: name):
 *   1 Alpha · 2 beta · 3 Gamma 100% · 4 delta_x · 5 Epsilon (every other column NULL)
 *   6 epsilon · 7 Delta-X · 8 Æon · 9 Zeta · 10 alphabet
 * `tags` has 130 rows (red, green, blue, then Tag 004 … Tag 130), inserted out of id order.
 */
import type { Knex } from 'knex';
import type { DatabaseClient } from '../../../plugin/storage/database.js';

/** A value whose stored form differs between the engines. */
type Stored =
  | { readonly kind: 'datetime'; readonly iso: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'biginteger'; readonly digits: string };

type Row = Record<string, unknown>;

const datetime = (iso: string): Stored => ({ kind: 'datetime', iso });
const bool = (value: boolean): Stored => ({ kind: 'boolean', value });
const json = (value: unknown): Stored => ({ kind: 'json', value });
const big = (digits: string): Stored => ({ kind: 'biginteger', digits });

function isStored(value: unknown): value is Stored {
  return typeof value === 'object' && value !== null && 'kind' in value && Object.keys(value).length === 2;
}

/** A value as `client` stores it. */
function storedValue(client: DatabaseClient, value: unknown): unknown {
  if (!isStored(value)) return value;
  switch (value.kind) {
    case 'datetime':
      // PostgreSQL: `timestamp without time zone` holding the UTC wall-clock time.
      return client === 'sqlite' ? Date.parse(value.iso) : value.iso.replace('T', ' ').replace('Z', '');
    case 'boolean':
      return client === 'sqlite' ? (value.value ? 1 : 0) : value.value;
    case 'json':
      return JSON.stringify(value.value);
    case 'biginteger':
      return client === 'sqlite' ? BigInt(value.digits) : value.digits;
  }
}

/** Deterministic created/updated timestamps: one hour apart per id, from 2024-01-01T00:00:00Z. */
function timestamps(id: number): Row {
  const at = datetime(new Date(Date.UTC(2024, 0, 1) + id * 3_600_000).toISOString());
  return { created_at: at, updated_at: at };
}

const ITEM_COLUMNS = [
  'id', 'name', 'body', 'notes', 'status', 'email', 'code', 'amount', 'big', 'ratio', 'price',
  'active', 'day', 'clock', 'moment', 'stamp', 'data', 'secret', 'pin',
] as const;

// prettier-ignore
const ITEM_VALUES: unknown[][] = [
  [1, 'Alpha', 'First item, 50% off', '# Notes\nSome **rich** text', 'alpha', 'alpha@example.com', 'alpha', 10, big('9007199254740993'), 1.5, 10.25,
    bool(true), '2024-01-15', '08:30:00.000', datetime('2024-01-15T08:30:00.123Z'), datetime('2024-01-15T08:30:00.000Z'), json({ a: 1, list: [1, 2] }), 'topsecret', 'hunter2'],
  [2, 'beta', 'second_item', null, 'beta', 'Beta@Example.COM', 'beta', 20, big('9007199254740992'), 2.25, 5.5,
    bool(false), '2024-02-29', '12:00:00.000', datetime('2024-02-29T12:00:00.000Z'), datetime('2024-02-29T12:00:00.500Z'), json([1, 'two', null]), null, null],
  [3, 'Gamma 100%', 'percent sign', 'Plain', 'gamma', 'gamma@example.org', 'gamma-100', -5, big('-9007199254740993'), -0.5, 0,
    bool(true), '2023-12-31', '23:59:59.999', datetime('2023-12-31T23:59:59.999Z'), null, json('just text'), null, null],
  [4, 'delta_x', 'UNDER_score', null, 'alpha', 'delta@example.com', 'delta-x', 0, big('0'), 0, 99.99,
    bool(false), '2024-03-01', '00:00:00.000', datetime('2024-03-01T00:00:00.000Z'), null, json(42), null, null],
  [5, 'Epsilon', null, null, null, null, 'epsilon', null, null, null, null,
    null, null, null, null, null, null, null, null],
  [6, 'epsilon', 'lower case twin', null, 'beta', 'epsilon@example.com', 'epsilon-2', 20, big('42'), 1.5, 10.25,
    bool(true), '2024-01-15', '08:30:00.000', datetime('2024-01-15T08:30:00.123Z'), null, json({ a: 2 }), null, null],
  [7, 'Delta-X', 'dash', null, 'gamma', 'DELTA@example.com', 'delta-x-2', 7, big('7'), 3.75, 1.1,
    bool(false), '2024-06-30', '18:45:30.250', datetime('2024-06-30T18:45:30.250Z'), null, json(true), null, null],
  [8, 'Æon', 'unicode ünïcödé', null, 'beta', 'aeon@example.com', 'aeon', 100, big('100'), 100.5, 100,
    bool(true), '1999-12-31', '06:00:00.000', datetime('1999-12-31T23:00:00.000Z'), null, json([]), null, null],
  [9, 'Zeta', 'last letter', null, 'alpha', 'zeta@example.com', 'zeta', 3, big('3'), 0.1, 0.1,
    bool(false), '2025-01-01', '09:15:00.000', datetime('2025-01-01T00:00:00.000Z'), null, json({}), null, null],
  [10, 'alphabet', 'letters', null, 'gamma', 'ab@example.com', 'alphabet', 15, big('9223372036854775807'), 7, 7,
    bool(true), '2024-01-16', '08:30:00.001', datetime('2024-01-15T08:30:00.124Z'), null, json({ nested: { deep: [true, false] } }), null, null],
];

function itemRows(): Row[] {
  return ITEM_VALUES.map((values) => ({
    ...Object.fromEntries(ITEM_COLUMNS.map((column, index) => [column, values[index]])),
    ...timestamps(values[0] as number),
  }));
}

/** red, green, blue, then `Tag 004` … `Tag 130`; inserted in a shuffled (but fixed) order. */
export const TAG_COUNT = 130;

export function tagName(id: number): string {
  return ['red', 'green', 'blue'][id - 1] ?? `Tag ${String(id).padStart(3, '0')}`;
}

function tagRows(): Row[] {
  const ids = Array.from({ length: TAG_COUNT }, (_, index) => index + 1);
  // A fixed permutation of 1…130 (multiplication modulo the prime 131): heap order ≠ id order.
  const shuffled = ids.map((id) => (id * 73) % 131);
  return shuffled.map((id) => ({ id, name: tagName(id), ...timestamps(id) }));
}

const FILES: Row[] = [
  { id: 1, name: 'a.jpg', alternative_text: 'A', caption: null, width: 640, height: 480, formats: json({ thumbnail: { url: '/uploads/thumbnail_a.jpg' } }), hash: 'a_hash', ext: '.jpg', mime: 'image/jpeg', size: 12.5, url: '/uploads/a.jpg', preview_url: null, provider: 'local', provider_metadata: null, folder_path: '/1', ...timestamps(1) },
  { id: 2, name: 'b.png', alternative_text: null, caption: 'Bee', width: 100, height: 100, formats: null, hash: 'b_hash', ext: '.png', mime: 'image/png', size: 3.25, url: '/uploads/b.png', preview_url: null, provider: 'local', provider_metadata: null, folder_path: '/1', ...timestamps(2) },
  { id: 3, name: 'c.pdf', alternative_text: null, caption: null, width: null, height: null, formats: null, hash: 'c_hash', ext: '.pdf', mime: 'application/pdf', size: 100, url: '/uploads/c.pdf', preview_url: null, provider: 'local', provider_metadata: null, folder_path: '/2', ...timestamps(3) },
];

/**
 * Rows of one of Strapi's polymorphic link tables, which differ only in the names of three
 * columns: `id`, the id on each side, the type of the polymorphic side, the field and the order.
 */
function linkRows(fromColumn: string, toColumn: string, typeColumn: string) {
  return (id: number, from: number, to: number, type: string, field: string, order: number | null): Row => ({
    id, [fromColumn]: from, [toColumn]: to, [typeColumn]: type, field, order,
  });
}

/** files_related_morphs: a file linked to an entry or component of `type`. */
const morph = linkRows('file_id', 'related_id', 'related_type');
/** <table>_components: a component of `type` linked to an entry or component. */
const componentLink = linkRows('entity_id', 'component_id', 'component_type');

/** Every table's rows, in an order that satisfies the foreign keys. */
function tables(): [string, Row[]][] {
  return [
    ['groups', [
      { id: 1, name: 'Food', rank: 2, ...timestamps(1) },
      { id: 2, name: 'Travel', rank: 1, ...timestamps(2) },
      { id: 3, name: 'Empty', rank: null, ...timestamps(3) },
      { id: 4, name: 'Sub-Food', rank: 3, ...timestamps(4) },
    ]],
    ['tags', tagRows()],
    ['vaults', [{ id: 1, name: 'Vault A', ...timestamps(1) }]],
    ['items', itemRows()],
    ['posts', [
      { id: 1, title: 'Hello', views: 10, locale: 'en', published_at: datetime('2024-01-02T00:00:00.000Z'), ...timestamps(1) },
      { id: 2, title: 'World', views: 20, locale: 'en', published_at: datetime('2024-01-03T00:00:00.000Z'), ...timestamps(2) },
      { id: 3, title: 'Draft', views: 30, locale: 'en', published_at: null, ...timestamps(3) },
      { id: 4, title: 'Bonjour', views: 40, locale: 'fr', published_at: datetime('2024-01-05T00:00:00.000Z'), ...timestamps(4) },
      { id: 5, title: 'Brouillon', views: 50, locale: 'fr', published_at: null, ...timestamps(5) },
    ]],
    ['files', FILES],
    ['components_parts_specs', [{ id: 1, code: 'S-1', weight: 1.5 }]],
    ['components_parts_details', [
      { id: 1, label: 'Main', level: 3, hint: 'hidden hint' },
      { id: 2, label: 'Other', level: 1, hint: null },
      { id: 3, label: 'Main', level: 2, hint: null },
    ]],
    ['components_parts_steps', [
      { id: 1, title: 'Mix', position: 1 },
      { id: 2, title: 'Bake', position: 2 },
      { id: 3, title: 'Serve', position: 1 },
      { id: 4, title: 'Bake', position: 3 },
      { id: 5, title: 'In zone', position: 9 },
    ]],
    ['components_parts_notes', [{ id: 1, text: 'A note' }]],
    ['items_group_links', [
      { id: 1, item_id: 1, group_id: 1, item_order: 1 },
      { id: 2, item_id: 2, group_id: 1, item_order: 2 },
      { id: 3, item_id: 3, group_id: 2, item_order: 1 },
      { id: 4, item_id: 4, group_id: 4, item_order: 1 },
      { id: 5, item_id: 6, group_id: 2, item_order: 2 },
      { id: 6, item_id: 8, group_id: 3, item_order: 1 },
    ]],
    ['items_tags_links', [
      { id: 1, item_id: 1, tag_id: 3, tag_order: 1, item_order: 1 },
      { id: 2, item_id: 1, tag_id: 1, tag_order: 2, item_order: 1 },
      { id: 3, item_id: 2, tag_id: 2, tag_order: 1, item_order: 1 },
      { id: 4, item_id: 3, tag_id: 1, tag_order: 1, item_order: 2 },
      { id: 5, item_id: 3, tag_id: 2, tag_order: 2, item_order: 2 },
      { id: 6, item_id: 6, tag_id: 3, tag_order: 1, item_order: 2 },
    ]],
    ['groups_featured_item_links', [
      { id: 1, group_id: 1, item_id: 2 },
      { id: 2, group_id: 2, item_id: 3 },
    ]],
    ['items_parent_links', [
      { id: 1, item_id: 2, inv_item_id: 1, item_order: 1 },
      { id: 2, item_id: 3, inv_item_id: 1, item_order: 2 },
      { id: 3, item_id: 4, inv_item_id: 2, item_order: 1 },
    ]],
    ['items_vault_links', [{ id: 1, item_id: 1, vault_id: 1 }]],
    ['posts_localizations_links', [
      { id: 1, post_id: 1, inv_post_id: 4, post_order: 1 },
      { id: 2, post_id: 4, inv_post_id: 1, post_order: 1 },
      { id: 3, post_id: 3, inv_post_id: 5, post_order: 1 },
      { id: 4, post_id: 5, inv_post_id: 3, post_order: 1 },
    ]],
    ['components_parts_details_tag_links', [
      { id: 1, detail_id: 1, tag_id: 2 },
      { id: 2, detail_id: 2, tag_id: 1 },
    ]],
    ['components_parts_details_vault_links', [{ id: 1, detail_id: 1, vault_id: 1 }]],
    ['items_components', [
      componentLink(1, 1, 1, 'parts.detail', 'detail', null),
      componentLink(2, 2, 2, 'parts.detail', 'detail', null),
      componentLink(3, 6, 3, 'parts.detail', 'detail', null),
      componentLink(4, 1, 1, 'parts.step', 'steps', 1),
      componentLink(5, 1, 2, 'parts.step', 'steps', 2),
      componentLink(6, 3, 3, 'parts.step', 'steps', 1),
      componentLink(7, 6, 4, 'parts.step', 'steps', 1),
      componentLink(8, 1, 1, 'parts.note', 'blocks', 1),
      componentLink(9, 1, 5, 'parts.step', 'blocks', 2),
    ]],
    ['components_parts_details_components', [componentLink(1, 1, 1, 'parts.spec', 'spec', null)]],
    ['files_related_morphs', [
      morph(1, 1, 1, 'api::item.item', 'cover', 1),
      morph(2, 3, 1, 'api::item.item', 'photos', 1),
      morph(3, 2, 1, 'api::item.item', 'photos', 2),
      morph(4, 2, 2, 'api::item.item', 'cover', 1),
      morph(5, 1, 3, 'api::item.item', 'photos', 1),
      morph(6, 3, 1, 'parts.detail', 'image', 1),
    ]],
  ];
}

/** Inserts the data set into a database `syncSchema` has laid out for the all-types schema. */
export async function seedAllTypes(knex: Knex, client: DatabaseClient): Promise<void> {
  await knex.transaction(async (trx) => {
    for (const [table, rows] of tables()) {
      const stored = rows.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, storedValue(client, value)])));
      // Small batches: SQLite caps the number of bound parameters per statement.
      for (let index = 0; index < stored.length; index += 40) await trx(table).insert(stored.slice(index, index + 40));
    }
  });
}
