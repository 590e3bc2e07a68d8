/**
 * Deep filters over HTTP (SPEC §4 filters, §5): through to-one and to-many relations, the
 * mappedBy side, self relations, single, repeatable and nested components, media, and relations
 * and media inside components; a relation compared directly by id; and the refusals — dynamic
 * zones, private fields at depth, relations to a type the role may not `find`.
 *
 * Links (support/all-types-data.ts): item.group 1,2→Food(1) 3,6→Travel(2) 4→Sub-Food(4) 8→Empty(3);
 * item.tags 1→[blue,red] 2→[green] 3→[red,green] 6→[blue]; Food features item 2, Travel item 3;
 * item.parent 2,3→1 and 4→2; item 1's vault is Vault A; detail 1 {Main, level 3, spec S-1, tag
 * green, image c.pdf} 2 {Other, 1, tag red} 6 {Main, 2}; steps 1 [Mix, Bake] 3 [Serve] 6 [Bake];
 * cover 1 a.jpg 2 b.png; photos 1 [c.pdf, b.png] 3 [a.jpg].
 */
import { expect } from 'chai';
import { EDITOR_TOKEN, entryIds, type Envelope } from './support/all-types.js';
import { idsTable, refusedTable, type IdsCase, type RefusedCase } from './support/case-tables.js';
import { describeEachEngine } from './support/each-engine.js';

const CASES: Record<string, readonly IdsCase[]> = {
  'to-one relation (manyToOne)': [
    ['filters[group][name]=Food', [1, 2]],
    ['filters[group][name][$startsWith]=Sub', [4]],
    ['filters[group][rank][$lt]=3', [1, 2, 3, 6]],
    ['filters[group][id]=3', [8]],
    ['filters[group][name][$in][0]=Food&filters[group][name][$in][1]=Empty', [1, 2, 8]],
    // A condition that holds for a missing row also holds for entries without a group (Strapi's LEFT JOIN).
    ['filters[group][rank][$null]=true', [5, 7, 8, 9, 10]],
    // $not negates the condition on the joined rows (Strapi 4.26.2): entries without a group match neither.
    ['filters[$not][group][name]=Food', [3, 4, 6, 8]],
    ['filters[$not][group][rank][$null]=true', [1, 2, 3, 4, 6]],
    ['filters[$not][$or][0][group][name]=Food&filters[$not][$or][1][group][name]=Travel', [4, 8]],
  ],
  'relation compared directly by id': [
    ['filters[group]=1', [1, 2]],
    ['filters[group][$eq]=2', [3, 6]],
    ['filters[group][$ne]=1', [3, 4, 6, 8]],
    ['filters[group][$in][0]=1&filters[group][$in][1]=4', [1, 2, 4]],
    ['filters[group][0]=2&filters[group][1]=3', [3, 6, 8]],
    ['filters[group][$notIn][0]=1', [3, 4, 6, 8]],
    ['filters[group][$null]=true', [5, 7, 9, 10]],
    ['filters[group][$notNull]=true', [1, 2, 3, 4, 6, 8]],
    ['filters[group][$null]=false', [1, 2, 3, 4, 6, 8]],
    ['filters[group]', [5, 7, 9, 10]],
    ['filters[tags]=1', [1, 3]],
    ['filters[tags][$in][0]=2&filters[tags][$in][1]=3', [1, 2, 3, 6]],
    ['filters[parent]=1', [2, 3]],
  ],
  'to-many relation (manyToMany)': [
    ['filters[tags][name]=red', [1, 3]],
    ['filters[tags][name][$in][0]=green&filters[tags][name][$in][1]=blue', [1, 2, 3, 6]],
    // Some related row differs from red.
    ['filters[tags][name][$ne]=red', [1, 2, 3, 6]],
    ['filters[tags][$null]=true', [4, 5, 7, 8, 9, 10]],
    ['filters[tags][$notNull]=true', [1, 2, 3, 6]],
    ['filters[$and][0][tags][name]=red&filters[$and][1][tags][name]=green', [3]],
    ['filters[$or][0][tags][name]=blue&filters[$or][1][group][name]=Food', [1, 2, 6]],
    ['filters[tags][name][$containsi]=E', [1, 2, 3, 6]],
    // Some related row is not red, as Strapi's NOT over its LEFT JOIN: entries without tags are left out.
    ['filters[$not][tags][name]=red', [1, 2, 3, 6]],
  ],
  'mappedBy side and self relations': [
    ['filters[feature][name]=Food', [2]],
    ['filters[feature][$notNull]=true', [2, 3]],
    ['filters[parent][name]=Alpha', [2, 3]],
    ['filters[parent][parent][name]=Alpha', [4]],
    ['filters[children][name]=beta', [1]],
    ['filters[children][$notNull]=true', [1, 2]],
    ['filters[children][children][name]=delta_x', [1]],
    ['filters[group][items][name]=beta', [1, 2]],
    ['filters[tags][items][group][name]=Travel', [1, 2, 3, 6]],
  ],
  components: [
    ['filters[detail][label]=Main', [1, 6]],
    ['filters[detail][level][$gte]=2', [1, 6]],
    ['filters[detail][id]=2', [2]],
    ['filters[detail][$null]=true', [3, 4, 5, 7, 8, 9, 10]],
    ['filters[detail][$notNull]=true', [1, 2, 6]],
    ['filters[detail][spec][code]=S-1', [1]],
    ['filters[detail][spec][weight][$gt]=1', [1]],
    ['filters[detail][spec][$notNull]=true', [1]],
    ['filters[steps][title]=Bake', [1, 6]],
    ['filters[steps][position][$gt]=2', [6]],
    ['filters[steps][$null]=true', [2, 4, 5, 7, 8, 9, 10]],
    ['filters[$and][0][steps][title]=Mix&filters[$and][1][steps][title]=Bake', [1]],
  ],
  'relations and media inside components': [
    ['filters[detail][tag][name]=red', [2]],
    ['filters[detail][tag][name]=green', [1]],
    ['filters[detail][tag]=2', [1]],
    ['filters[detail][tag][$null]=true', [3, 4, 5, 6, 7, 8, 9, 10]],
    ['filters[detail][image][name]=c.pdf', [1]],
    ['filters[detail][image][mime][$startsWith]=image/', []],
  ],
  media: [
    ['filters[cover][name]=a.jpg', [1]],
    ['filters[cover][mime][$startsWith]=image/', [1, 2]],
    ['filters[cover][size][$gt]=10', [1]],
    ['filters[cover][id]=2', [2]],
    ['filters[cover][$null]=true', [3, 4, 5, 6, 7, 8, 9, 10]],
    ['filters[photos][name]=a.jpg', [3]],
    ['filters[photos][ext]=.png', [1]],
    ['filters[photos][$notNull]=true', [1, 3]],
  ],
};

