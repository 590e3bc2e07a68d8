/**
 * Lifecycle hooks and host events of the API's writes. `before*` hooks run inside the write's
 * transaction, after the body is checked: they may change `event.data` (checked again) or throw
 * (nothing is written). `after*` hooks and the `entry.*` events run once the write has committed:
 * their failures are reported, never turned into the write's failure, since the write is done.
 * Writes made through `api.models` bypass all of this: they are the host's own statements.
 */
import { EventEmitter } from 'node:events';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FILE_UID, type Model, type Registry } from '../schema/registry.js';

export type LifecycleAction = 'create' | 'update' | 'delete' | 'publish' | 'unpublish';
export type LifecycleHookName = `${'before' | 'after'}${Capitalize<LifecycleAction>}`;

/**
 * The request's `ctx.state`, as a hook reads it. What a host's own login middleware puts there is
 * its own: it says so by merging into this interface, and hooks then read it typed:
 *
 *   declare module 'koa-content-api' {
 *     interface LifecycleState { user?: { id: number; editor?: boolean } }
 *   }
 */
export interface LifecycleState {
  [key: string]: unknown;
}

export interface LifecycleEvent {
  readonly action: LifecycleAction;
  readonly model: { readonly uid: string; readonly singularName: string; readonly pluralName: string | null };
  /** `before*` but `beforeDelete`: the body's `data` as received, after its checks; a hook may change it. */
  data?: Record<string, unknown>;
  /** The entry's id (an update, a delete, and every `after*`). */
  readonly id?: number;
  /** `after*` (and `beforeDelete`): the entry as the write's answer gives it (its `data`; a file as the upload routes answer it). */
  readonly entry?: unknown;
  /** A file's `beforeCreate`, and `beforeUpdate` of a replacement: what its content is. */
  readonly file?: FileFacts;
  /** The caller's role. */
  readonly role: string;
  /** The request's `ctx.state`. */
  readonly state: LifecycleState;
}

/** The event of `beforeCreate`, `beforeUpdate`, `beforePublish` and `beforeUnpublish`: the data to write is always there. */
export interface LifecycleDataEvent extends LifecycleEvent {
  data: Record<string, unknown>;
}

/** The event of `beforeDelete` and of every `after*` hook: the entry's id and the entry as answered are always there. */
export interface LifecycleEntryEvent extends LifecycleEvent {
  readonly id: number;
  readonly entry: unknown;
}

export type LifecycleHook<Event extends LifecycleEvent = LifecycleEvent> = (event: Event) => unknown;

/** A type's hooks, each given the event its action always has. */
export interface LifecycleHooks {
  beforeCreate?: LifecycleHook<LifecycleDataEvent>;
  beforeUpdate?: LifecycleHook<LifecycleDataEvent>;
  beforePublish?: LifecycleHook<LifecycleDataEvent>;
  beforeUnpublish?: LifecycleHook<LifecycleDataEvent>;
  beforeDelete?: LifecycleHook<LifecycleEntryEvent>;
  afterCreate?: LifecycleHook<LifecycleEntryEvent>;
  afterUpdate?: LifecycleHook<LifecycleEntryEvent>;
  afterPublish?: LifecycleHook<LifecycleEntryEvent>;
  afterUnpublish?: LifecycleHook<LifecycleEntryEvent>;
  afterDelete?: LifecycleHook<LifecycleEntryEvent>;
}
/** Per content type uid (files: `plugin::upload.file`), and `'*'` for every type, files included. */
export type LifecycleOption = Readonly<Record<string, LifecycleHooks>>;

/** The content of a file being uploaded, as it will be stored: for the hooks of `plugin::upload.file`. */
export interface FileFacts {
  readonly mime: string;
  readonly ext: string;
  /** In kB, as the row keeps it. */
  readonly size: number;
  /** Null when the file is not an image. */
  readonly width: number | null;
  readonly height: number | null;
}

