/**
 * The `graphql` option: Strapi's GraphQL plugin settings, with its keys and defaults, turned into
 * the door's service (the generated schema and what its fields read) and its Koa middleware.
 */
import type { Middleware } from 'koa';
import type { RoleResolver } from '../http/caller.js';
import type { WriteEngine } from '../write/write.js';
import type { EndUsers } from '../auth/end-users.js';
import type { MediaLibrary } from '../upload/media-library.js';
import type { CachedReads } from '../cache/cached-read.js';
import { MAX_POPULATE_DEPTH } from '../query/parse-populate.js';
import { generateGraphQL } from './schema/schema.js';
import type { GraphQLTargets } from './schema/targets.js';
import type { QueryTargets } from './execute-query.js';
import { graphqlRoutes } from './routes.js';
import type { Registry } from '../schema/registry.js';
import { FOLDER_UID, LOCALE_UID } from './schema/models.js';
import type { ListedEntry, ListedTarget } from './listed-field.js';
import { LOCALE_MODEL, withStockContent } from './stock-content.js';
import { DocumentCache, type GraphqlService } from './request.js';

export interface GraphqlOptions {
  /** Where the API answers (Strapi's default `/graphql`). */
  endpoint?: string;
  /** Strapi's `shadowCRUD`: false serves no type of the content (default true). */
  shadowCRUD?: boolean;
  /** Deepest selection (default 10; Strapi sets none). */
  depthLimit?: number;
  /** Page size of a list, and of a nested list, when none is asked for (Strapi's default 10). */
  defaultLimit?: number;
  /** Largest page size (default -1: none, as Strapi's; the response budget still bounds what a list costs). */
  maxLimit?: number;
  /** Most entries any list of an answer holds, root or nested (Strapi's docs: the items a response returns); default none. */
  amountLimit?: number;
  /** Most operations in one batched request (default 10). */
  batchLimit?: number;
  /** Whether introspection is answered (default: unless NODE_ENV is production, as Apollo Server decides). */
  introspection?: boolean;
}

export interface GraphqlDoorSettings {
  readonly resolveRole?: RoleResolver;
  readonly now: () => number;
  readonly timeout: number;
  readonly maxBodyBytes: number;
  readonly serverTiming: boolean;
  /** Where a lifecycle hook's failure after commit goes (default: the app's 'error' event). */
  readonly reportHookError?: (error: unknown) => void;
  /** End users (the `users` option): their login tokens are read, and `login`, `register` and `me` answered. */
  readonly users?: EndUsers;
  /** The media library (the `upload` option), for the upload mutations. */
  readonly upload?: MediaLibrary;
  /** The response cache (the `cache` option): query operations' answers are kept in it too. */
  readonly cache?: CachedReads;
  /** Whether the database has Strapi's upload folder tables (else `uploadFolders` lists none). */
  readonly folders: boolean;
}

export function graphqlMiddleware(engine: WriteEngine, option: GraphqlOptions | true, settings: GraphqlDoorSettings): Middleware {
  const options = option === true ? {} : option;
  const { schema, targets } = generateGraphQL(engine.registry, { shadowCRUD: options.shadowCRUD });
  const bound = (limit: number | undefined) => (limit === undefined || limit < 0 ? Number.MAX_SAFE_INTEGER : limit);
  const maxLimit = Math.min(bound(options.maxLimit), bound(options.amountLimit));
  const registry = withStockContent(engine.registry, settings.folders);
  const service: GraphqlService = {
    engine,
    registry,
    schema,
    targets: queryTargets(registry, targets),
    listed: listedTargets(engine, targets, settings.folders),
    componentTypeName: componentTypeNames(targets),
    mutations: targets.mutations,
    ...(settings.users ? { users: settings.users } : {}),
    ...(settings.upload ? { library: settings.upload } : {}),
    ...(settings.cache ? { cache: settings.cache } : {}),
    limits: { ...engine.limits, defaultLimit: options.defaultLimit ?? 10, maxLimit, withCount: true },
    depthLimit: options.depthLimit ?? MAX_POPULATE_DEPTH,
    introspection: options.introspection ?? process.env.NODE_ENV !== 'production',
    documents: new DocumentCache(1000),
  };
  return graphqlRoutes(service, { endpoint: options.endpoint ?? '/graphql', maxBatch: options.batchLimit ?? 10, ...settings });
}

/** The content a Query field reads: lists and entries of the registry's types (single types: their entry), and of the upload folders. */
function queryTargets(registry: Registry, targets: GraphQLTargets): QueryTargets {
  return (name) => {
    const target = targets.queries.get(name);
    const model = target && registry.models.get(target.uid);
    if (!target || !model || (target.action !== 'find' && target.action !== 'findOne')) return null;
    return { model, action: target.single ? 'find' : target.action };
  };
}

/**
 * The Query fields answered from entries in memory: the i18n locales, listed to a role granted
 * `find` on them (Strapi's listLocales scopes both fields), and the upload folders of a database
 * without their tables (none).
 */
function listedTargets(engine: WriteEngine, targets: GraphQLTargets, folders: boolean): (name: string) => ListedTarget | null {
  const locales = async (): Promise<ListedEntry[]> =>
    (await engine.localeEntries()).map(({ id, name, code, createdAt, updatedAt }) => ({ id, attributes: { name, code, createdAt, updatedAt } }));
  const folderModel = withStockContent(engine.registry, true).models.get(FOLDER_UID)!;
  return (name) => {
    const target = targets.queries.get(name);
    if (target?.action !== 'find' && target?.action !== 'findOne') return null;
    if (target.uid === LOCALE_UID) return { model: LOCALE_MODEL, action: target.action, grant: 'find', entries: locales };
    if (target.uid === FOLDER_UID && !folders) return { model: folderModel, action: target.action, grant: target.action, entries: async () => [] };
    return null;
  };
}

function componentTypeNames(targets: GraphQLTargets): (uid: string) => string {
  const names = new Map<string, string>();
  for (const [name, target] of targets.types) if (target.kind === 'component') names.set(target.uid, name);
  return (uid) => {
    const name = names.get(uid);
    if (!name) throw new Error(`no GraphQL type for the component ${uid}`);
    return name;
  };
}
