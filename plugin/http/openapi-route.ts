/**
 * `GET <prefix>/openapi.json`: the OpenAPI document for the caller's role (the same role
 * resolution as the content routes), built once per role and permissions.
 */
import type { Context } from 'koa';
import { grantsFor, type Permissions } from '../access/permissions.js';
import { resolveRole } from './caller.js';
import { generateOpenApi } from '../openapi/document.js';
import type { ReadEngine } from '../read.js';
import type { RouterOptions } from './router.js';

export function openApiHandler(engine: ReadEngine, options: RouterOptions) {
  // Keyed by the permissions object, so reloaded rules never serve a stale document.
  const documents = new WeakMap<Permissions, Map<string, string>>();
  return async (ctx: Context): Promise<void> => {
    const rules = engine.rules();
    const role = await resolveRole(ctx, rules.tokens, options.resolveRole, options.now());
    const current = rules.permissions;
    let byRole = documents.get(current);
    if (!byRole) documents.set(current, (byRole = new Map()));
    let document = byRole.get(role);
    if (document === undefined) {
      document = JSON.stringify(generateOpenApi(engine.registry, grantsFor(current, role), {
        prefix: options.prefix,
        maxLimit: options.maxLimit,
        users: options.users && { register: options.users.config.register !== null, email: options.users.config.email !== null, providers: [...options.users.config.providers.keys()] },
        upload: options.upload !== undefined,
      }));
      byRole.set(role, document);
    }
    ctx.type = 'application/json';
    ctx.body = document;
  };
}
