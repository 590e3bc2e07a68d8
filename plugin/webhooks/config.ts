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
 * `${NAME}` in a url, secret or header is the environment variable NAME: an unset one is a
 * problem. Every problem is reported with file, path, line and column, all at once.
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
export async function loadWebhooks(file: string, displayName: string, registry: Registry, env: NodeJS.ProcessEnv = process.env): Promise<WebhookConfig | null> {
  const text = await readOptionalFile(file);
  if (text === null) return null;
  return parseWebhooks(text, displayName, registry, env);
}

type Path = (string | number)[];

export function parseWebhooks(text: string, file: string, registry: Registry, env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const source = parseYamlSource(file, text);
  if (source.problems.length) throw new SchemaError(source.problems);
  const problems: SchemaProblem[] = [];
  const report = (path: Path, message: string, atKey = false) => problems.push({ ...source.locate(path, atKey), path: path.join('.'), message });
  const data = source.data ?? {};
  if (!isObject(data)) throw new SchemaError([{ ...source.locate([]), path: '', message: 'expected a map with targets and delivery' }]);
  for (const key of Object.keys(data)) if (key !== 'targets' && key !== 'delivery') report([key], `unknown key "${key}"; expected targets or delivery`, true);
  const substitute = (value: unknown, path: Path): string | null => {
    if (typeof value !== 'string' || value === '') return (report(path, 'expected a string'), null);
    let missing = false;
    const result = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
      const found = env[name];
      if (found === undefined) {
        report(path, `the environment variable ${name} is not set`);
        missing = true;
        return '';
      }
      return found;
    });
    return missing ? null : result;
  };
  const targets = parseTargets(data.targets, registry, report, substitute);
  const delivery = parseDelivery(data.delivery, report);
  if (problems.length) throw new SchemaError([...problems].sort((a, b) => a.line - b.line || a.column - b.column));
  return { targets, delivery };
}

type Report = (path: Path, message: string, atKey?: boolean) => void;
type Substitute = (value: unknown, path: Path) => string | null;

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
    const secret = entry.secret === undefined ? null : substitute(entry.secret, at('secret'));
    const headers: Record<string, string> = {};
    if (entry.headers !== undefined) {
      if (!isObject(entry.headers)) report(at('headers'), 'expected a map of header names to values');
      else
        for (const [header, value] of Object.entries(entry.headers)) {
          if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) report(at('headers', header), `"${header}" is not a header name`, true);
          const substituted = substitute(typeof value === 'number' ? String(value) : value, at('headers', header));
          if (substituted !== null && /[\r\n]/.test(substituted)) report(at('headers', header), 'a header value cannot hold a line break');
          else if (substituted !== null) headers[header] = substituted;
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
    if (url !== null) targets.push({ name, url, headers, secret, events, types });
  }
  return targets;
}

function parseUrl(raw: unknown, path: Path, report: Report, substitute: Substitute): string | null {
  const text = substitute(raw, path);
  if (text === null) return null;
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
