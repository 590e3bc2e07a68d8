/**
 * `serve --watch`: the API rebuilt from the schema files after each edit and swapped in whole.
 * A request runs on the API that was current when it arrived; a replaced API is closed once its
 * last request has ended. An edit that does not load (or does not sync) keeps the running API,
 * and its problems are reported with file, line and column.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import compose from 'koa-compose';
import type { Context, Middleware, Next } from 'koa';
import { contentApi, type ContentApi, type ContentApiOptions } from '../index.js';
import { watchSchema, type SchemaWatcher } from './schema-watcher.js';

interface Generation {
  readonly api: ContentApi;
  readonly middleware: Middleware;
  inFlight: number;
  retired: boolean;
}

export interface LiveApiEvents {
  /** A new schema is being served. */
  reloaded(api: ContentApi): void;
  /** An edit did not load; the running schema stays. */
  failed(error: unknown): void;
}

export interface LiveApi {
  /** The routes and method errors of whichever API is current. */
  readonly middleware: Middleware;
  /** The API serving new requests. */
  current(): ContentApi;
  /** Rebuilds now (the watcher calls this after each edit); settles when done, whether it loaded or not. */
  reload(): Promise<void>;
  /** Stops watching and closes the current API (after its requests end). */
  close(): Promise<void>;
}

function generation(api: ContentApi): Generation {
  return { api, middleware: compose([api.routes(), api.allowedMethods()]), inFlight: 0, retired: false };
}

/** Closes a replaced API once it serves nothing more. */
function retire(old: Generation, closed: Set<Promise<void>>): void {
  old.retired = true;
  if (old.inFlight > 0) return;
  const closing = old.api.close().finally(() => closed.delete(closing));
  closed.add(closing);
}

export async function liveApi(options: ContentApiOptions & { root: string }, events: LiveApiEvents): Promise<LiveApi> {
  // The whole API is rebuilt on any edit, permissions included: its own watcher would check a
  // permissions edit against the old schema.
  // An API started closed without permissions.yaml stays so across edits; once the file exists,
  // deleting it is a mistake the running API survives, as under contentApi's own watcher.
  const permissionsFile = options.permissionsFile ?? join(options.root, 'permissions.yaml');
  let allowMissingPermissions = options.allowMissingPermissions === true;
  const build = async () => {
    const api = await contentApi({ ...options, watchPermissions: false, allowMissingPermissions });
    if (existsSync(permissionsFile)) allowMissingPermissions = false;
    return api;
  };
  let active = generation(await build());
  const closing = new Set<Promise<void>>();
  let running: Promise<void> | null = null;
  let again = false;

  const rebuild = async (): Promise<void> => {
    do {
      again = false;
      try {
        const next = generation(await build());
        const old = active;
        active = next;
        retire(old, closing);
        events.reloaded(next.api);
      } catch (error) {
        events.failed(error);
      }
    } while (again);
  };
  const reload = (): Promise<void> => {
    // One rebuild at a time; edits made during one are picked up by one more.
    if (running) {
      again = true;
      return running;
    }
    running = rebuild().finally(() => (running = null));
    return running;
  };

  const watcher: SchemaWatcher = watchSchema(options.root, () => void reload());
  const middleware: Middleware = async (ctx: Context, next: Next) => {
    const serving = active;
    serving.inFlight += 1;
    try {
      await serving.middleware(ctx, next);
    } finally {
      serving.inFlight -= 1;
      if (serving.retired && serving.inFlight === 0) retire(serving, closing);
    }
  };
  return {
    middleware,
    current: () => active.api,
    reload,
    async close() {
      watcher.close();
      await running;
      retire(active, closing);
      await Promise.all(closing);
    },
  };
}
