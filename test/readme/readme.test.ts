/**
 * The README's tour (and the examples of the docs/ pages it links to): every request of their
 * `http` blocks runs against the example app with its demo data, on each engine, and answers the status the README shows (200 unless a `# → NNN`
 * line follows it) — with data, so that the examples show something.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemoData } from '../../plugin/seed/seed.js';
import { parsePermissions } from '../../plugin/access/permissions.js';
import { tokenHash } from '../../plugin/access/tokens.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { generateTypes } from '../../plugin/codegen/types.js';
import ts from 'typescript';
import { createTestApi } from '../../plugin/testing/index.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';

interface TourRequest {
  path: string;
  status: number;
}

/** The `GET` lines of the README's ```http blocks, each with the status shown after it. */
export function tourRequests(readme: string): TourRequest[] {
  const requests: TourRequest[] = [];
  for (const block of readme.matchAll(/```http\n([\s\S]*?)```/g)) {
    for (const line of block[1].split('\n')) {
      const request = /^GET (\S+)$/.exec(line.trim());
      const status = /^# → (\d{3})$/.exec(line.trim());
      if (request) requests.push({ path: request[1], status: 200 });
      else if (status && requests.length) requests[requests.length - 1].status = Number(status[1]);
    }
  }
  return requests;
}

/** A `curl` command of the README against the example app (http://127.0.0.1:1337). */
export interface CurlRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | null;
}

/** The README's `curl` lines against the example app, with their `-X`, `-H` and `-d` (single-quoted words, one line each). */
export function curlRequests(readme: string): CurlRequest[] {
  const requests: CurlRequest[] = [];
  for (const [line] of readme.matchAll(/^curl .*$/gm)) {
    const words = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2]!);
    const request: CurlRequest = { method: 'GET', path: '', headers: {}, body: null };
    for (let index = 1; index < words.length; index++) {
      const word = words[index]!;
      if (word === '-X') request.method = words[++index]!;
      else if (word === '-H') {
        const [name, ...value] = words[++index]!.split(':');
        request.headers[name!.trim()] = value.join(':').trim();
      } else if (word === '-d') request.body = words[++index]!;
      else if (word.startsWith('http://127.0.0.1:1337/')) request.path = word.slice('http://127.0.0.1:1337'.length);
    }
    if (request.path) requests.push(request);
  }
  return requests;
}

/** The README and the pages it links to under docs/, whose examples run against the same app. */
const readme = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((file) => file.endsWith('.md')).map((file) => join('docs', file))]
  .map((file) => readFileSync(join(repoRoot, file), 'utf8'))
  .join('\n');
const requests = tourRequests(readme);
const curls = curlRequests(readme);

