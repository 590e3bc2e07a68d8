/**
 * The GraphQL door over the conformance fixture, on every engine: an operation of several root
 * fields is one statement and answers the same data as REST; aliases load one relation twice with
 * their own arguments; roles, row rules and field rules hold as on REST; request errors are 400s
 * before anything runs; mutations go through the write pipeline with GraphQL's own meaning.
 */
import { expect } from 'chai';
import { tokenHash } from '../../plugin/access/tokens.js';
import { serveApi, serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';

const MEMBER_TOKEN = 'member-token-for-the-graphql-suite';
const EDITOR_TOKEN = 'editor-token-for-the-graphql-suite';

const PERMISSIONS = `
roles:
  public:
    article: [find, findOne]
    category: [find, findOne]
    file: [find]
  member:
    article:
      find: { where: { featured: true }, fields: { except: [content] } }
    category: [find]
  editor:
    article: [find, findOne, preview, create, update, delete]
    category: [find, findOne, create, update, delete]
    file: [find, findOne, upload, destroy]
tokens:
  - { name: member, role: member, hash: "${tokenHash(MEMBER_TOKEN, 'graphql-suite-salt-1')}" }
  - { name: editor, role: editor, hash: "${tokenHash(EDITOR_TOKEN, 'graphql-suite-salt-2')}" }
`;

interface Answer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions: { code: string } }[] };
  statements: number | null;
}

async function ask(served: ServedApi, query: string, options: { token?: string; variables?: Record<string, unknown>; method?: 'GET' | 'POST' } = {}): Promise<Answer> {
  const request =
    options.method === 'GET'
      ? served.request.get('/graphql').query({ query, ...(options.variables ? { variables: JSON.stringify(options.variables) } : {}) })
      : served.request.post('/graphql').send({ query, variables: options.variables });
  const response = await (options.token ? request.set('Authorization', `Bearer ${options.token}`) : request);
  const timing = /statements=(\d+)/.exec(response.headers['server-timing'] ?? '');
  return { status: response.status, body: response.body, statements: timing ? Number(timing[1]) : null };
}

