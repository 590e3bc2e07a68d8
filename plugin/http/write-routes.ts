/**
 * The write routes, Strapi v4's: `POST /<plural>`, `PUT` and `DELETE /<plural>/:id`,
 * `POST /<plural>/:id/localizations` for localized types, and `PUT`/`DELETE /<singular>` (and
 * `POST /<singular>/localizations`) for single types. The caller's permission is checked before
 * the body is read: a role that may not write learns nothing from a 400.
 * The localizations routes are the app's own types' only (hasLocalizationsRoute).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Action, Grants } from '../access/permissions.js';
import { resolveCaller } from './caller.js';
import { NotFoundError } from '../errors.js';
import type { ReadResult } from '../read.js';
import type { Model } from '../schema/registry.js';
import { createLocalization, hasLocalizationsRoute } from '../write/localizations.js';
import { deleteSingleType, localizeSingleType, putSingleType } from '../write/single-type.js';
import { createEntry, deleteEntry, grantsToWrite, updateEntry, type WriteEngine, type WriteRequest } from '../write/write.js';
import { parseEntryId } from '../query/entry-id.js';
import { readJsonBody } from './read-body.js';
import { sendRead } from './send-read.js';
import type { RouterOptions } from './router.js';
import { receiveEntryFiles } from './entry-files.js';
import { fileHookRequest } from './upload-routes.js';
import { hookRequest } from './hook-request.js';
import { restQuery } from './rest-read.js';

type Run = (request: WriteRequest, grants: Grants) => Promise<ReadResult | Buffer>;

export function addWriteRoutes(router: Router, engine: WriteEngine, options: RouterOptions): void {
  const route = (model: Model, action: Action, withBody: boolean | 'bare', run: Run) => (ctx: Context) => handleWrite(ctx, engine, options, model, action, withBody, run);
  for (const [segment, model] of engine.registry.routes) {
    if (model.kind === 'singleType') {
      router.put(`/${segment}`, route(model, 'update', true, (request, grants) => putSingleType(engine, request, grants)));
      router.delete(`/${segment}`, route(model, 'delete', false, (request) => deleteSingleType(engine, request)));
      if (hasLocalizationsRoute(model)) router.post(`/${segment}/localizations`, route(model, 'create', 'bare', (request, grants) => localizeSingleType(engine, request, grants)));
      continue;
    }
    router.post(`/${segment}`, route(model, 'create', true, (request, grants) => createEntry(engine, request, grants)));
    router.put(`/${segment}/:id`, route(model, 'update', true, (request, grants) => updateEntry(engine, withId(request), grants)));
    router.delete(`/${segment}/:id`, route(model, 'delete', false, (request) => deleteEntry(engine, withId(request))));
    if (hasLocalizationsRoute(model)) {
      router.post(`/${segment}/:id/localizations`, route(model, 'create', 'bare', (request, grants) => createLocalization(engine, withId(request), grants)));
    }
  }
}

function withId(request: WriteRequest): WriteRequest & { readonly id: number } {
  if (request.id === null) throw new NotFoundError();
  return request as WriteRequest & { readonly id: number };
}


/** `withBody`: `'bare'` for the localization routes, whose JSON body is the data itself (a multipart `data` part becomes the body). */
async function handleWrite(ctx: Context, engine: WriteEngine, options: RouterOptions, model: Model, action: Action, withBody: boolean | 'bare', run: Run): Promise<void> {
  const deadline = Date.now() + options.timeout;
  const rules = engine.rules();
  const caller = await resolveCaller(ctx, rules.tokens, options.resolveRole, options.now());
  const { role } = caller;
  const grants = grantsToWrite({ rules, role, model }, action);
  const id = ctx.params.id === undefined ? null : parseEntryId(ctx.params.id);
  const entryFiles = withBody && options.upload ? await receiveEntryFiles(ctx, options.upload, model) : null;
  const body = entryFiles ? (withBody === 'bare' ? entryFiles.body.data : entryFiles.body) : withBody ? await readJsonBody(ctx, options.maxBodyBytes) : undefined;
  const hooks = hookRequest(ctx, options);
  // Receiving and storing an entry's files does not use up the time budget of its write.
  const request = { model, id, ...restQuery(ctx.querystring), role, caller: { ...caller, now: options.now() }, rules, deadline, body, hooks };
  const result = entryFiles
    ? await entryFiles.write((alsoWrite) => run({ ...request, deadline: Date.now() + options.timeout, alsoWrite, alsoWritten: entryFiles.attributes }, grants), fileHookRequest(ctx, engine, options, request))
    : await run(request, grants);
  engine.statistics?.written();
  ctx.set('Cache-Control', 'no-store');
  if (Buffer.isBuffer(result)) {
    ctx.type = 'application/json';
    ctx.body = result;
  } else {
    sendRead(ctx, result);
  }
}
