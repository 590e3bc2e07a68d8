/**
 * What a role may not see never reaches it, on both engines. Distinctive values are planted in a
 * copy of the small fixture: in every private and password column, in a text attribute of every
 * entry of each type some role may not `find`, and in the titles of drafts. Then thousands of
 * queries (the grammar's, and populate of everything through every route) are sent as each role,
 * and no body may hold a value that role may not see. Filters and sort naming what a role may not
 * read are 400s in every path form, so neither the count nor the order of entries can leak it,
 * and `_q` never searches a private field.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { grantsFor, type Permissions } from '../../plugin/access/permissions.js';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Model, Registry, ScalarAttribute } from '../../plugin/schema/registry.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { queryGrammar } from '../support/query-grammar.js';

const ROLES = ['public', 'editor'] as const;
const GRAMMAR_REQUESTS_PER_ROLE = 600;
const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid', 'enumeration']);

const hiddenCanary = (table: string, column: string) => `canary-hidden-${table}-${column}`;
const typeCanary = (uid: string) => `canary-type-${uid.replace(/\W+/g, '-')}`;
const DRAFT_CANARY = 'canary-draft';

interface Planted {
  /** Types with a planted text attribute: the attribute's name. */
  readonly typeAttributes: ReadonlyMap<string, string>;
  readonly hiddenValues: readonly string[];
}

const textScalars = (model: Model): ScalarAttribute[] =>
  [...model.attributes.values()].filter((attribute): attribute is ScalarAttribute => attribute.kind === 'scalar' && TEXT_TYPES.has(attribute.type));

/** Writes the canaries into a SQLite copy of the fixture. */
function plant(file: string, registry: Registry, permissions: Permissions): Planted {
  const database = new Database(file);
  const hiddenValues: string[] = [];
  const typeAttributes = new Map<string, string>();
  try {
    for (const model of registry.models.values()) {
      for (const attribute of textScalars(model).filter((scalar) => scalar.hidden)) {
        const value = hiddenCanary(model.tableName, attribute.column);
        database.prepare(`UPDATE "${model.tableName}" SET "${attribute.column}" = ?`).run(value);
        hiddenValues.push(value);
      }
      const unreadableBySome = model.modelType === 'contentType' && ROLES.some((role) => !grantsFor(permissions, role).can(model.uid, 'find'));
      const visible = textScalars(model).find((scalar) => !scalar.hidden && scalar.type !== 'uid' && scalar.type !== 'enumeration');
      if (unreadableBySome && visible) {
        database.prepare(`UPDATE "${model.tableName}" SET "${visible.column}" = ?`).run(typeCanary(model.uid));
        typeAttributes.set(model.uid, visible.name);
      }
    }
    const article = registry.routes.get('articles')!;
    database.prepare(`UPDATE "${article.tableName}" SET title = ? WHERE published_at IS NULL`).run(DRAFT_CANARY);
  } finally {
    database.close();
  }
  return { typeAttributes, hiddenValues };
}

/** The canaries a response to `role` must not hold, for a request to `path`. */
function forbiddenFor(role: string, path: string, planted: Planted, registry: Registry, permissions: Permissions): string[] {
  const grants = grantsFor(permissions, role);
  const forbidden = [...planted.hiddenValues];
  for (const uid of planted.typeAttributes.keys()) if (!grants.can(uid, 'find')) forbidden.push(typeCanary(uid));
  const article = registry.routes.get('articles')!;
  if (!(grants.can(article.uid, 'preview') && path.includes('publicationState=preview'))) forbidden.push(DRAFT_CANARY);
  return forbidden;
}

/** A findOne of a type the role may read only by id shows that entry's own value: it is removed before looking. */
function withoutOwnEntry(body: unknown, model: Model, planted: Planted, action: 'find' | 'findOne'): unknown {
  const attribute = planted.typeAttributes.get(model.uid);
  const data = (body as { data?: { attributes?: Record<string, unknown> } }).data;
  if (action === 'findOne' && attribute && data?.attributes) delete data.attributes[attribute];
  return body;
}

