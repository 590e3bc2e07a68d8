/**
 * webhooks.yaml, beside permissions.yaml: the targets a write's events are sent to.
 *
 *   targets:
 *     search:
 *       url: https://search.example.com/hooks/cms     # http or https only
 *       secret: ${SEARCH_WEBHOOK_SECRET}               # signs each request (X-Webhook-Signature)
 *       headers: { Authorization: "Bearer ${SEARCH_TOKEN}" }
 *       events: [entry.create, entry.update, entry.delete]
 *       types: [article, category]                     # optional: every type when absent
 *   delivery:                                          # all optional
 *     timeout: 10000            # ms per attempt
 *     retryFor: 86400000        # ms an event is retried for before it is given up
 *     retention: 604800000      # ms finished deliveries are kept
 *     refusePrivateAddresses: false
 *
 * `${NAME}` in a url, secret or header is the environment variable NAME. Delivering needs every
 * one set (else a WebhookVariablesUnset error names them); reading commands load the file with
 * `unsetVariables: 'allow'` and get, for each target, the variables that are not set. Every
 * problem of the file itself is reported with file, path, line and column, all at once.
 */
import { typeResolver } from '../access/permissions.js';
import type { Registry } from '../schema/registry.js';
import { SchemaError, type SchemaProblem } from '../schema/problems.js';
import { parseYamlSource, readOptionalFile } from '../schema/yaml-source.js';

export const WEBHOOK_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookTarget {
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly secret: string | null;
  readonly events: ReadonlySet<WebhookEvent>;
  /** The content type uids it wants; null for every type (media events are not filtered). */
  readonly types: ReadonlySet<string> | null;
  /** The URL as the file writes it, `${NAME}`s not substituted: what is shown without revealing a variable's value. */
  readonly writtenUrl?: string;
  /**
   * With `unsetVariables: 'allow'`, the variables the target names that are not set, where
   * (`secret`, `url`, `headers.X`); the values that name them are then kept as written.
   */
  readonly unset?: readonly UnsetVariable[];
}

export interface UnsetVariable {
  readonly name: string;
  /** The target's key that names it: `secret`, `url` or `headers.<name>`. */
  readonly key: string;
  readonly line: number;
  readonly column: number;
}

/** A file that is right but names environment variables that are not set, to a process that delivers. */
export class WebhookVariablesUnset extends Error {
  constructor(
    readonly file: string,
    readonly unset: readonly (UnsetVariable & { readonly target: string })[],
  ) {
    const names = [...new Set(unset.map((variable) => variable.name))];
    const where = unset.map((variable) => `${variable.name} for targets.${variable.target}.${variable.key} (${file}:${variable.line}:${variable.column})`);
    super(
      `${names.length === 1 ? 'the environment variable' : 'the environment variables'} ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not set, ` +
        `and webhooks are not delivered without ${names.length === 1 ? 'it' : 'them'}: ${where.join('; ')}. Set ${names.length === 1 ? 'it' : 'them'} in the environment of the process that serves the API`,
    );
    this.name = 'WebhookVariablesUnset';
  }
}

export interface ParseWebhooksOptions {
  /** `refuse` (default): an unset variable throws WebhookVariablesUnset. `allow`: kept as written, listed in each target's `unset`. */
  readonly unsetVariables?: 'refuse' | 'allow';
}

export interface DeliverySettings {
  readonly timeout: number;
  readonly retryFor: number;
  readonly retention: number;
  readonly refusePrivateAddresses: boolean;
}

export interface WebhookConfig {
  readonly targets: readonly WebhookTarget[];
  readonly delivery: DeliverySettings;
}

export const DEFAULT_DELIVERY: DeliverySettings = { timeout: 10_000, retryFor: 24 * 3_600_000, retention: 7 * 24 * 3_600_000, refusePrivateAddresses: false };
export const NO_WEBHOOKS: WebhookConfig = { targets: [], delivery: DEFAULT_DELIVERY };

