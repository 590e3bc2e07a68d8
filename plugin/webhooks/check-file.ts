/** `content-api check`'s and `sync`'s look at webhooks.yaml. */
import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import { join } from 'node:path';
import type { Registry } from '../schema/registry.js';
import { SchemaError, type SchemaProblem } from '../schema/problems.js';
import { parseYamlSource } from '../schema/yaml-source.js';
import { loadWebhooks, parseWebhooks } from './config.js';
import { createWebhookTables } from './tables.js';

export const WEBHOOKS_FILE = 'webhooks.yaml';

/** `check`: the file's problems (file:line:col), or a one-line summary; nothing when there is no file. */
export async function checkWebhooksFile(root: string, registry: Registry | null): Promise<{ problems: readonly SchemaProblem[]; summary: string | null }> {
  let text: string;
  try {
    text = await readFile(join(root, WEBHOOKS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { problems: [], summary: null };
    throw error;
  }
  // Without a schema, only the YAML itself can be checked.
  if (!registry) return { problems: parseYamlSource(WEBHOOKS_FILE, text).problems, summary: null };
  try {
    // The environment is the server's, not the file's: a variable unset here is said, not a problem.
    const config = parseWebhooks(text, WEBHOOKS_FILE, registry, process.env, { unsetVariables: 'allow' });
    const count = config.targets.length;
    const unset = [...new Set(config.targets.flatMap((target) => (target.unset ?? []).map((variable) => variable.name)))];
    const note = unset.length ? ` (not set here, needed to deliver: ${unset.join(', ')})` : '';
    return { problems: [], summary: `${WEBHOOKS_FILE} ok: ${count} target${count === 1 ? '' : 's'}${note}` };
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    return { problems: error.problems, summary: null };
  }
}

/** `content-api sync`: the outbox tables, when webhooks.yaml declares targets; answers the tables created. */
export async function syncWebhookTables(knex: Knex, root: string, registry: Registry): Promise<string[]> {
  // Whether there are targets is all that matters here: no variable needs to be set.
  const config = await loadWebhooks(join(root, WEBHOOKS_FILE), WEBHOOKS_FILE, registry, process.env, { unsetVariables: 'allow' });
  return config?.targets.length ? createWebhookTables(knex) : [];
}