/** Every route with everything populated two levels deep, in every locale and both publication states. */
function populateEverything(registry: Registry): string[] {
  const paths: string[] = [];
  for (const [route, model] of registry.routes) {
    const bases = model.kind === 'collectionType' ? [`/api/${route}`, `/api/${route}/1`, `/api/${route}/2`] : [`/api/${route}`];
    for (const base of bases) {
      for (const extra of ['', '&locale=all', '&publicationState=preview', '&publicationState=preview&locale=all']) {
        paths.push(`${base}?populate=*${extra}`);
        for (const attribute of model.attributes.values()) {
          if (['relation', 'component', 'dynamiczone', 'media'].includes(attribute.kind)) paths.push(`${base}?populate[${attribute.name}][populate]=*${extra}`);
        }
      }
    }
  }
  return paths;
}

/** Filter and sort forms naming `name` under `prefix` (a relation path or empty). */
function namingForms(prefix: string[], name: string): string[] {
  const path = [...prefix, name];
  const brackets = path.map((step) => `[${step}]`).join('');
  const dotted = path.join('.');
  return [
    `filters${brackets}=x`,
    `filters${brackets}[$eq]=x`,
    `filters${brackets}[$null]=true`,
    `filters[$or][0]${brackets}[$startsWith]=c`,
    `filters[$and][0][$or][1]${brackets}[$contains]=a`,
    `filters[$not]${brackets}[$eq]=x`,
    `sort=${dotted}`,
    `sort=${dotted}:desc`,
    `sort[0]=${dotted}:asc`,
    `sort[0]=id&sort[1]=${dotted}`,
    ...(prefix.length === 0 ? [`sort[${name}]=asc`] : []),
  ];
}

