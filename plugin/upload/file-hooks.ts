/**
 * The lifecycle hooks of files (`lifecycles: { 'plugin::upload.file': … }`, and `'*'`) and the
 * `media.*` events of `api.events`, around the media library's writes, as around an entry's:
 * `before*` hooks run in the write's transaction and may change the file's information (`name`,
 * `alternativeText`, `caption`), which is checked again; `after*` hooks and the events run once
 * it committed, with the file as the upload routes answer it. One FileHooks serves one request.
 */
import { ValidationError } from '../errors.js';
import type { Model } from '../schema/registry.js';
import type { FileFacts, HookRequest, LifecycleAction, LifecycleEvent, Lifecycles } from '../write/lifecycles.js';
import { isValidFilename } from './file-name.js';
import type { FileInfo } from './file-info.js';
import type { PreparedFile } from './prepare-file.js';
import type { RowStore } from '../write/row-store.js';
import { kilobytes } from './store-objects.js';

type FileAction = Extract<LifecycleAction, 'create' | 'update' | 'delete'>;

/** A file's information as the hooks see it, and as it is then written. */
export interface HookedInfo {
  name?: string | null;
  alternativeText?: string | null;
  caption?: string | null;
}

export interface FileHookRequest extends HookRequest {
  readonly role: string;
  /** The file as the upload routes answer it (`{ id, name, …, url }`), read from the primary. */
  readonly read: (id: number) => Promise<Record<string, unknown>>;
}

interface Written {
  readonly action: FileAction;
  readonly id: number;
  readonly entry?: unknown;
}

export class FileHooks {
  /** The transaction attempt the writes were counted in: a write run again after a conflict counts its last run only. */
  private attempt: RowStore | null = null;
  private written: Written[] = [];

  private constructor(
    private readonly lifecycles: Lifecycles,
    private readonly model: Model,
    private readonly request: FileHookRequest,
  ) {}

  /** The hooks of a request's file writes; null when no hook and no listener hears of them (nothing to read or run). */
  static of(lifecycles: Lifecycles, model: Model, request: FileHookRequest): FileHooks | null {
    return lifecycles.heard(model) ? new FileHooks(lifecycles, model, request) : null;
  }

  /** `beforeCreate` of a new file: its information as the hooks leave it. */
  beforeCreate(file: PreparedFile, info: FileInfo | undefined): Promise<HookedInfo> {
    const data = { name: file.name, alternativeText: info?.alternativeText ?? null, caption: info?.caption ?? null };
    return this.before('create', data, { file: factsOf(file) });
  }

  /** `beforeUpdate` of a file's new information, or of its replacement (`file`: the new content). */
  beforeUpdate(id: number, data: HookedInfo, file?: PreparedFile): Promise<HookedInfo> {
    return this.before('update', data, { id, ...(file ? { file: factsOf(file) } : {}) });
  }

  /** The file as answered: read before a transaction holds the database's connection. */
  answered(id: number): Promise<Record<string, unknown>> {
    return this.request.read(id);
  }

  /** `beforeDelete` in the transaction of `store`, with the file as it was answered before it goes (`answered`). */
  async beforeDelete(store: RowStore, id: number, entry: Record<string, unknown>): Promise<void> {
    await this.lifecycles.before(this.model, this.event('delete', { id, entry }));
    this.count(store, { action: 'delete', id, entry });
  }

  /** Counts a write in the transaction of `store`, for the after hooks once it commits. */
  wrote(store: RowStore, action: Exclude<FileAction, 'delete'>, id: number): void {
    this.count(store, { action, id });
  }

  private count(store: RowStore, write: Written): void {
    if (store !== this.attempt) {
      this.attempt = store;
      this.written = [];
    }
    this.written.push(write);
  }

  /** The `after*` hooks and the events of every write counted, in order; each failure is reported, none fails the request. */
  async afterCommit(): Promise<void> {
    const writes = this.written;
    this.written = [];
    this.attempt = null;
    for (const { action, id, entry } of writes) {
      let answered = entry;
      try {
        answered ??= await this.request.read(id);
      } catch (error) {
        this.request.report(error);
        continue;
      }
      await this.lifecycles.after(this.model, this.event(action, { id, entry: answered }), this.request);
    }
  }

  private async before(action: FileAction, data: HookedInfo, rest: Partial<LifecycleEvent>): Promise<HookedInfo> {
    const event = this.event(action, { ...rest, data: { ...data } });
    await this.lifecycles.before(this.model, event);
    return checkHookedInfo(event.data ?? {});
  }

  private event(action: FileAction, rest: Partial<LifecycleEvent>): LifecycleEvent {
    return this.lifecycles.event(this.model, action, this.request.role, this.request, rest);
  }
}

function factsOf(file: PreparedFile): FileFacts {
  return { mime: file.mime, ext: file.ext, size: kilobytes(file.bytes), width: file.width, height: file.height };
}

/** The information a hook left: a name the file system takes, texts or null; other keys are not the hook's to set. */
function checkHookedInfo(data: Record<string, unknown>): HookedInfo {
  const checked: HookedInfo = {};
  for (const [key, value] of Object.entries(data)) {
    if (key !== 'name' && key !== 'alternativeText' && key !== 'caption') throw new ValidationError(key, `a file's ${key} is set by its content, not by a hook: only name, alternativeText and caption may change`);
    if (value !== null && value !== undefined && typeof value !== 'string') throw new ValidationError(key, `${key} must be a string or null`);
    // As a sent name is taken: in its composed Unicode form (file-name.ts).
    checked[key] = key === 'name' && typeof value === 'string' ? value.normalize() : (value as string | null | undefined);
  }
  if (checked.name !== undefined && (checked.name === null || !isValidFilename(checked.name))) throw new ValidationError('name', 'File name contains invalid characters');
  return checked;
}
