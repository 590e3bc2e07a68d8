/**
 * One read request, through the pipeline: authorize → compile → execute → format. Knows nothing
 * of HTTP or GraphQL: a door parses what it was sent into the query tree (the REST door:
 * http/rest-read.ts, from the query string) and names the plan the tree compiles to; the plan is
 * kept under that key, so a request whose plan is kept is not parsed again.
 */
import { grantsFor, type Action, type Grants, type Permissions } from './access/permissions.js';
import { writtenEntryRule } from './access/action-rules.js';
import type { CallerValues } from './query/caller-variable.js';
import { bindCallerValues } from './sql/caller-values.js';
import { estimateRequest, type Estimate } from './sql/estimate.js';
import type { Statistics } from './sql/statistics.js';
import { authorize } from './access/authorize.js';
import { ForbiddenError, NotFoundError } from './errors.js';
import { parseQuery, type QueryLimits } from './query/parse.js';
import { answerShape, type RootQuery } from './query/tree.js';
import type { Model, Registry } from './schema/registry.js';
import { compileRequest, FIND_ONE_ID_INDEX, type Statement } from './sql/compile.js';
import { PlanCache, type Plan } from './plan-cache.js';
import type { AccessRules } from './access/rules.js';
import type { ExecutionStats, Executor } from './sql/execute.js';
import { checkResponseSize } from './response-budget.js';

export interface ReadEngine {
  readonly registry: Registry;
  /** The access rules in force now; a request reads them once, at its start. */
  rules(): AccessRules;
  readonly executor: Executor;
  readonly limits: QueryLimits;
  /** Largest response body, in bytes; a larger one is a 400 naming the populate to narrow. */
  readonly maxResponseBytes: number;
  /** The data's figures, for estimating a request before it runs (none: nothing is estimated). */
  readonly statistics?: Statistics;
}

/** A body estimated at more than this many times the budget is refused without running. */
const REFUSE_OVER_BUDGET = 4;
/** How long a plan that ran over the budget is refused from that run, without running again (ms). */
const OVER_BUDGET_MEMORY_MS = 60_000;

/** Who asks, under which rules, and by when: what every request of the core carries. */
export interface CallerRequest {
  readonly role: string;
  /** Who is asking, for the variables of the role's row rules. */
  readonly caller: CallerValues;
  /** The rules the role was resolved under. */
  readonly rules: AccessRules;
  /** When the request must be answered by (epoch ms): statements still running then are stopped, 503. */
  readonly deadline: number;
}

/**
 * A request's query parameters (`fields`, `populate`, `locale`…), parsed by the door, and the key
 * its plan is kept under: equal keys must mean equal queries (the REST door: its raw query string).
 */
export interface RequestQuery {
  readonly query: Readonly<Record<string, unknown>>;
  readonly queryKey: string;
}

/** No query parameters. */
export const NO_QUERY: RequestQuery = Object.freeze({ query: Object.freeze({}), queryKey: '' });

export interface ReadRequest extends CallerRequest {
  readonly model: Model;
  readonly action: 'find' | 'findOne';
  readonly id: number | null;
  /** The plan's key for the request's query (the REST door: its raw query string); equal keys must mean equal trees. */
  readonly queryKey: string;
  /** The request's query tree (query/parse.ts), built only when no plan is kept under the key. */
  readonly tree: () => RootQuery;
}

export interface ReadResult {
  /** The JSON response body, as bytes. */
  readonly body: Buffer;
  /** The body's weak ETag, when the executor computed it (format/etag.ts). */
  readonly etag?: string;
  /** Gives lent bytes back once they have been sent (BuiltBody.release; http/send-read.ts calls it). */
  readonly release?: () => void;
  readonly stats: ExecutionStats;
}

/** The authorized query tree of a request (also what `content-api explain` compiles). */
export function planRead(permissions: Permissions, request: Pick<ReadRequest, 'model' | 'action' | 'role' | 'tree'>): RootQuery {
  const grants = grantsFor(permissions, request.role);
  // The route's permission comes first, as in Strapi: a role that may not read a type learns nothing from its 400s.
  if (!grants.can(request.model.uid, request.action)) throw new ForbiddenError();
  const tree = request.tree();
  return authorize(request.model.kind === 'singleType' ? { ...tree, pagination: singleTypeWindow(tree) } : tree, grants);
}

/**
 * A single type's read takes its filters, `_q` and sort, but no pagination (Strapi reads it with
 * findOne, or every locale's entry at once): its first entry, or with `locale=all` all of them
 * (no more than the locales).
 */
function singleTypeWindow(tree: RootQuery): RootQuery['pagination'] {
  const pageSize = answerShape(tree) === 'locales' ? Number.MAX_SAFE_INTEGER : 1;
  return { mode: 'page', page: 1, pageSize, withCount: false };
}

/** The plan of `root()` for a request, compiled once per role, route and query. */
function cachedPlan(engine: ReadEngine, request: CallerRequest & Pick<ReadRequest, 'model' | 'queryKey'>, action: string, root: () => RootQuery): Plan {
  const key = PlanCache.key(request.role, request.model.uid, action, request.queryKey);
  const cached = request.rules.plans.get(key);
  if (cached) return cached;
  const authorized = root();
  const plan = { root: authorized, compiled: compileRequest(engine.executor.dialect, authorized), figures: {} };
  request.rules.plans.set(key, plan);
  return plan;
}