for (const kind of testDatabaseKinds()) {
  describe(`canaries and oracles (${kind.name})`, function () {
    let dir: string;
    let served: ServedApi;
    let planted: Planted;
    let registry: Registry;
    let permissions: Permissions;
    let postgres: TestDatabase | null = null;

    before(async function () {
      this.timeout(120_000);
      dir = mkdtempSync(join(tmpdir(), 'content-api-canaries-'));
      const file = join(dir, 'strapi-small.db');
      copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), file);
      served = await serveApi({ root: repoRoot, database: `sqlite:${file}`, sync: false });
      registry = served.api.registry;
      permissions = served.api.permissions;
      await served.close();
      planted = plant(file, registry, permissions);
      let url = `sqlite:${file}`;
      if (kind.client === 'postgres') {
        postgres = await createTestDatabase('postgres');
        const source = openDatabase(url);
        try {
          await copyDatabase({ from: source, to: postgres.knex, registry: await loadSchema(repoRoot) });
        } finally {
          await source.destroy();
        }
        url = postgres.url;
      }
      served = await serveApi({ root: repoRoot, database: url, sync: false, resolveRole: (ctx) => ctx.get('x-test-role') || null });
    });
    after(async () => {
      await served?.close();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('planted what it says: a role that may read them sees the type canaries, and preview shows the drafts', async () => {
      expect(planted.hiddenValues.length).to.be.greaterThan(4);
      expect(planted.typeAttributes.size).to.be.greaterThan(0);
      const drafts = await served.request.get('/api/articles?publicationState=preview&locale=all&fields[0]=title').set('x-test-role', 'editor');
      expect(drafts.text).to.include(DRAFT_CANARY);
      for (const uid of planted.typeAttributes.keys()) {
        const reader = ROLES.find((role) => grantsFor(permissions, role).can(uid, 'find'));
        if (!reader) continue;
        const route = [...registry.routes].find(([, model]) => model.uid === uid)![0];
        const response = await served.request.get(`/api/${route}`).set('x-test-role', reader === 'public' ? '' : reader);
        expect(response.text).to.include(typeCanary(uid));
      }
    });

    for (const role of ROLES) {
      it(`never shows ${role} a value it may not see, through populate of everything or the grammar`, async function () {
        this.timeout(300_000);
        const next = queryGrammar(registry, 4242 + role.length);
        const paths = [...populateEverything(registry), ...Array.from({ length: GRAMMAR_REQUESTS_PER_ROLE }, () => next())];
        let answered = 0;
        for (const path of paths) {
          const response = await served.request.get(path).set('x-test-role', role === 'public' ? '' : role);
          expect([200, 400, 403, 404], `${response.status} for ${path}`).to.include(response.status);
          if (response.status !== 200) continue;
          answered += 1;
          const route = path.split('?')[0]!.split('/')[2]!;
          const model = registry.routes.get(route)!;
          const action = /\/api\/[^/?]+\/\d+/.test(path) ? 'findOne' : 'find';
          const text = JSON.stringify(withoutOwnEntry(response.body, model, planted, action));
          for (const canary of forbiddenFor(role, path, planted, registry, permissions)) {
            expect(text.includes(canary), `${canary} shown to ${role} by ${path}`).to.equal(false);
          }
        }
        expect(answered).to.be.greaterThan(paths.length / 3);
      });
    }

    it('answers 400 to every filter and sort form naming a private field, at the root and through relations', async () => {
      const cases: string[] = [];
      for (const [route, model] of registry.routes) {
        for (const attribute of model.attributes.values()) {
          if (attribute.kind === 'scalar' && attribute.hidden) cases.push(...namingForms([], attribute.name).map((query) => `/api/${route}?${query}`));
          if (attribute.kind !== 'relation') continue;
          const target = registry.models.get(attribute.target)!;
          for (const hidden of [...target.attributes.values()].filter((scalar) => scalar.kind === 'scalar' && scalar.hidden)) {
            cases.push(...namingForms([attribute.name], hidden.name).map((query) => `/api/${route}?${query}`));
          }
        }
      }
      expect(cases.length).to.be.greaterThan(40);
      for (const role of ROLES) {
        for (const path of cases) {
          const route = registry.routes.get(path.split('?')[0]!.split('/')[2]!)!;
          const response = await served.request.get(path).set('x-test-role', role === 'public' ? '' : role);
          const expected = grantsFor(permissions, role).can(route.uid, 'find') ? 400 : 403;
          expect(response.status, `${role}: ${path}`).to.equal(expected);
        }
      }
    });

    it('answers 400 to filters and sort through a relation to a type the role may not find, in every form', async () => {
      let checked = 0;
      for (const role of ROLES) {
        const grants = grantsFor(permissions, role);
        for (const [route, model] of registry.routes) {
          if (!grants.can(model.uid, 'find')) continue;
          for (const attribute of model.attributes.values()) {
            if (attribute.kind !== 'relation' || grants.can(attribute.target, 'find')) continue;
            for (const query of [...namingForms([attribute.name], 'id'), `populate[${attribute.name}]=*&filters[${attribute.name}][id][$gt]=0`]) {
              const response = await served.request.get(`/api/${route}?${query}`).set('x-test-role', role === 'public' ? '' : role);
              expect(response.status, `${role}: /api/${route}?${query}`).to.equal(400);
              checked += 1;
            }
          }
        }
      }
      expect(checked).to.be.greaterThan(10);
    });

    it('_q never matches a private value', async () => {
      for (const [route, model] of registry.routes) {
        if (model.kind !== 'collectionType') continue;
        const response = await served.request.get(`/api/${route}?_q=canary-hidden&locale=all`).set('x-test-role', 'editor');
        if (response.status === 403) continue;
        expect(response.status, route).to.equal(200);
        expect(response.body.meta.pagination.total, route).to.equal(0);
      }
    });
  });
}