/** Filters from the other side of the relations, on the other types. */
const OTHER_TYPES: readonly IdsCase[] = [
  ['/api/groups?filters[items][name]=Alpha', [1]],
  ['/api/groups?filters[items][amount][$gt]=50', [3]],
  ['/api/groups?filters[featuredItem][name]=beta', [1]],
  ['/api/groups?filters[featuredItem][$null]=true', [3, 4]],
  ['/api/groups?filters[items][tags][name]=green', [1, 2]],
  ['/api/tags?filters[items][name]=Alpha', [1, 3]],
  ['/api/tags?filters[items][$notNull]=true', [1, 2, 3]],
  ['/api/posts?filters[localizations][title]=Bonjour', [1]],
  ['/api/posts?filters[localizations][$null]=true', [2]],
];

/** Refused paths: 400 naming the parameter, before any SQL (SPEC §5). */
const REFUSED: readonly RefusedCase[] = [
  ['filters[blocks][text]=A%20note', 'filters.blocks'],
  ['filters[blocks][$null]=true', 'filters.blocks'],
  ['filters[vault][name]=Vault%20A', 'filters.vault'],
  ['filters[vault]=1', 'filters.vault'],
  ['filters[vault][$null]=true', 'filters.vault'],
  ['filters[$or][0][vault][id]=1', 'filters.$or[0].vault'],
  ['filters[detail][vault][name]=Vault%20A', 'filters.detail.vault'],
  ['filters[detail][hint]=hidden%20hint', 'filters.detail.hint'],
  ['filters[group][items][secret]=topsecret', 'filters.group.items.secret'],
  ['filters[parent][pin][$null]=false', 'filters.parent.pin'],
  ['filters[cover][folderPath]=/1', 'filters.cover.folderPath'],
  ['filters[cover][related][id]=1', 'filters.cover.related'],
  ['filters[createdBy][id]=1', 'filters.createdBy'],
  ['filters[group][nope]=1', 'filters.group.nope'],
  ['filters[group][$null]=true&filters[group][name]=Food', 'filters.group'],
  ['filters[detail]=1', 'filters.detail'],
];

describeEachEngine('api: filters through relations, components and media', (app) => {
  for (const [title, cases] of Object.entries(CASES)) idsTable(app, title, cases);
  idsTable(app, 'from the other side', OTHER_TYPES, { prefix: '' });

  it('never repeats an entry that several related rows match', async function () {
    const body = (await app().request.get('/api/items?fields=id&filters[tags][name][$in][0]=red&filters[tags][name][$in][1]=green')).body as Envelope;
    expect(entryIds(body)).to.deep.equal([1, 2, 3]);
    expect(body.meta?.pagination).to.deep.equal({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
  });

  refusedTable(app, 'refused', REFUSED);

  describe('a role that may read the related type', function () {
    const editor = { Authorization: `Bearer ${EDITOR_TOKEN}` };

    it('filters through it', async function () {
      const response = await app().request.get('/api/items?fields=id&filters[vault][name]=Vault%20A').set(editor);
      expect(response.status).to.equal(200);
      expect((response.body as Envelope).data).to.deep.equal([{ id: 1, attributes: {} }]);
    });

    it('filters through it inside a component', async function () {
      const response = await app().request.get('/api/items?fields=id&filters[detail][vault][$notNull]=true').set(editor);
      expect(response.status).to.equal(200);
      expect((response.body as Envelope).data).to.deep.equal([{ id: 1, attributes: {} }]);
    });
  });
});
