/**
 * sort over HTTP (SPEC §4 sort; D4, D5): every written form, every scalar type, ties broken by
 * id, NULLs first ascending and last descending, strings in code-point order ('B' < 'a' < 'Æ'),
 * nested through to-one relations, components and media, and through to-many relations and
 * repeatable components with each entry listed once — the same order on SQLite and PostgreSQL.
 * Data: support/all-types-data.ts.
 */
import { expect } from 'chai';
import { entryIds, idsOf, type Envelope } from './support/all-types.js';
import { idsTable, refusedTable, type IdsCase, type RefusedCase } from './support/case-tables.js';
import { describeEachEngine } from './support/each-engine.js';

/** name in code-point order: Alpha, Delta-X, Epsilon, Gamma 100%, Zeta, alphabet, beta, delta_x, epsilon, Æon. */
const BY_NAME = [1, 7, 5, 3, 9, 10, 2, 4, 6, 8];
const BY_NAME_DESC = [...BY_NAME].reverse();

const FORMS: readonly IdsCase[] = [
  ['sort=name', BY_NAME],
  ['sort=name:asc', BY_NAME],
  ['sort=name:ASC', BY_NAME],
  ['sort=name:desc', BY_NAME_DESC],
  ['sort=name:DeSc', BY_NAME_DESC],
  ['sort[0]=name:desc', BY_NAME_DESC],
  ['sort[]=name:desc', BY_NAME_DESC],
  ['sort[name]=desc', BY_NAME_DESC],
  ['sort[name]=DESC', BY_NAME_DESC],
  ['sort[0][name]=desc', BY_NAME_DESC],
  // status desc (NULL last), then amount asc.
  ['sort=status:desc,amount:asc', [3, 7, 10, 2, 6, 8, 4, 9, 1, 5]],
  ['sort=status:desc, amount', [3, 7, 10, 2, 6, 8, 4, 9, 1, 5]],
  ['sort[0]=status:desc&sort[1]=amount', [3, 7, 10, 2, 6, 8, 4, 9, 1, 5]],
  ['sort=status:desc&sort=amount', [3, 7, 10, 2, 6, 8, 4, 9, 1, 5]],
  ['sort[0]=status:desc,amount', [3, 7, 10, 2, 6, 8, 4, 9, 1, 5]],
  // status asc (NULL first), then amount desc, ties (beta 20, 20) by id.
  ['sort[0][status]=asc&sort[1][amount]=desc', [5, 1, 9, 4, 8, 2, 6, 10, 7, 3]],
  ['sort[status]=asc&sort[amount]=desc', [5, 1, 9, 4, 8, 2, 6, 10, 7, 3]],
  ['sort=id:desc', [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]],
  ['sort[id]=desc', [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]],
  ['sort=', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
];

/** One scalar type each; ties broken by id ascending in both directions; NULL (item 5) first asc, last desc. */
const TYPES: readonly IdsCase[] = [
  ['sort=amount', [5, 3, 4, 9, 7, 1, 10, 2, 6, 8]],
  ['sort=amount:desc', [8, 2, 6, 10, 1, 7, 9, 4, 3, 5]],
  ['sort=big', [5, 3, 4, 9, 7, 6, 8, 2, 1, 10]],
  ['sort=big:desc', [10, 1, 2, 8, 6, 7, 9, 4, 3, 5]],
  ['sort=ratio', [5, 3, 4, 9, 1, 6, 2, 7, 10, 8]],
  ['sort=price:desc', [8, 4, 1, 6, 10, 2, 7, 9, 3, 5]],
  ['sort=active', [5, 2, 4, 7, 9, 1, 3, 6, 8, 10]],
  ['sort=active:desc', [1, 3, 6, 8, 10, 2, 4, 7, 9, 5]],
  ['sort=day', [5, 8, 3, 1, 6, 10, 2, 4, 7, 9]],
  ['sort=clock:desc', [3, 7, 2, 9, 10, 1, 6, 8, 4, 5]],
  ['sort=moment', [5, 8, 3, 1, 6, 10, 2, 4, 7, 9]],
  ['sort=moment:desc', [9, 7, 4, 2, 10, 1, 6, 3, 8, 5]],
  ['sort=stamp:desc', [2, 1, 3, 4, 5, 6, 7, 8, 9, 10]],
  ['sort=status', [5, 1, 4, 9, 2, 6, 8, 3, 7, 10]],
  ['sort=email', [5, 2, 7, 10, 8, 1, 4, 6, 3, 9]],
  ['sort=code:desc', [9, 3, 6, 5, 7, 4, 2, 10, 1, 8]],
  ['sort=body', [5, 1, 4, 7, 9, 10, 6, 3, 2, 8]],
  ['sort=createdAt:desc', [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]],
  ['sort=updatedAt', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
];

/** Through to-one relations, components and media: the related value, NULL when there is none. */
const NESTED: readonly IdsCase[] = [
  ['sort=group.name', [5, 7, 9, 10, 8, 1, 2, 4, 3, 6]],
  ['sort=group.name:desc', [3, 6, 4, 1, 2, 8, 5, 7, 9, 10]],
  ['sort[group][name]=desc', [3, 6, 4, 1, 2, 8, 5, 7, 9, 10]],
  ['sort[0][group][rank]=desc', [4, 1, 2, 3, 6, 5, 7, 8, 9, 10]],
  ['sort=group.name:desc,name', [3, 6, 4, 1, 2, 8, 7, 5, 9, 10]],
  ['sort=group.id:desc', [4, 8, 3, 6, 1, 2, 5, 7, 9, 10]],
  ['sort=parent.name', [1, 5, 6, 7, 8, 9, 10, 2, 3, 4]],
  ['sort=feature.name:desc', [3, 2, 1, 4, 5, 6, 7, 8, 9, 10]],
  ['sort=detail.level', [3, 4, 5, 7, 8, 9, 10, 2, 6, 1]],
  ['sort=detail.label:desc', [2, 1, 6, 3, 4, 5, 7, 8, 9, 10]],
  ['sort=detail.spec.weight', [2, 3, 4, 5, 6, 7, 8, 9, 10, 1]],
  ['sort=detail.tag.name', [3, 4, 5, 6, 7, 8, 9, 10, 1, 2]],
  ['sort=cover.name', [3, 4, 5, 6, 7, 8, 9, 10, 1, 2]],
  ['sort=cover.name:desc', [2, 1, 3, 4, 5, 6, 7, 8, 9, 10]],
  ['sort[cover][size]=asc', [3, 4, 5, 6, 7, 8, 9, 10, 2, 1]],
];

/**
 * Through to-many relations and repeatable components (D5): each entry once, placed by its
 * smallest related value ascending and its largest descending; entries without one are NULL.
 */
const TO_MANY: readonly IdsCase[] = [
  // tags: 1 [blue, red], 2 [green], 3 [red, green], 6 [blue]
  ['sort=tags.name', [4, 5, 7, 8, 9, 10, 1, 6, 2, 3]],
  ['sort=tags.name:desc', [1, 3, 2, 6, 4, 5, 7, 8, 9, 10]],
  ['sort[0]=tags.name:desc&sort[1]=name:desc', [3, 1, 2, 6, 8, 4, 10, 9, 5, 7]],
  // steps: 1 [Mix, Bake], 3 [Serve], 6 [Bake]
  ['sort=steps.title', [2, 4, 5, 7, 8, 9, 10, 1, 6, 3]],
  ['sort=steps.title:desc', [3, 1, 6, 2, 4, 5, 7, 8, 9, 10]],
  ['sort=steps.position:desc', [6, 1, 3, 2, 4, 5, 7, 8, 9, 10]],
  // photos: 1 [c.pdf, b.png], 3 [a.jpg]
  ['sort=photos.name', [2, 4, 5, 6, 7, 8, 9, 10, 3, 1]],
  ['sort=photos.name:desc', [1, 3, 2, 4, 5, 6, 7, 8, 9, 10]],
  // children: 1 [beta, Gamma 100%], 2 [delta_x]
  ['sort=children.name', [3, 4, 5, 6, 7, 8, 9, 10, 1, 2]],
  ['sort=children.name:desc', [2, 1, 3, 4, 5, 6, 7, 8, 9, 10]],
];

const REFUSED: readonly RefusedCase[] = [
  ['sort=vault.name', 'sort'],
  ['sort[vault][name]=asc', 'sort.vault'],
  ['sort=detail.vault.name', 'sort'],
  ['sort=secret', 'sort'],
  ['sort[1]=pin:desc&sort[0]=name', 'sort[1]'],
  ['sort=detail.hint', 'sort'],
  ['sort=blocks.title', 'sort'],
  ['sort=group', 'sort'],
  ['sort=cover.folderPath', 'sort'],
];

describeEachEngine('api: sort', (app) => {
  idsTable(app, 'every written form', FORMS);
  idsTable(app, 'every scalar type, NULLs first ascending and last descending', TYPES);
  idsTable(app, 'through to-one relations, components and media', NESTED);
  idsTable(app, 'through to-many relations and repeatable components: each entry once (D5)', TO_MANY);

  it('without sort, entries come in id order even when the table is stored in another order (D4)', async function () {
    const expected = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(await idsOf(app(), '/api/tags?fields=id&pagination[pageSize]=100')).to.deep.equal(expected);
  });

  it('a to-many sort keeps the count and pages over distinct entries (D5)', async function () {
    const response = await app().request.get('/api/items?fields=id&sort=tags.name&pagination[page]=3&pagination[pageSize]=3');
    expect(response.status).to.equal(200);
    const body = response.body as Envelope;
    expect(entryIds(body)).to.deep.equal([1, 6, 2]);
    expect(body.meta?.pagination).to.deep.equal({ page: 3, pageSize: 3, pageCount: 4, total: 10 });
  });

  it('sorts after filtering, and the sort field need not be selected', async function () {
    expect(await idsOf(app(), '/api/items?fields=id&filters[status]=beta&sort=amount:desc')).to.deep.equal([8, 2, 6]);
  });

  it('sorts the other types too (tags: lower case after upper case)', async function () {
    expect(await idsOf(app(), '/api/tags?fields=id&sort=name:desc&pagination[pageSize]=5')).to.deep.equal([1, 2, 3, 130, 129]);
  });

  refusedTable(app, 'refused', REFUSED);
});
