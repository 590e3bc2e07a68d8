/**
 * Strapi 4.26's upload routes under the API prefix: `POST /upload` (new files; `?id=N` replaces a
 * file or updates its information), `GET /upload/files` (Strapi's bare array, with `filters`,
 * `sort`, `fields` and `pagination`), `GET` and `DELETE /upload/files/:id`. The caller needs the
 * action on `file` — `upload`, `find`, `findOne`, `destroy` — before anything is read. Files are
 * answered as Strapi answers them: the attributes flattened beside the id, no envelope.
 */
import { rm } from 'node:fs/promises';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { grantsFor, type Action } from '../access/permissions.js';
import { WriteAccess } from '../access/write-access.js';
import { resolveCaller } from './caller.js';
import type { CallerValues } from '../query/caller-variable.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { read } from '../read.js';
import type { RouterOptions } from './router.js';
import { parseEntryId } from '../query/entry-id.js';
import type { WriteEngine } from '../write/write.js';
import { answeredFile, flatten, takeBody, type Entry, type FileReader } from '../upload/answered-file.js';
import type { FileHookRequest } from '../upload/file-hooks.js';
import { hookRequest } from './hook-request.js';
import { hasNoFiles, type MediaLibrary } from '../upload/media-library.js';
import { receiveForm } from './multipart.js';
import { makeReceivingFolder } from '../upload/receiving-folder.js';
import { restRead } from './rest-read.js';

/** Strapi lists every file when no pagination is asked for; this many at most. */
export const FILE_LIST_LIMIT = 10_000;

interface Caller {
  readonly role: string;
  /** Who is asking, for the variables of the role's row rules on files. */
  readonly caller: CallerValues;
  readonly rules: ReturnType<WriteEngine['rules']>;
  readonly deadline: number;
  /** What the caller may change. */
  readonly access: WriteAccess;
}

export function addUploadRoutes(router: Router, engine: WriteEngine, library: MediaLibrary, options: RouterOptions): void {
  const caller = async (ctx: Context, action: Action): Promise<Caller> => {
    const deadline = Date.now() + options.timeout;
    const rules = engine.rules();
    const resolved = await resolveCaller(ctx, rules.tokens, options.resolveRole, options.now());
    const { role } = resolved;
    if (!grantsFor(rules.permissions, role).can(engine.registry.file.uid, action)) throw new ForbiddenError();
    const values = { ...resolved, now: options.now() };
    return { role, caller: values, rules, deadline, access: WriteAccess.of(grantsFor(rules.permissions, role), values, engine.executor.dialect) };
  };
  router.post('/upload', async (ctx) => {
    const who = await caller(ctx, 'upload');
    const id = uploadId(ctx.query.id);
    const hooks = library.hooks(fileHookRequest(ctx, engine, options, who));
    const folder = await makeReceivingFolder();
    try {
      const form = await receiveForm(ctx, library.settings, folder);
      let ids: number[];
      if (hasNoFiles(form)) {
        if (id === null) throw new ValidationError('', 'Files are empty');
        await library.updateInfo(who.access, id, form, hooks);
        ids = [id];
      } else if (id !== null) {
        await library.replace(who.access, id, form, folder, hooks);
        ids = [id];
      } else {
        ids = await library.upload(who.access, form, folder, hooks);
      }
      // The answer's reads get their own time budget, counted once the files are in.
      const answering = { ...who, deadline: Date.now() + options.timeout };
      const files = await Promise.all(ids.map((fileId) => answeredFile(engine, answering, fileId)));
      sendJson(ctx, id === null ? files : files[0]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
  router.get('/upload/files', async (ctx) => {
    const who = await caller(ctx, 'find');
    // Strapi answers every file; its pagination parameters are honoured here (docs/uploads.md).
    const listEngine = { ...engine, limits: { ...engine.limits, defaultLimit: FILE_LIST_LIMIT, maxLimit: FILE_LIST_LIMIT, withCount: false } };
    const result = await read(listEngine, { ...restRead(listEngine, engine.registry.file, 'find', null, ctx.querystring), ...who });
    sendJson(ctx, (takeBody(result).data as Entry[]).map(flatten));
  });
  router.get('/upload/files/:id', async (ctx) => {
    const who = await caller(ctx, 'findOne');
    const id = fileId(ctx.params.id);
    try {
      const result = await read(engine, { ...restRead(engine, engine.registry.file, 'findOne', id, ctx.querystring), ...who });
      sendJson(ctx, flatten(takeBody(result).data as Entry));
    } catch (error) {
      throw error instanceof NotFoundError ? new NotFoundError('file.notFound') : error;
    }
  });
  router.delete('/upload/files/:id', async (ctx) => {
    const who = await caller(ctx, 'destroy');
    const id = fileId(ctx.params.id);
    const answer = await answeredFile(engine, who, id).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new NotFoundError('file.notFound') : error;
    });
    await library.remove(who.access, id, library.hooks(fileHookRequest(ctx, engine, options, who)));
    sendJson(ctx, answer);
  });
}

/** The file hooks' side of a request: its role and state, where failures after commit go, and its files read as answered (each read with a time budget of its own). */
export function fileHookRequest(ctx: Context, engine: WriteEngine, options: RouterOptions, who: FileReader): FileHookRequest {
  return { ...hookRequest(ctx, options), role: who.role, read: (id) => answeredFile(engine, { ...who, deadline: Date.now() + options.timeout }, id) };
}

/** `:id` of the files routes: anything but a positive integer names no file (Strapi's 404). */
function fileId(raw: string | undefined): number {
  return parseEntryId(raw, 'file.notFound');
}

/** `?id=` of the upload route: a file to replace, or none. */
function uploadId(raw: unknown): number | null {
  if (raw === undefined || raw === '') return null;
  return parseEntryId(typeof raw === 'string' ? raw : undefined, 'Entity not found');
}

function sendJson(ctx: Context, body: unknown): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}
