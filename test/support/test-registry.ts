/**
 * The registry the query unit tests parse against: the example schema of the repository
 * (`content-types/`, `components/`), which describes the conformance app exactly — articles,
 * categories, restaurants, users, roles and their components.
 */
import { fileURLToPath } from 'node:url';
import { loadSchema } from '../../plugin/schema/load.js';
import { modelOf, type Model, type Registry } from '../../plugin/schema/registry.js';

/** The repository root, from dist/test/support/. */
const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let loading: Promise<Registry> | undefined;

/** The example schema as a registry, loaded once per process. */
export function loadTestRegistry(): Promise<Registry> {
  loading ??= loadSchema(REPOSITORY_ROOT);
  return loading;
}

/** A model of the test registry by uid (`api::article.article`, `shared.seo`). */
export function testModel(registry: Registry, uid: string): Model {
  return modelOf(registry, uid);
}