for (const kind of testDatabaseKinds()) {
  describe(`GraphQL door (${kind.name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let served: ServedApi;
    let rest: ServedApi;
    before(async () => {
      fixture = await freshFixture(kind.client, PERMISSIONS);
      served = await serveApi({ root: fixture.root, database: fixture.url, sync: false, graphql: true });
      rest = await serveFixture(kind.client);
    });
    after(async () => {
      await served?.close();
      await rest?.close();
      await fixture?.drop();
    });

    it('answers an operation of several root fields with one statement, the same data as REST', async () => {
      const answer = await ask(
        served,
        `{ articles(sort: ["title:desc"], pagination: { pageSize: 3 }) { data { id attributes { title category { data { id attributes { name } } } } } meta { pagination { total pageCount } } }
           categories(pagination: { pageSize: 2 }) { data { id } }
           article(id: "2") { data { attributes { slug } } } }`,
      );
      expect(answer.status).to.equal(200);
      expect(answer.statements).to.equal(1);
      const restList = (await rest.request.get('/api/articles?sort=title:desc&pagination[pageSize]=3&fields[0]=title&populate[category][fields][0]=name')).body;
      const data = answer.body.data as { articles: { data: unknown[]; meta: { pagination: { total: number } } } };
      expect(data.articles.data).to.deep.equal(
        restList.data.map((entry: { id: number; attributes: { title: string; category: { data: { id: number; attributes: unknown } | null } } }) => ({
          id: String(entry.id),
          attributes: {
            title: entry.attributes.title,
            category: { data: entry.attributes.category.data && { id: String(entry.attributes.category.data.id), attributes: entry.attributes.category.data.attributes } },
          },
        })),
      );
      expect(data.articles.meta.pagination.total).to.equal(restList.meta.pagination.total);
      expect(answer.body.data).to.have.nested.property('article.data.attributes.slug').that.is.a('string');
    });

    it('loads one relation twice under two aliases, each with its own arguments', async () => {
      const answer = await ask(
        served,
        `{ categories(pagination: { pageSize: 5 }) { data { id attributes {
             first: articles(sort: ["id:asc"], pagination: { limit: 1 }) { data { id } }
             last: articles(sort: ["id:desc"], pagination: { limit: 1 }) { data { id } } } } } }`,
      );
      expect(answer.statements).to.equal(1);
      const categories = (answer.body.data as { categories: { data: { attributes: { first: { data: { id: string }[] }; last: { data: { id: string }[] } } }[] } }).categories.data;
      const withTwo = categories.filter((category) => category.attributes.first.data.length && category.attributes.first.data[0].id !== category.attributes.last.data[0].id);
      expect(withTwo.length).to.be.greaterThan(0);
      for (const category of withTwo) expect(Number(category.attributes.first.data[0].id)).to.be.lessThan(Number(category.attributes.last.data[0].id));
    });

    it('expands fragments, obeys @include and @skip, and answers __typename', async () => {
      const answer = await ask(
        served,
        `query Q($withMeta: Boolean!) { __typename articles(pagination: { pageSize: 1 }) { __typename data { ...Entry } meta @include(if: $withMeta) { pagination { page } } } }
         fragment Entry on ArticleEntity { __typename id attributes { title @skip(if: true) slug } }`,
        { variables: { withMeta: false } },
      );
      expect(answer.body).to.deep.nested.include({ 'data.__typename': 'Query', 'data.articles.__typename': 'ArticleEntityResponseCollection' });
      const entry = (answer.body.data as { articles: { data: Record<string, unknown>[] } }).articles.data[0];
      expect(Object.keys(entry)).to.deep.equal(['__typename', 'id', 'attributes']);
      expect(Object.keys(entry.attributes as object)).to.deep.equal(['slug']);
      expect(answer.body.data!.articles).to.not.have.property('meta');
    });

    it('applies row and field rules as REST does, and refuses a type the role may not read', async () => {
      const answer = await ask(served, '{ articles(pagination: { pageSize: 100 }) { data { attributes { featured content } } } restaurants { data { id } } }', { token: MEMBER_TOKEN });
      expect(answer.status).to.equal(200);
      const articles = (answer.body.data as { articles: { data: { attributes: { featured: boolean; content: unknown } }[] } }).articles.data;
      expect(articles.length).to.be.greaterThan(0);
      expect(articles.every((article) => article.attributes.featured === true && article.attributes.content === null)).to.equal(true);
      expect(answer.body.data!.restaurants).to.equal(null);
      expect(answer.body.errors!.map((error) => error.extensions.code)).to.deep.equal(['FORBIDDEN']);
    });

    it('refuses malformed and invalid operations with a 400 before anything runs', async () => {
      const parse = await ask(served, '{ articles { data { id }');
      expect([parse.status, parse.body.errors![0].extensions.code]).to.deep.equal([400, 'GRAPHQL_PARSE_FAILED']);
      const invalid = await ask(served, '{ articles { data { nope } } }');
      expect([invalid.status, invalid.body.errors![0].extensions.code]).to.deep.equal([400, 'GRAPHQL_VALIDATION_FAILED']);
      const deep = await ask(served, `{ categories { data { attributes { ${'parent { data { attributes { '.repeat(12)}name${' } } }'.repeat(12)} } } } }`);
      expect([deep.status, deep.body.errors![0].message]).to.deep.equal([400, 'the operation exceeds maximum operation depth of 10']);
      const byGet = await ask(served, 'mutation { deleteArticle(id: "1") { data { id } } }', { method: 'GET', token: EDITOR_TOKEN });
      expect(byGet.status).to.equal(405);
    });

    it('answers a bad argument as Strapi does: the field null with BAD_USER_INPUT, the other fields answered', async () => {
      const answer = await ask(served, '{ articles(sort: ["nope:asc"]) { data { id } } categories(pagination: { pageSize: 1 }) { data { id } } }');
      expect(answer.status).to.equal(200);
      expect(answer.body.data!.articles).to.equal(null);
      expect(answer.body.data!.categories).to.deep.equal({ data: [{ id: '1' }] });
      expect(answer.body.errors![0].extensions.code).to.equal('BAD_USER_INPUT');
    });

    it('creates a draft unless publishedAt is given, sets relations from ids, and answers a missing entry with data: null', async () => {
      const created = await ask(
        served,
        'mutation { createArticle(data: { title: "From GraphQL", slug: "from-graphql", categories: ["1", "2"] }) { data { id attributes { publishedAt categories { data { id } } } } } }',
        { token: EDITOR_TOKEN },
      );
      expect(created.body.errors).to.equal(undefined);
      expect(created.body.data).to.deep.nested.include({ 'createArticle.data.attributes.publishedAt': null });
      expect(created.body.data).to.have.deep.nested.property('createArticle.data.attributes.categories.data', [{ id: '1' }, { id: '2' }]);
      const id = (created.body.data as { createArticle: { data: { id: string } } }).createArticle.data.id;
      const updated = await ask(served, `mutation { updateArticle(id: "${id}", data: { categories: ["3"] }) { data { attributes { categories { data { id } } } } } missing: updateArticle(id: "999999", data: { title: "x" }) { data { id } } }`, { token: EDITOR_TOKEN });
      expect(updated.body.data).to.deep.equal({ updateArticle: { data: { attributes: { categories: { data: [{ id: '3' }] } } } }, missing: { data: null } });
      const forbidden = await ask(served, 'mutation { deleteArticle(id: "1") { data { id } } }', { token: MEMBER_TOKEN });
      expect(forbidden.body.errors![0].extensions.code).to.equal('FORBIDDEN');
      const deleted = await ask(served, `mutation { deleteArticle(id: "${id}") { data { id } } }`, { token: EDITOR_TOKEN });
      expect(deleted.body.data).to.deep.equal({ deleteArticle: { data: { id } } });
      expect((await ask(served, `{ article(id: "${id}") { data { id } } }`)).body.data).to.deep.equal({ article: { data: null } });
    });

    it('uploads files by the multipart request spec, attached to an entry, and removes them', async () => {
      const query = 'mutation($files: [Upload]!) { multipleUpload(files: $files, ref: "api::article.article", refId: "2", field: "gallery") { data { id attributes { name mime } } } }';
      const response = await served.request
        .post('/graphql')
        .set('Authorization', `Bearer ${EDITOR_TOKEN}`)
        .field('operations', JSON.stringify({ query, variables: { files: [null, null] } }))
        .field('map', JSON.stringify({ 0: ['variables.files.0'], 1: ['variables.files.1'] }))
        .attach('0', Buffer.from('first file'), 'first.txt')
        .attach('1', Buffer.from('second file'), 'second.txt');
      expect(response.status).to.equal(200);
      const uploaded = (response.body.data.multipleUpload as { data: { id: string; attributes: { name: string; mime: string } } }[]).map((file) => file.data);
      expect(uploaded.map((file) => file.attributes)).to.deep.equal([{ name: 'first.txt', mime: 'text/plain' }, { name: 'second.txt', mime: 'text/plain' }]);
      const gallery = await ask(served, '{ article(id: "2") { data { attributes { gallery(pagination: { limit: 100 }) { data { id } } } } } }');
      const ids = (gallery.body.data as { article: { data: { attributes: { gallery: { data: { id: string }[] } } } } }).article.data.attributes.gallery.data.map((file) => file.id);
      expect(ids).to.include.members(uploaded.map((file) => file.id));
      const removed = await ask(served, `mutation { removeFile(id: "${uploaded[0].id}") { data { id } } }`, { token: EDITOR_TOKEN });
      expect(removed.body.data).to.deep.equal({ removeFile: { data: { id: uploaded[0].id } } });
      const refused = await ask(served, `mutation { removeFile(id: "${uploaded[1].id}") { data { id } } }`, { token: MEMBER_TOKEN });
      expect(refused.body.errors![0].extensions.code).to.equal('FORBIDDEN');
    });

    it('serves a page to a browser, and introspection only where it is on', async () => {
      const page = await served.request.get('/graphql').set('Accept', 'text/html');
      expect([page.status, page.type]).to.deep.equal([200, 'text/html']);
      expect((await ask(served, '{ __schema { queryType { name } } }')).body.data).to.deep.equal({ __schema: { queryType: { name: 'Query' } } });
      const closed = await serveApi({ root: fixture.root, database: fixture.url, sync: false, graphql: { introspection: false } });
      try {
        const refused = await ask(closed, '{ __schema { queryType { name } } }');
        expect([refused.status, refused.body.errors![0].extensions.code]).to.deep.equal([400, 'GRAPHQL_VALIDATION_FAILED']);
        expect((await closed.request.get('/graphql').set('Accept', 'text/html')).status).to.equal(400);
      } finally {
        await closed.close();
      }
    });

    it('answers a batch of operations in one array', async () => {
      const response = await served.request.post('/graphql').send([{ query: '{ categories(pagination: { pageSize: 1 }) { data { id } } }' }, { query: '{ __typename }' }]);
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal([{ data: { categories: { data: [{ id: '1' }] } } }, { data: { __typename: 'Query' } }]);
    });
  });
}
