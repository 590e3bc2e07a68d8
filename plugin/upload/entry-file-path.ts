/**
 * Where the files of a `files.<path>` part of an entry write go, as Strapi v4's entity service
 * reads the path (`uploadFiles`): `files.cover` is the entry's own media attribute,
 * `files.seo.metaImage` the media attribute of the entry's `seo` component, `files.links.0.image`
 * the first item of a repeatable component, `files.blocks.1.file` the second item of a dynamic
 * zone — and so on through nested components. Strapi links the files to the component it just
 * wrote at that path; here the path is resolved after the entry's write, in its transaction,
 * from the component join rows: the component the entry holds there now.
 *
 * Strapi links to nothing when the path names no component (no item at that index, a repeatable
 * component without an index, a path into an attribute that is not a component): here each of
 * those is a 400 and nothing is written.
 */
import { ValidationError } from '../errors.js';
import { modelOf, type Attribute, type MediaAttribute, type Model, type Registry } from '../schema/registry.js';
import type { RowStore } from '../write/row-store.js';
import type { ResolvedAttachment } from './attachment.js';

/** One component hop: the attribute of the owner and which of its items (0 for a single component). */
interface Hop {
  readonly field: string;
  readonly index: number;
}

export interface EntryFilePath {
  /** `seo.metaImage`, as the part names it after `files.`. */
  readonly name: string;
  readonly hops: readonly Hop[];
  readonly field: string;
  /** The media attribute when every hop's component type is known before the write (no dynamic zone on the way). */
  readonly media: MediaAttribute | null;
  /** The owner's model when known before the write (the media attribute belongs to it). */
  readonly owner: Model | null;
}

const INDEX = /^(0|[1-9][0-9]{0,8})$/;

function invalid(name: string, why: string): ValidationError {
  return new ValidationError(`files.${name}`, `Invalid file part "files.${name}": ${why}`);
}

/** The path of a `files.<name>` part checked against the schema (dynamic zones: against every component they take). */
export function parseEntryFilePath(registry: Registry, model: Model, name: string): EntryFilePath {
  const segments = name.split('.');
  const hops: Hop[] = [];
  // The models the path may be in at this point: one, or a dynamic zone's components.
  let owners: readonly Model[] = [model];
  let at = 0;
  while (at < segments.length - 1) {
    const segment = segments[at] as string;
    const attributes = owners.map((owner) => owner.attributes.get(segment)).filter((attribute): attribute is Attribute => attribute !== undefined);
    const next = segments[at + 1] as string;
    const component = attributes.find((attribute) => attribute.kind === 'component');
    const zone = attributes.find((attribute) => attribute.kind === 'dynamiczone');
    if (component?.kind === 'component') {
      if (component.repeatable) {
        if (!INDEX.test(next)) throw invalid(name, `${segment} is a repeatable component: name the item, as files.${[...segments.slice(0, at + 1), '0', ...segments.slice(at + 1)].join('.')}`);
        hops.push({ field: segment, index: Number(next) });
        at += 2;
      } else {
        hops.push({ field: segment, index: 0 });
        at += 1;
      }
      owners = [modelOf(registry, component.component)];
    } else if (zone?.kind === 'dynamiczone') {
      if (!INDEX.test(next)) throw invalid(name, `${segment} is a dynamic zone: name the item, as files.${segment}.0.<attribute>`);
      hops.push({ field: segment, index: Number(next) });
      owners = zone.components.map((uid) => modelOf(registry, uid));
      at += 2;
    } else {
      throw invalid(name, `${segments.slice(0, at + 1).join('.')} is not a component or a dynamic zone`);
    }
  }
  const field = segments[at];
  if (field === undefined || at !== segments.length - 1) throw invalid(name, 'the path ends with an item, not a media attribute');
  const medias = owners.map((owner) => [owner, owner.attributes.get(field)] as const).filter((pair): pair is readonly [Model, MediaAttribute] => pair[1]?.kind === 'media');
  if (medias.length === 0) {
    throw invalid(name, hops.length ? `no media attribute ${field} in ${owners.map((owner) => owner.uid).join(' or ')}` : `${model.uid} has no media attribute of that name`);
  }
  const known = owners.length === 1 ? medias[0] : undefined;
  return { name, hops, field, media: known ? known[1] : null, owner: known ? known[0] : null };
}

/** The attachment the path names once the entry `id` is written, read in the write's transaction. */
export async function resolveEntryFilePath(store: RowStore, registry: Registry, model: Model, id: number, path: EntryFilePath): Promise<ResolvedAttachment> {
  let owner = model;
  let ownerId = id;
  for (const hop of path.hops) {
    const rows = (await store
      .trx(owner.componentJoinTable as string)
      .where({ entity_id: ownerId, field: hop.field })
      .orderBy('order', 'asc')
      .orderBy('id', 'asc')
      .select('component_id', 'component_type')) as { component_id: number | bigint; component_type: string }[];
    const row = rows[hop.index];
    if (!row) throw invalid(path.name, `the entry has no ${hop.field} item ${hop.index} after the write`);
    owner = modelOf(registry, row.component_type);
    ownerId = Number(row.component_id);
  }
  const media = owner.attributes.get(path.field);
  if (media?.kind !== 'media') throw invalid(path.name, `${owner.uid} has no media attribute ${path.field}`);
  return { uid: owner.uid, id: ownerId, field: path.field, multiple: media.multiple, table: owner.tableName, allowedTypes: media.allowedTypes };
}
