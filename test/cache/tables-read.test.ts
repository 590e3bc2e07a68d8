/**
 * tablesRead (sql/tables-read.ts) names exactly the tables the compiled statement reads: for each
 * engine's compiler, over populates, filters, sorts, counts, dynamic zones, media and the row
 * rules of permissions.yaml, the tables after FROM and JOIN in the emitted SQL are the ones it names.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { loadPermissions, parsePermissions, type Permissions } from '../../plugin/access/permissions.js';
import { planRestRead } from '../../plugin/http/rest-read.js';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { compileRequest } from '../../plugin/sql/compile.js';
import { DIALECTS } from '../../plugin/sql/dialect/dialects.js';
import { tablesRead } from '../../plugin/sql/tables-read.js';
import { repoRoot } from '../support/api.js';

/** The tables a statement names after FROM or JOIN, its own CTEs left out. */
function tablesInSql(sql: string): Set<string> {
  const ctes = new Set(Array.from(sql.matchAll(/(?:WITH|,)\s+"([^"]+)"\s+AS\s+(?:MATERIALIZED\s+)?\(/gi), (match) => match[1]!));
  const named = Array.from(sql.matchAll(/\b(?:FROM|JOIN)\s+"([^"]+)"/gi), (match) => match[1]!);
  return new Set(named.filter((name) => !ctes.has(name)));
}

const EVERYTHING = ['find', 'findOne', 'preview'];

/** Every type readable by `editor`, with no rule. */
function openPermissions(registry: Registry): Permissions {
  const types = registry.contentTypes.map((model) => `    ${model.uid}: [${EVERYTHING.join(', ')}]`);
  return parsePermissions(`roles:\n  editor:\n${types.join('\n')}\n    file: [find, findOne]\n`, 'permissions.yaml', registry);
}

const EXAMPLE_QUERIES: readonly [string, 'find' | 'findOne', string][] = [
  ['articles', 'find', ''],
  ['articles', 'find', 'populate=*'],
  ['articles', 'findOne', 'populate=*'],
  ['articles', 'find', 'publicationState=preview&populate[category][populate][articles][count]=true'],
  ['articles', 'find', 'populate[headerImage]=true&populate[gallery][fields][0]=name&populate[localizations]=*'],
  ['articles', 'find', 'populate[seo][populate]=*&populate[links]=*&populate[related][populate]=*'],
  ['articles', 'find', 'populate[blocks][populate]=*'],
  ['articles', 'find', 'populate[blocks][count]=true'],
  ['articles', 'find', 'populate[blocks][on][shared.slider][populate]=*&populate[blocks][on][shared.quote]=true'],
  ['articles', 'find', 'populate[blocks][on][shared.quote][filters][title][$eq]=x'],
  ['articles', 'find', 'populate[blocks][on][shared.media][filters][file][name][$eq]=x'],
  ['articles', 'find', 'filters[category][name][$eq]=News'],
  ['articles', 'find', 'filters[category][articles][author][username][$containsi]=a&filters[seo][metaTitle][$notNull]=true'],
  ['articles', 'find', 'filters[headerImage][name][$null]=true'],
  ['articles', 'find', 'filters[$or][0][categories][slug][$eq]=a&filters[$or][1][relatedRestaurants][name][$eq]=b'],
  ['articles', 'find', 'sort=category.name:desc'],
  ['articles', 'find', 'sort[0]=category.parent.name&sort[1]=title'],
  ['articles', 'find', 'populate[categories][sort]=name&populate[categories][filters][restaurants][name][$eq]=x'],
  ['articles', 'find', 'populate[categories][populate][articles][count]=true&populate[categories][limit]=2'],
  ['articles', 'find', 'pagination[withCount]=false&_q=hello'],
  ['categories', 'find', 'populate[icon]=true&populate[children][populate][parent]=*'],
  ['categories', 'findOne', 'populate[articles][populate][headerImage]=true'],
  ['restaurants', 'find', 'populate=*'],
];

describe('the tables a statement reads (sql/tables-read.ts)', () => {
  let registry: Registry;
  before(async () => {
    registry = await loadSchema(repoRoot);
  });

  for (const [engine, dialect] of Object.entries(DIALECTS)) {
    it(`names the tables of every example request (${engine})`, () => {
      const permissions = openPermissions(registry);
      for (const [route, action, querystring] of EXAMPLE_QUERIES) {
        const model = registry.routes.get(route)!;
        const root = planRestRead({ registry, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions }, { model, action, id: action === 'findOne' ? 1 : null, querystring, role: 'editor' });
        const { body } = compileRequest(dialect, root);
        expect([...tablesRead(root)].sort(), `${route}?${querystring}`).to.deep.equal([...tablesInSql(body.sql)].sort());
        if (body.givenTotal) expect([...tablesRead(root)].sort(), `${route}?${querystring} (known total)`).to.include.members([...tablesInSql(body.givenTotal.sql)]);
      }
    });

    it(`names the tables the row rules read (${engine})`, async () => {
      const root = join(repoRoot, 'test/rules/app');
      const rules = await loadSchema(root);
      const permissions = (await loadPermissions(join(root, 'permissions.yaml'), 'permissions.yaml', rules))!;
      const cases: [string, string, string][] = [
        ['public', 'notes', 'populate=*'],
        ['public', 'members', 'populate[notes][populate][tag]=*&sort=notes.title'],
        ['author', 'notes', 'populate=*'],
        ['author', 'members', 'populate[notes][count]=true'],
        ['moderator', 'tags', 'populate[notes]=*&filters[notes][title][$contains]=a'],
        ['author', 'notes', 'sort=tag.name'],
        // The notes' rule reads their owners: sorting or filtering tags by their notes reads them too.
        ['author', 'tags', 'sort=notes.title'],
        ['author', 'tags', 'filters[notes][title][$eq]=x'],
        ['reader', 'notes', 'fields[0]=title'],
        ['scheduled', 'notes', ''],
      ];
      for (const [role, route, querystring] of cases) {
        const tree = planRestRead({ registry: rules, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions }, { model: rules.routes.get(route)!, action: 'find', id: null, querystring, role });
        expect([...tablesRead(tree)].sort(), `${role} ${route}?${querystring}`).to.deep.equal([...tablesInSql(compileRequest(dialect, tree).body.sql)].sort());
      }
    });
  }
});
