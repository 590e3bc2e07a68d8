/**
 * Which route a path names, without Koa: for the explorer, which runs a request it was handed as
 * text, and `content-api explain`.
 */
import type { Registry } from '../schema/registry.js';

/** The model and action a path names: `<prefix>/<plural>[/<id>]` or `<prefix>/<singular>`. */
export function matchRoute(registry: Registry, prefix: string, pathname: string) {
  if (!pathname.startsWith(`${prefix}/`)) return null;
  const [name, id, ...rest] = pathname.slice(prefix.length + 1).split('/');
  const model = registry.routes.get(name);
  if (!model || rest.length || (id !== undefined && (model.kind === 'singleType' || !/^[1-9]\d{0,15}$/.test(id)))) return null;
  return { model, action: id === undefined ? ('find' as const) : ('findOne' as const), id: id === undefined ? null : Number(id) };
}