describe('README tour', () => {
  it('has at least 20 requests', () => {
    expect(requests.length).to.be.at.least(20);
  });

  it('has curl commands for the quick start and the health routes', () => {
    expect(curls.map((curl) => curl.path)).to.include.members(['/_health', '/_ready']);
    expect(curls.filter((curl) => curl.method === 'POST')).to.have.length.at.least(1);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`README tour on the seeded example app (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi;
    before(async function () {
      this.timeout(120_000);
      database = await createTestDatabase(kind.client);
      served = await serveApi({ root: repoRoot, database: database.url });
      await seedDemoData(served.api.knex, served.api.registry);
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    // In the README's order: a write, then the read that finds it.
    for (const { method, path, headers, body } of curls) {
      it(`curl ${method} ${path} → 200`, async () => {
        let request = served.request[method.toLowerCase() as 'get' | 'post'](path);
        for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
        const response = await (body === null ? request : request.send(body));
        expect(response.status, response.text.slice(0, 300)).to.equal(200);
        if (path.includes('filters')) expect(response.body.data, 'the read finds what the write wrote').to.have.length.above(0);
        if (method === 'POST') expect(response.body.data.id).to.be.a('number');
      });
    }

    for (const { path, status } of requests) {
      it(`GET ${path} → ${status}`, async () => {
        const response = await served.request.get(path);
        expect(response.status, response.text.slice(0, 300)).to.equal(status);
        if (status === 200) {
          const { data } = response.body;
          expect(Array.isArray(data) ? data.length : data ? 1 : 0, 'the example shows data').to.be.greaterThan(0);
        } else {
          expect(response.body).to.have.nested.property('error.status', status);
        }
      });
    }
  });
}

/** The blocks of `language` in the README section headed `## <title>`, in order. */
function sectionBlocks(markdown: string, title: string, language: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${title}\n`)) ?? '';
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

describe("README's Install section", () => {
  it('its content type and permissions make an app that answers, with the Koa code it shows', async function () {
    this.timeout(60_000);
    const own = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const [contentType, permissions] = sectionBlocks(own, 'Install', 'yaml');
    const [koaCode] = sectionBlocks(own, 'Install', 'ts');
    expect(contentType).to.match(/\$schema=\.\.\/node_modules\/koa-content-api\/plugin\/schema\/content-type\.schema\.json/);
    expect(koaCode).to.include("app.use(api.routes());");
    const root = mkdtempSync(join(tmpdir(), 'readme-install-'));
    try {
      mkdirSync(join(root, 'content-types'));
      writeFileSync(join(root, 'content-types', 'recipe.yaml'), contentType!);
      writeFileSync(join(root, 'permissions.yaml'), permissions!);
      // As the README writes it: a file in a folder the app does not have yet.
      const served = await serveApi({ root, database: `sqlite:${join(root, '.data', 'content.db')}` });
      try {
        const response = await served.request.get('/api/recipes');
        expect(response.status, response.text).to.equal(200);
        expect(response.body).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
      } finally {
        await served.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("README's other examples", () => {
  const own = readFileSync(join(repoRoot, 'README.md'), 'utf8');

  it('the permissions example is a valid permissions file of the example app', async () => {
    const [example] = sectionBlocks(own, 'Permissions and API tokens', 'yaml');
    const registry = await loadSchema(repoRoot);
    const permissions = parsePermissions(example!.replace('"sha256:…"', `"${tokenHash('example-token', 'readme-example-salt')}"`), 'permissions.yaml', registry);
    expect(permissions).to.be.an('object');
  });

  it("the testing kit's data file loads into the recipes example app", async function () {
    this.timeout(60_000);
    const [data] = sectionBlocks(own, 'Testing your schema', 'yaml');
    const dir = mkdtempSync(join(tmpdir(), 'readme-data-'));
    try {
      writeFileSync(join(dir, 'data.yaml'), data!);
      const api = await createTestApi({ root: join(repoRoot, 'examples', 'recipes'), data: join(dir, 'data.yaml') });
      try {
        const response = await api.request.get('/api/recipes?populate=chef&locale=all&publicationState=live');
        expect(response.status, response.text).to.equal(200);
        expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.have.members(['Tomato soup', 'Soupe à la tomate']);
      } finally {
        await api.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("README's TypeScript blocks", () => {
  it('type-check against the package, strict, beside the types `content-api types` writes for the example app', async function () {
    this.timeout(60_000);
    const own = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const blocks = [...own.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(blocks.length).to.be.at.least(4);
    // Inside the repository: 'koa-content-api' resolves to the package itself (by its exports), koa and chai to its node_modules.
    mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(repoRoot, '.tmp', 'readme-ts-'));
    try {
      writeFileSync(join(dir, 'api.ts'), generateTypes(await loadSchema(repoRoot)));
      const files = blocks.map((block, index) => {
        const file = join(dir, `block-${index + 1}.ts`);
        writeFileSync(file, `${block}\nexport {};\n`);
        return file;
      });
      const program = ts.createProgram(files, {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ['node', 'mocha'],
      });
      const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
      expect(errors).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("README's shape, for a user of the package", () => {
  const own = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const sections = [...own.matchAll(/^## (.+)$/gm)].map((match) => match[1]);

  it('starts with the install in an existing Koa app, then schema files, permissions, the Koa options, the tour and writes', () => {
    expect(sections.slice(0, 6)).to.deep.equal(['Install', 'Schema files', 'Permissions and API tokens', 'In your Koa app', 'A tour of the query language', 'Writes']);
    expect(sectionBlocks(own, 'Install', 'sh')[0]).to.match(/^npm install koa-content-api koa\n/);
  });

  it('stays under 500 lines, and every page it links to under docs/ exists and ships in the package', () => {
    expect(own.split('\n').length).to.be.below(500);
    const files = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] }).files;
    expect(files).to.include('docs');
    for (const [, page] of own.matchAll(/\]\((docs\/[^)#]+)/g)) expect(existsSync(join(repoRoot, page!)), page).to.equal(true);
  });
});