/** What `api.events` listeners of a file's write receive (`media.create`, …), as Strapi's webhook payload. */
export interface MediaEvent {
  readonly event: `media.${'create' | 'update' | 'delete'}`;
  readonly media: unknown;
  readonly createdAt: string;
}

/** What `api.events` listeners receive, as Strapi's webhook payload. */
export interface EntryEvent {
  readonly event: `entry.${LifecycleAction}`;
  readonly uid: string;
  readonly model: string;
  readonly entry: unknown;
  readonly createdAt: string;
}

/** The request's side of the hooks: its state, and where a failure after commit is reported. */
export interface HookRequest {
  readonly state: Record<string, unknown>;
  readonly report: (error: unknown) => void;
}

export class Lifecycles {
  readonly events = new EventEmitter();

  /** `modules`: the hooks of `content-types/<name>.lifecycles.js` files, by uid (loadLifecycleModules). */
  constructor(
    private readonly hooks: LifecycleOption = {},
    private readonly modules: ReadonlyMap<string, LifecycleHooks> = new Map(),
  ) {}

  /** Whether any hook is set for the type: a write without hooks copies and checks nothing more. */
  hooked(model: Model): boolean {
    return Boolean(this.hooks['*'] || this.hooks[model.uid] || this.modules.has(model.uid));
  }

  /** Whether a hook or a listener hears of the type's writes (a file's: `media.*` listeners). */
  heard(model: Model): boolean {
    const prefix = model.uid === FILE_UID ? 'media.' : 'entry.';
    return this.hooked(model) || this.events.eventNames().some((name) => typeof name === 'string' && name.startsWith(prefix) && this.events.listenerCount(name) > 0);
  }

  /** Those for every type first, then the type's module's, then the option's. */
  private hooksOf(model: Model, name: LifecycleHookName): LifecycleHook[] {
    // Each hook is called with the event of its own name, which has what its type promises.
    const hooks: unknown[] = [this.hooks['*']?.[name], this.modules.get(model.uid)?.[name], this.hooks[model.uid]?.[name]];
    return hooks.filter((hook): hook is LifecycleHook => typeof hook === 'function');
  }

  event(model: Model, action: LifecycleAction, role: string, request: HookRequest | undefined, rest: Partial<LifecycleEvent> = {}): LifecycleEvent {
    return { action, model: { uid: model.uid, singularName: model.singularName, pluralName: model.pluralName }, role, state: (request?.state ?? {}) as LifecycleState, ...rest };
  }

  /** Runs the `before*` hooks of the event: a throw goes to the write, which rolls back. */
  async before(model: Model, event: LifecycleEvent): Promise<void> {
    for (const hook of this.hooksOf(model, `before${capitalize(event.action)}`)) await hook(event);
  }

  /** Runs the `after*` hooks, then tells the listeners; each failure is reported on its own. */
  async after(model: Model, event: LifecycleEvent, request: HookRequest | undefined): Promise<void> {
    const report = request?.report ?? reportToStderr;
    for (const hook of this.hooksOf(model, `after${capitalize(event.action)}`)) {
      try {
        await hook(event);
      } catch (error) {
        report(error);
      }
    }
    const [name, payload] = this.payload(model, event);
    // Each listener on its own: one that throws does not keep the others from hearing of the write.
    for (const listener of this.events.listeners(name)) {
      try {
        await (listener as (payload: EntryEvent | MediaEvent) => unknown)(payload);
      } catch (error) {
        report(error);
      }
    }
  }

  /** The event's name and payload for `api.events`: `media.*` for a file (as Strapi's webhooks name them), `entry.*` for an entry. */
  private payload(model: Model, event: LifecycleEvent): [string, EntryEvent | MediaEvent] {
    const createdAt = new Date().toISOString();
    if (model.uid === FILE_UID) {
      const name = `media.${event.action as 'create' | 'update' | 'delete'}` as const;
      return [name, { event: name, media: event.entry, createdAt }];
    }
    const name = `entry.${event.action}` as const;
    return [name, { event: name, uid: model.uid, model: model.singularName, entry: event.entry, createdAt }];
  }
}

