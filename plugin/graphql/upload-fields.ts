/**
 * The media library's mutations: `upload`, `multipleUpload`, `updateFileInfo` and `removeFile`,
 * through the same media library as the REST upload routes (checks, image work, rules on files,
 * hooks). Files arrive by the GraphQL multipart request spec (multipart-request.ts) as `Upload`
 * variables. Each answer is the file read back by one statement, shaped by the field's selection.
 */
import type { FieldNode } from 'graphql';
import { grantsFor, type Action } from '../access/permissions.js';
import { WriteAccess } from '../access/write-access.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { NO_QUERY, type ReadResult } from '../read.js';
import { answeredFile } from '../upload/answered-file.js';
import type { MediaLibrary } from '../upload/media-library.js';
import type { NamedFile, UploadForm } from '../upload/upload-form.js';
import type { WriteEngine, WrittenAnswer } from '../write/write.js';
import { answerOf } from '../write/write.js';
import type { GraphqlCaller } from './request.js';
import { entryId } from './translate-query.js';

export const UPLOAD_ACTIONS: ReadonlySet<string> = new Set(['upload', 'multipleUpload', 'updateFileInfo', 'removeFile']);

/** The action on `file` each mutation needs, as Strapi's plugin scopes them. */
const NEEDS: Readonly<Record<string, Action>> = { upload: 'upload', multipleUpload: 'upload', updateFileInfo: 'upload', removeFile: 'destroy' };

export interface UploadFieldRequest {
  readonly engine: WriteEngine;
  readonly library: MediaLibrary | undefined;
  readonly action: string;
  readonly args: Record<string, unknown>;
  readonly who: GraphqlCaller;
  /** The answer of one file, shaped by the field's selection (an `UploadFileEntityResponse`). */
  readonly answer: WrittenAnswer;
  readonly nodes: readonly FieldNode[];
}

/** The JSON text of an upload mutation's answer. */
export async function answerUploadField(request: UploadFieldRequest): Promise<string> {
  const { engine, library, action, args, who } = request;
  if (!library) throw new NotFoundError('The media library is off');
  const grants = grantsFor(who.rules.permissions, who.role);
  if (!grants.can(engine.registry.file.uid, NEEDS[action])) throw new ForbiddenError();
  const access = WriteAccess.of(grants, who.caller, engine.executor.dialect);
  const hooks = library.hooks({
    state: who.hooks?.state ?? {},
    report: who.hooks?.report ?? (() => undefined),
    role: who.role,
    read: (id) => answeredFile(engine, who, id),
  });
  const shaped = async (id: number) => textOf(await answerOf(engine, { model: engine.registry.file, id, ...NO_QUERY, ...who, answer: request.answer }));
  switch (action) {
    case 'upload': {
      const file = fileOf(args.file, 'file');
      const [id] = await library.upload(access, uploadForm(args, [file]), file.folder, hooks);
      return shaped(id);
    }
    case 'multipleUpload': {
      const files = Array.isArray(args.files) ? args.files.map((file, index) => fileOf(file, `files.${index}`)) : [];
      if (!files.length) throw new ValidationError('files', 'Files are empty');
      const ids = await library.upload(access, uploadForm(args, files), files[0].folder, hooks);
      return `[${(await Promise.all(ids.map(shaped))).join(',')}]`;
    }
    case 'updateFileInfo': {
      const id = entryId(args.id);
      await library.updateInfo(access, id, uploadForm(args, []), hooks);
      return shaped(id);
    }
    default: {
      const id = entryId(args.id);
      const answered = await shaped(id);
      await library.remove(access, id, hooks);
      return answered;
    }
  }
}

/** The REST form the media library reads: the entry the files fill and their information. */
function uploadForm(args: Record<string, unknown>, files: readonly NamedFile[]): UploadForm {
  const fields = new Map<string, string[]>();
  for (const name of ['ref', 'refId', 'field']) if (args[name] !== undefined && args[name] !== null) fields.set(name, [String(args[name])]);
  if (args.info !== undefined && args.info !== null) fields.set('fileInfo', [JSON.stringify(args.info)]);
  return { fields, files: files.map((file) => ({ ...file, part: 'files' })) };
}

/** An `Upload` variable as multipart-request.ts placed it: a received file and its folder. */
export interface UploadedFile extends NamedFile {
  readonly folder: string;
}

function fileOf(value: unknown, path: string): UploadedFile {
  if (!value || typeof value !== 'object' || typeof (value as UploadedFile).folder !== 'string') {
    throw new ValidationError(path, 'Invalid Upload: send the file as a part of a multipart request (the GraphQL multipart request spec)');
  }
  return value as UploadedFile;
}

function textOf(result: ReadResult): string {
  const text = result.body.toString('utf8');
  result.release?.();
  return text;
}