/** The file read and checked; null when there is none (no webhooks). */
export async function loadWebhooks(file: string, displayName: string, registry: Registry, env: NodeJS.ProcessEnv = process.env, options: ParseWebhooksOptions = {}): Promise<WebhookConfig | null> {
  const text = await readOptionalFile(file);
  if (text === null) return null;
  return parseWebhooks(text, displayName, registry, env, options);
}

type Path = (string | number)[];

export function parseWebhooks(text: string, file: string, registry: Registry, env: NodeJS.ProcessEnv = process.env, options: ParseWebhooksOptions = {}): WebhookConfig {
  const source = parseYamlSource(file, text);
  if (source.problems.length) throw new SchemaError(source.problems);
  const problems: SchemaProblem[] = [];
  const report = (path: Path, message: string, atKey = false) => problems.push({ ...source.locate(path, atKey), path: path.join('.'), message });
  const data = source.data ?? {};
  if (!isObject(data)) throw new SchemaError([{ ...source.locate([]), path: '', message: 'expected a map with targets and delivery' }]);
  for (const key of Object.keys(data)) if (key !== 'targets' && key !== 'delivery') report([key], `unknown key "${key}"; expected targets or delivery`, true);
  const unset: (UnsetVariable & { readonly target: string })[] = [];
  const substitute = (value: unknown, path: Path): Substituted | null => {
    if (typeof value !== 'string' || value === '') return (report(path, 'expected a string'), null);
    const missing: string[] = [];
    const result = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string) => {
      const found = env[name];
      if (found !== undefined) return found;
      missing.push(name);
      return match;
    });
    const { line, column } = source.locate(path);
    for (const name of missing) unset.push({ name, target: String(path[1]), key: path.slice(2).join('.'), line, column });
    return { text: missing.length ? value : result, unset: missing.length > 0 };
  };
  const targets = parseTargets(data.targets, registry, report, substitute).map((target) => ({ ...target, unset: unset.filter((variable) => variable.target === target.name).map(({ target: _target, ...variable }) => variable) }));
  const delivery = parseDelivery(data.delivery, report);
  // With other problems, the unset variables are listed among them, all at once.
  if (problems.length) {
    for (const variable of unset) problems.push({ file, path: ['targets', variable.target, variable.key].join('.'), line: variable.line, column: variable.column, message: `the environment variable ${variable.name} is not set` });
    throw new SchemaError([...problems].sort((a, b) => a.line - b.line || a.column - b.column));
  }
  if (unset.length && options.unsetVariables !== 'allow') throw new WebhookVariablesUnset(file, unset);
  return { targets, delivery };
}

type Report = (path: Path, message: string, atKey?: boolean) => void;
/** A value with its variables substituted; as written when one of them is not set (`unset`). */
interface Substituted {
  readonly text: string;
  readonly unset: boolean;
}
type Substitute = (value: unknown, path: Path) => Substituted | null;

const TARGET_KEYS = new Set(['url', 'secret', 'headers', 'events', 'types']);