/** Where a failure after commit goes when nothing else is given. */
export function reportToStderr(error: unknown): void {
  process.stderr.write(`lifecycle hook failed: ${String(error)}\n`);
}

function capitalize<T extends string>(text: T): Capitalize<T> {
  return (text.charAt(0).toUpperCase() + text.slice(1)) as Capitalize<T>;
}

/** The `data` of a write's answer. */
export function answeredEntry(body: Buffer): unknown {
  return (JSON.parse(body.toString('utf8')) as { data?: unknown }).data ?? null;
}

const HOOK_NAMES: ReadonlySet<string> = new Set(
  ['create', 'update', 'delete', 'publish', 'unpublish'].flatMap((action) => [`before${capitalize(action)}`, `after${capitalize(action)}`]),
);

/** The extensions of a lifecycles module, in the order they are looked for. */
const MODULE_EXTENSIONS = ['.js', '.mjs', '.ts', '.mts', '.cts'];
const TYPESCRIPT = /\.[mc]?ts$/;

/** A type's lifecycles module beside its YAML file. */
export interface LifecycleModuleFile {
  readonly uid: string;
  /** Joined to the schema folder. */
  readonly file: string;
}

/**
 * The `content-types/<name>.lifecycles.<ext>` of each type: js or mjs, or ts, mts or cts (which
 * import when the process can import TypeScript). Two for one type is an error: which would run is a guess.
 */
export async function findLifecycleModules(root: string, registry: Registry): Promise<LifecycleModuleFile[]> {
  const files: LifecycleModuleFile[] = [];
  for (const model of registry.contentTypes) {
    if (!model.source) continue;
    const stem = model.source.file.replace(/\.ya?ml$/, '');
    const found: string[] = [];
    for (const extension of MODULE_EXTENSIONS) {
      const file = join(root, `${stem}.lifecycles${extension}`);
      if (await exists(file)) found.push(file);
    }
    if (found.length > 1) throw new Error(`${found.join(' and ')}: one lifecycles module per content type`);
    if (found.length) files.push({ uid: model.uid, file: found[0] });
  }
  return files;
}

/**
 * Imports one lifecycles module: its default export, else its named exports, are the hooks. A
 * name that is not a hook is an error, so that a misspelt `beforeCreat` does not go silently
 * unrun. A TypeScript module is imported as any other, which works when the process can import
 * TypeScript (Node's type stripping, or a loader such as tsx); otherwise the error says what to do.
 */
export async function importLifecycleModule(file: string): Promise<LifecycleHooks> {
  let module: { default?: unknown } & Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as typeof module;
  } catch (error) {
    if (TYPESCRIPT.test(file) && (error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new Error(
        `${file}: this Node (${process.version}) cannot import TypeScript; run the app under a TypeScript loader (tsx app.ts, or node --import tsx), on a Node that strips types (22.18 or later), or compile it to ${file.replace(TYPESCRIPT, '.js')}`,
      );
    }
    throw error;
  }
  const hooks = (module.default ?? module) as Record<string, unknown>;
  if (hooks === null || typeof hooks !== 'object') throw new Error(`${file}: export the hooks (beforeCreate, afterUpdate, …) or an object of them`);
  for (const [name, hook] of Object.entries(hooks)) {
    if (name === 'default' && hooks === module) continue;
    if (!HOOK_NAMES.has(name)) throw new Error(`${file}: ${name} is not a lifecycle hook; expected one of ${[...HOOK_NAMES].join(', ')}`);
    if (typeof hook !== 'function') throw new Error(`${file}: ${name} is not a function`);
  }
  return hooks as LifecycleHooks;
}

/** The hooks of every type's lifecycles module, imported once at start, by uid. */
export async function loadLifecycleModules(root: string, registry: Registry): Promise<Map<string, LifecycleHooks>> {
  const loaded = new Map<string, LifecycleHooks>();
  for (const { uid, file } of await findLifecycleModules(root, registry)) loaded.set(uid, await importLifecycleModule(file));
  return loaded;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
