/**
 * Random operations written against the served schema (test/support/graphql-grammar.ts), sent as
 * a role with row and field rules, as the public and as an editor, over the small fixture with
 * canaries planted (support/canaries.ts) and a small response budget, on every engine. Every
 * answer is a 200 or a 400 (never a 5xx, nor a field error that hides one); an operation broken
 * on purpose is refused whole; a 200 ran one statement, holds no value the role may not see, and
 * is exactly what graphql-js executes over it (every key asked for, in order, of its type). A
 * refusal for cost names the budget; one made after running is of an answer over the budget, but
 * not far over it; operations built to be far over it are refused before they run.
 * GRAPHQL_FUZZ_COUNT sets how many random operations per engine (300 by default),
 * GRAPHQL_FUZZ_SEED another sequence of them.
 */
import { expect } from 'chai';
import { execute, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import type { Response } from 'supertest';
import { depthLimitRule } from '../../plugin/graphql/depth-limit.js';
import { generateGraphQL } from '../../plugin/graphql/schema/schema.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { graphqlGrammar, hostileGrammar, type GeneratedOperation } from '../support/graphql-grammar.js';
import { quickly } from '../support/quick-request.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { forbiddenFor, PERMISSIONS, plantCanaries, visibleTo, type Planted, type Role } from './support/canaries.js';

const OPERATIONS = Number(process.env.GRAPHQL_FUZZ_COUNT ?? 300);
/** Another seed explores other operations; a failure names its operation's index for this seed. */
const SEED = Number(process.env.GRAPHQL_FUZZ_SEED ?? 20261201);
const DEPTH_LIMIT = 10;
/** Small enough that a few operations in a hundred are over it on the small fixture (their 99th percentile is about 3 KB). */
const MAX_RESPONSE_BYTES = 2_000;
/**
 * An answer this many times the budget is far over it, and must be refused before it runs. The
 * door runs an operation estimated under 4 times the budget and checks what it built (as REST
 * does, read.ts), and the estimate may be several times under the answer (a populate with filters
 * is taken to keep a quarter of its links): over 40,000 random operations, the largest answer run
 * then refused was 10 times the budget.
 */
const FAR_OVER = 32;
/** Operations built to be far over the budget, per engine. */
const HOSTILE = Math.max(20, Math.round(OPERATIONS / 50));
/**
 * Without filters, an estimate is within a factor of two of the answer (test/execution/estimate.test.ts),
 * so an answer this many times the budget is estimated over 4 times it, and refused unrun.
 */
const UNFILTERED_FAR_OVER = 2 * 4;
/** The codes of a request refused whole; Apollo Server 3 codes a subscription's refusal INTERNAL_SERVER_ERROR, with a 400. */
const REQUEST_ERRORS = ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST'];
const SUBSCRIPTION_ERRORS = ['BAD_REQUEST', 'INTERNAL_SERVER_ERROR'];
/** Broken in a way graphql-js's validation does not see: the door refuses them after it. */
const VALID_DOCUMENTS = [null, 'mistyped variable', 'subscription'];
/**
 * What a root field of a valid operation may fail with: a bad argument, a refusal, or an API error
 * of the client's making as Strapi codes it (`STRAPI_PAGINATION_ERROR`, `STRAPI_NOT_FOUND_ERROR`);
 * never an internal error or a server's unavailability.
 */
const FIELD_ERROR = /^(BAD_USER_INPUT|FORBIDDEN|STRAPI_(?!SERVICE_UNAVAILABLE)[A-Z_]+_ERROR)$/;

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** The answer, its body read as text: a body that is not JSON fails the operation that got it, not the client. */
function send(served: ServedApi, operation: GeneratedOperation, role: Role, byGet: boolean): Promise<Response> {
  const { query, variables, operationName } = operation;
  const request = byGet
    ? served.request.get('/graphql').query({ query, variables: JSON.stringify(variables), ...(operationName ? { operationName } : {}) })
    : served.request.post('/graphql').send({ query, variables, ...(operationName ? { operationName } : {}) });
  const asText = request.buffer(true).parse((response, done) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => done(null, text));
  });
  return role === 'public' ? asText : asText.set('x-test-role', role);
}