function parseTargets(raw: unknown, registry: Registry, report: Report, substitute: Substitute): WebhookTarget[] {
  if (raw === undefined || raw === null) return [];
  if (!isObject(raw)) return (report(['targets'], 'expected a map of target names to { url, events, … }'), []);
  const resolve = typeResolver(registry);
  const targets: WebhookTarget[] = [];
  for (const [name, entry] of Object.entries(raw)) {
    const at = (...path: Path) => ['targets', name, ...path];
    if (!isObject(entry)) {
      report(at(), 'expected { url, events, secret?, headers?, types? }');
      continue;
    }
    for (const key of Object.keys(entry)) if (!TARGET_KEYS.has(key)) report(at(key), `unknown key "${key}"; expected url, secret, headers, events or types`, true);
    const url = parseUrl(entry.url, at('url'), report, substitute);
    const secret = entry.secret === undefined ? null : (substitute(entry.secret, at('secret'))?.text ?? null);
    const headers: Record<string, string> = {};
    if (entry.headers !== undefined) {
      if (!isObject(entry.headers)) report(at('headers'), 'expected a map of header names to values');
      else
        for (const [header, value] of Object.entries(entry.headers)) {
          if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) report(at('headers', header), `"${header}" is not a header name`, true);
          const substituted = substitute(typeof value === 'number' ? String(value) : value, at('headers', header));
          if (substituted !== null && /[\r\n]/.test(substituted.text)) report(at('headers', header), 'a header value cannot hold a line break');
          else if (substituted !== null) headers[header] = substituted.text;
        }
    }
    const events = new Set<WebhookEvent>();
    if (!Array.isArray(entry.events) || entry.events.length === 0) report(at('events'), `expected a list of events: ${WEBHOOK_EVENTS.join(', ')}`);
    else
      entry.events.forEach((event, index) => {
        if ((WEBHOOK_EVENTS as readonly unknown[]).includes(event)) events.add(event as WebhookEvent);
        else report(at('events', index), `unknown event ${JSON.stringify(event)}; expected one of ${WEBHOOK_EVENTS.join(', ')}`);
      });
    let types: Set<string> | null = null;
    if (entry.types !== undefined) {
      types = new Set();
      if (!Array.isArray(entry.types)) report(at('types'), 'expected a list of content types (singularName, pluralName or uid)');
      else
        entry.types.forEach((type, index) => {
          const uid = typeof type === 'string' ? resolve(type) : null;
          if (uid) types!.add(uid);
          else report(at('types', index), `unknown content type ${JSON.stringify(type)}`);
        });
    }
    if (url !== null) targets.push({ name, url, writtenUrl: typeof entry.url === 'string' ? entry.url : url, headers, secret, events, types, unset: [] });
  }
  return targets;
}

function parseUrl(raw: unknown, path: Path, report: Report, substitute: Substitute): string | null {
  const substituted = substitute(raw, path);
  if (substituted === null) return null;
  // Checked once its variables are set.
  if (substituted.unset) return substituted.text;
  const text = substituted.text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return (report(path, `"${text}" is not a URL`), null);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return (report(path, `only http and https URLs are sent to, not ${url.protocol}`), null);
  if (url.username || url.password) return (report(path, 'credentials go in headers, not in the URL'), null);
  return url.href;
}

const DELIVERY_KEYS: Record<keyof DeliverySettings, 'ms' | 'boolean'> = { timeout: 'ms', retryFor: 'ms', retention: 'ms', refusePrivateAddresses: 'boolean' };

function parseDelivery(raw: unknown, report: Report): DeliverySettings {
  if (raw === undefined || raw === null) return DEFAULT_DELIVERY;
  if (!isObject(raw)) return (report(['delivery'], 'expected a map: timeout, retryFor, retention, refusePrivateAddresses'), DEFAULT_DELIVERY);
  const settings: Record<string, unknown> = { ...DEFAULT_DELIVERY };
  for (const [key, value] of Object.entries(raw)) {
    const kind = DELIVERY_KEYS[key as keyof DeliverySettings];
    if (!kind) report(['delivery', key], `unknown key "${key}"; expected timeout, retryFor, retention or refusePrivateAddresses`, true);
    else if (kind === 'ms' && !(Number.isInteger(value) && (value as number) > 0)) report(['delivery', key], 'expected a number of milliseconds above 0');
    else if (kind === 'boolean' && typeof value !== 'boolean') report(['delivery', key], 'expected true or false');
    else settings[key] = value;
  }
  return settings as unknown as DeliverySettings;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The targets that want `event` for the type `uid` (null: a media event, which every type filter lets through). */
export function targetsFor(config: WebhookConfig, event: WebhookEvent, uid: string | null): WebhookTarget[] {
  return config.targets.filter((target) => target.events.has(event) && (uid === null || target.types === null || target.types.has(uid)));
}
