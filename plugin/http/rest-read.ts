/**
 * The REST door's side of a read or a write: its query string, parsed with the plugin's strict
 * options (query-string.ts) into the query the core takes, and into the read's tree. The raw query
 * string keys the plan, so a request whose plan is kept is not parsed again.
 */
import type { Permissions } from '../access/permissions.js';
import { parseQuery, type QueryLimits } from '../query/parse.js';
import type { RootQuery } from '../query/tree.js';
import { planRead, type ReadRequest, type RequestQuery } from '../read.js';
import type { Model, Registry } from '../schema/registry.js';
import { parseQueryString } from './query-string.js';

interface Parsing {
  readonly registry: Registry;
  readonly limits: QueryLimits;
}

/** A write's query (its answer's `fields` and `populate`, its `locale`…), parsed now. */
export function restQuery(querystring: string): RequestQuery {
  return { query: parseQueryString(querystring), queryKey: querystring };
}

/** A read of `model` as the query string asks for it; the tree is built only when no plan is kept. */
export function restRead(engine: Parsing, model: Model, action: 'find' | 'findOne', id: number | null, querystring: string): Pick<ReadRequest, 'model' | 'action' | 'id' | 'queryKey' | 'tree'> {
  return { model, action, id, queryKey: querystring, tree: () => parseQuery(engine.registry, { model, action, id, query: parseQueryString(querystring) }, engine.limits) };
}

/** The authorized tree of a REST read (what `content-api explain` and the explorer compile). */
export function planRestRead(
  engine: Parsing & { readonly permissions: Permissions },
  request: { readonly model: Model; readonly action: 'find' | 'findOne'; readonly id: number | null; readonly querystring: string; readonly role: string },
): RootQuery {
  return planRead(engine.permissions, { ...restRead(engine, request.model, request.action, request.id, request.querystring), role: request.role });
}