/** The compiled statements of a request, from the cache when this role already asked the same (what the response cache keys and inspects). */
export function planFor(engine: ReadEngine, request: ReadRequest): Plan {
  return cachedPlan(engine, request, request.action, () => planRead(request.rules.permissions, request));
}

/** The plan's estimate, made once the data's figures are known. */
function estimateOf(engine: ReadEngine, { root, figures }: Plan): Estimate | null {
  const statistics = engine.statistics;
  if (!statistics?.ready) return null;
  if (figures.estimate === undefined || figures.generation !== statistics.generation) {
    figures.estimate = estimateRequest(root, statistics);
    figures.generation = statistics.generation;
  }
  return figures.estimate;
}

/**
 * The response budget's 400 before running: for a body estimated far over it, or for a list that
 * ran over it lately. A body near the budget runs, and the budget is checked on what it built.
 */
function refuseEarly({ root, figures }: Plan, estimate: Estimate | null, maxBytes: number): void {
  if (figures.overBudget && Date.now() - figures.overBudget.at < OVER_BUDGET_MEMORY_MS) checkResponseSize(root, figures.overBudget.bytes, maxBytes);
  if (estimate && estimate.bytes > REFUSE_OVER_BUDGET * maxBytes) checkResponseSize(root, estimate.bytes, maxBytes, true);
}

/** The statement with this request's id in place of the cached plan's, and the caller's values in place of the rules' variables. */
export function boundStatement(statement: Statement, id: number | null, caller: CallerValues): Statement {
  const bound = bindCallerValues(statement.values, caller);
  if (id === null) return bound === statement.values ? statement : { ...statement, values: bound };
  const values = [...bound];
  values[FIND_ONE_ID_INDEX] = id;
  return { ...statement, values };
}

export async function read(engine: ReadEngine, request: ReadRequest): Promise<ReadResult> {
  return execute(engine, planFor(engine, request), request);
}

/** What the answer of a write reads: the entry by id, and the query that shapes it. */
export interface WrittenRequest extends CallerRequest, RequestQuery {
  readonly model: Model;
  readonly id: number | null;
}

/**
 * The answer of a write: the entry by id, shaped by the request's `fields` and `populate` only,
 * drafts included at every depth (as Strapi's entity service answers a write). The role needs no
 * read permission on the written type itself; populated relations and media still need `find`.
 */
export async function readWritten(engine: ReadEngine, request: WrittenRequest): Promise<ReadResult> {
  const plan = cachedPlan(engine, request, 'written', () => {
    const { fields, populate } = request.query;
    const query = { ...(fields === undefined ? {} : { fields }), ...(populate === undefined ? {} : { populate }) };
    const tree = parseQuery(engine.registry, { model: request.model, action: 'findOne', id: request.id, query }, engine.limits);
    return authorizeWritten(grantsFor(request.rules.permissions, request.role), request.model, tree);
  });
  return execute(engine, plan, request);
}

/**
 * The tree of a write's answer, authorized: the written entry is answered whatever the row rules,
 * drafts included at every depth; attributes any rule of the type hides stay hidden, and
 * populated relations and media still need `find`.
 */
export function authorizeWritten(grants: Grants, model: Model, tree: RootQuery): RootQuery {
  const own = (uid: string, action: Action) => uid === model.uid && (action === 'findOne' || action === 'preview');
  const answered = writtenEntryRule(model, grants);
  const writer: Grants = {
    role: grants.role,
    can: (uid, action) => own(uid, action) || grants.can(uid, action),
    rule: (uid, action) => (own(uid, action) ? answered : grants.rule(uid, action)),
  };
  return authorize({ ...tree, publicationState: 'preview' }, writer);
}

async function execute(engine: ReadEngine, plan: Plan, request: CallerRequest & { readonly id: number | null }): Promise<ReadResult> {
  const { root, compiled, figures } = plan;
  const stats: ExecutionStats = { statements: 0, milliseconds: 0 };
  const estimate = estimateOf(engine, plan);
  refuseEarly(plan, estimate, engine.maxResponseBytes);
  const hints = { caller: request.caller.key, work: estimate?.work };
  const body = await engine.executor.body(boundStatement(compiled.body, request.id, request.caller), stats, request.deadline, engine.maxResponseBytes, hints);
  // A list's size is the same for the next identical request; an entry's depends on its id.
  if (body.size > engine.maxResponseBytes && root.action === 'find') figures.overBudget = { bytes: body.size, at: Date.now() };
  try {
    checkResponseSize(root, body.size, engine.maxResponseBytes);
    if (!body.rows && answerShape(root) === 'entry') throw new NotFoundError();
  } catch (error) {
    body.release?.();
    throw error;
  }
  return { body: body.bytes, ...(body.etag ? { etag: body.etag } : {}), ...(body.release ? { release: body.release } : {}), stats };
}