function jsonOf(response: Response, label: string): GraphqlBody {
  try {
    return JSON.parse(response.body as string) as GraphqlBody;
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message}) for ${label}: ${String(response.body).slice(0, 1000)}`);
  }
}

/** graphql-js executing the operation over the answer itself: the answer must come back unchanged. */
async function reexecuted(schema: GraphQLSchema, operation: GeneratedOperation, data: Record<string, unknown>): Promise<unknown> {
  const result = await execute({
    schema,
    document: parse(operation.query),
    rootValue: data,
    variableValues: operation.variables,
    operationName: operation.operationName,
    fieldResolver: (source, _args, _context, info) => (source as Record<string, unknown> | null)?.[info.path.key as string],
    // A zone item whose selection was skipped whole has no __typename: any member shapes it alike.
    typeResolver: (value, _context, _info, union) => (value as { __typename?: string }).__typename ?? schema.getPossibleTypes(union)[0].name,
  });
  return result.data;
}

/** Waits until the data's figures are gathered: then an operation far over the budget is refused unrun. */
async function figuresGathered(served: ServedApi): Promise<void> {
  const huge = `{ articles(locale: "all", pagination: { limit: 100 }, publicationState: PREVIEW) { data { attributes { title description content
    categories(pagination: { limit: 100 }) { data { attributes { name relatedArticles(pagination: { limit: 100 }, publicationState: PREVIEW) { data { attributes { title description content slug metadata } } } } } }
    gallery(pagination: { limit: 100 }) { data { attributes { name url formats mime hash } } } } } } }`;
  for (let tries = 0; tries < 100; tries += 1) {
    const response = await served.request.post('/graphql').send({ query: huge }).set('x-test-role', 'editor');
    if (/would be about/.test(response.body.errors?.[0]?.message ?? '')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the data figures were never gathered');
}

for (const kind of testDatabaseKinds()) {
  describe(`random GraphQL operations from the served schema (${kind.name})`, function () {
    this.timeout(120_000);
    let fixture: FreshFixture;
    let served: ServedApi;
    /** The same API with the default budget: what a refused operation would have answered. */
    let unbudgeted: ServedApi;
    let planted: Planted;
    let preferredRoots: string[];
    let schema: GraphQLSchema;
    before(async () => {
      const registry = await loadSchema(repoRoot);
      fixture = await freshFixture(kind.client, PERMISSIONS, (file) => {
        planted = plantCanaries(file, registry);
      });
      const options = { root: fixture.root, database: fixture.url, sync: false, maxResponseBytes: MAX_RESPONSE_BYTES, resolveRole: (ctx: { get(name: string): string }) => ctx.get('x-test-role') || null };
      served = await serveApi({ ...options, graphql: { depthLimit: DEPTH_LIMIT } });
      unbudgeted = await serveApi({ ...options, maxResponseBytes: undefined, graphql: { depthLimit: DEPTH_LIMIT } });
      const generated = generateGraphQL(served.api.registry);
      schema = generated.schema;
      preferredRoots = [...generated.targets.queries].filter(([, target]) => !generated.targets.outsideRegistry.has(target.uid) && target.action.startsWith('find')).map(([name]) => name);
      await figuresGathered(served);
    });
    after(async () => {
      await served?.close();
      await unbudgeted?.close();
      await fixture?.drop();
    });

    it('planted what it says: each role sees the canaries it may see', async () => {
      for (const role of ['public', 'member', 'editor'] as const) {
        // Only the editor may preview: the others read the published entries.
        const state = role === 'editor' ? ', publicationState: PREVIEW' : '';
        const everything = `{ articles(locale: "all"${state}, pagination: { limit: 100 }) { data { attributes { title description content } } }
          restaurants(pagination: { limit: 100 }) { data { attributes { name description } } } categories(pagination: { limit: 100 }) { data { attributes { description } } }
          usersPermissionsUsers(pagination: { limit: 100 }) { data { attributes { username } } } usersPermissionsRoles { data { attributes { name } } } }`;
        const response = await send(unbudgeted, { query: everything, variables: {}, invalid: null }, role, false);
        expect(response.status, String(response.body).slice(0, 300)).to.equal(200);
        for (const canary of visibleTo(role, planted)) expect(String(response.body), `${role} sees ${canary}`).to.include(canary);
      }
    });

    it(`answers ${OPERATIONS} operations without a server error, a leaked value, or a body far over the budget run before its refusal`, async function () {
      this.timeout(Math.max(120_000, OPERATIONS * 200));
      const next = graphqlGrammar(schema, SEED, { depthLimit: DEPTH_LIMIT, preferredRoots });
      const tally = new Map<string, number>();
      const sizes = { largestRun: 0, smallestUnrun: Infinity };
      for (let index = 0; index < OPERATIONS; index += 1) {
        const role = (['member', 'public', 'member', 'editor'] as const)[index % 4];
        const outcome = await checkOperation({ served, unbudgeted, schema, planted }, next(), role, index, sizes);
        tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
      }
      console.log(`      ${kind.name}: largest answer run then refused ${sizes.largestRun.toFixed(1)} budgets, smallest refused unrun ${sizes.smallestUnrun.toFixed(1)}`);
      console.log(`      ${kind.name}: ${[...tally].sort((a, b) => b[1] - a[1]).map(([key, value]) => `${key}: ${value}`).join(' · ')}`);
      // The grammar reaches the database often, and the budget now and then.
      expect(tally.get('200 clean') ?? 0).to.be.greaterThan(OPERATIONS / 5);
      if (OPERATIONS >= 300) expect([...tally.keys()].some((key) => key.startsWith('refused for cost'))).to.equal(true);
    });

    it(`refuses ${HOSTILE} operations built to be far over the budget before they run`, async function () {
      this.timeout(Math.max(120_000, HOSTILE * 3_000));
      const next = hostileGrammar(schema, SEED, { depthLimit: DEPTH_LIMIT, preferredRoots });
      let far = 0;
      for (let index = 0; index < HOSTILE; index += 1) {
        const operation = next();
        const label = `hostile #${index}: ${operation.query}`;
        const full = await send(unbudgeted, operation, 'editor', false);
        expect(full.status, label).to.equal(200);
        if (Buffer.byteLength(String(full.body)) <= UNFILTERED_FAR_OVER * MAX_RESPONSE_BYTES) continue;
        far += 1;
        const refused = jsonOf(await send(served, operation, 'editor', false), label);
        expect(refused.errors?.[0]?.message, label).to.match(/^The response would be about /);
      }
      expect(far, 'operations far over the budget').to.be.greaterThan(HOSTILE / 2);
    });
  });
}

interface FuzzContext {
  readonly served: ServedApi;
  readonly unbudgeted: ServedApi;
  readonly schema: GraphQLSchema;
  readonly planted: Planted;
}

/** Sends one operation and checks its answer; returns what it was answered, for the tally. */
async function checkOperation(context: FuzzContext, operation: GeneratedOperation, role: Role, index: number, sizes: { largestRun: number; smallestUnrun: number }): Promise<string> {
  const label = `#${index} as ${role}: ${operation.query.slice(0, 1500)} ${JSON.stringify(operation.variables).slice(0, 500)}`;
  const locally = safeValidate(context.schema, operation.query);
  expect(locally.length === 0, `the grammar's own check (${operation.invalid ?? 'valid'}): ${locally.join('; ')} in ${label}`).to.equal(VALID_DOCUMENTS.includes(operation.invalid));
  const response = await quickly(label, () => send(context.served, operation, role, !operation.invalid && index % 10 === 9));
  const body = jsonOf(response, label);
  const codes = (body.errors ?? []).map((error) => error.extensions?.code ?? 'none');
  expect([200, 400], `${response.status} for ${label}: ${String(response.body).slice(0, 500)}`).to.include(response.status);
  if (operation.invalid) {
    expect(response.status, `${operation.invalid}: ${label}`).to.equal(400);
    expect(operation.invalid === 'subscription' ? SUBSCRIPTION_ERRORS : REQUEST_ERRORS, `${operation.invalid}: ${label}`).to.include(codes[0]);
    return `refused as ${operation.invalid}`;
  }
  if (response.status === 400) {
    const { ran, budgets } = await refusedForCost(context.unbudgeted, operation, role, response, label);
    if (ran) sizes.largestRun = Math.max(sizes.largestRun, budgets);
    else sizes.smallestUnrun = Math.min(sizes.smallestUnrun, budgets);
    return `refused for cost ${ran ? 'after running' : budgets > 1 ? 'before running' : 'before running, the answer within the budget'}`;
  }
  expect(/statements=(\d+)/.exec(response.headers['server-timing'] ?? '')?.[1], `statements for ${label}`).to.equal('1');
  for (const code of codes) expect(code, `${code} in ${label}: ${String(response.body).slice(0, 500)}`).to.match(FIELD_ERROR);
  const text = JSON.stringify(body);
  for (const canary of forbiddenFor(role, JSON.stringify(operation), context.planted)) expect(text.includes(canary), `${canary} shown to ${role} by ${label}`).to.equal(false);
  expect(JSON.stringify(await reexecuted(context.schema, operation, body.data!)), `the shape of ${label}`).to.equal(JSON.stringify(body.data));
  return `200 ${[...new Set(codes)].sort().join(',') || 'clean'}`;
}

/**
 * A 400 to a valid operation is a refusal for cost: decided before running (its message says
 * "about", as the REST door words an estimate), or after running a body the estimate put under
 * four times the budget. Either way the body, as the same operation served with the default
 * budget shows, is over the budget: no answer that fits is refused. Returns that body's size in
 * budgets, and whether it ran.
 */
async function refusedForCost(unbudgeted: ServedApi, operation: GeneratedOperation, role: Role, response: Response, label: string): Promise<{ ran: boolean; budgets: number }> {
  const message = jsonOf(response, label).errors?.[0]?.message ?? '';
  expect(message, `${label}: ${String(response.body).slice(0, 300)}`).to.match(/^The response would be (about )?\d+\.\d MB, above the limit/);
  const full = await send(unbudgeted, operation, role, false);
  expect(full.status, label).to.equal(200);
  const budgets = Buffer.byteLength(String(full.body)) / MAX_RESPONSE_BYTES;
  const ran = !message.startsWith('The response would be about');
  if (ran) expect(budgets, `an answer within the budget refused: ${label}`).to.be.above(1);
  if (ran) expect(budgets, `an answer far over the budget run before its refusal: ${label}`).to.be.at.most(FAR_OVER);
  return { ran, budgets };
}

function safeValidate(schema: GraphQLSchema, query: string): string[] {
  try {
    return validate(schema, parse(query), [...specifiedRules, depthLimitRule(DEPTH_LIMIT)]).map((error) => error.message);
  } catch (error) {
    return [(error as Error).message];
  }
}
