/**
 * `ref`, `refId` and `field` of an upload: the entry's media attribute the new files fill. Strapi
 * attaches when all three are sent and checks none of them (an unknown type is its 500, an
 * unknown attribute or entry a link to nothing); here the type must be a content type, the
 * attribute one of its media attributes that the caller's `update` rule lets it write, the entry
 * must be one that rule reaches (any other is answered as missing), and each file must be of a
 * type the attribute allows.
 */
import { allowsField } from '../access/action-rules.js';
import type { WriteAccess } from '../access/write-access.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { ENTRY_ID } from '../query/entry-id.js';
import { modelOf, type MediaAttribute, type Registry } from '../schema/registry.js';
import type { RowStore } from '../write/row-store.js';
import type { Attachment } from './file-rows.js';

export interface ResolvedAttachment extends Attachment {
  readonly table: string;
  readonly allowedTypes: readonly string[] | null;
}

/** The attachment the fields ask for, or null when they do not name all three. */
export function resolveAttachment(registry: Registry, access: WriteAccess, fields: ReadonlyMap<string, readonly string[]>): ResolvedAttachment | null {
  const [ref, refId, field] = ['ref', 'refId', 'field'].map((name) => fields.get(name)?.[0]);
  if (!ref || !refId || !field) return null;
  const model = registry.models.get(ref);
  if (!model || model.modelType !== 'contentType') throw new ValidationError('ref', `Invalid ref ${JSON.stringify(ref)}: expected the uid of a content type, such as api::article.article`);
  const attribute = model.attributes.get(field);
  if (attribute?.kind !== 'media') throw new ValidationError('field', `Invalid field ${JSON.stringify(field)}: ${ref} has no media attribute of that name`);
  if (!ENTRY_ID.test(refId)) throw new ValidationError('refId', `Invalid refId ${JSON.stringify(refId)}: expected the id of an entry`);
  if (!access.can(model.uid, 'update')) throw new ForbiddenError();
  if (!allowsField(access.rule(model.uid, 'update'), field)) throw new ValidationError('field', `${field} cannot be written by this role`);
  const media: MediaAttribute = attribute;
  return { uid: model.uid, id: Number(refId), field, multiple: media.multiple, table: model.tableName, allowedTypes: media.allowedTypes };
}

/** Strapi's media categories: images, videos, audios, and files for every other type. */
function categoryOf(mime: string): string {
  if (mime.startsWith('image/')) return 'images';
  if (mime.startsWith('video/')) return 'videos';
  if (mime.startsWith('audio/')) return 'audios';
  return 'files';
}

export function checkAllowedType(attachment: ResolvedAttachment, mime: string): void {
  if (!attachment.allowedTypes?.length) return;
  const category = categoryOf(mime);
  if (!attachment.allowedTypes.includes(category)) {
    throw new ValidationError('field', `${attachment.field} takes ${attachment.allowedTypes.join(', ')}; a file of type ${mime} is not one of them`);
  }
}

/** Inside the write's transaction: the entry must exist, and be the caller's to `update`, when its link is written; a hidden one is answered as a missing one. */
export async function mustReachAttached(store: RowStore, attachment: ResolvedAttachment): Promise<void> {
  const model = modelOf(store.registry, attachment.uid);
  if (!(await store.access.reachable(store.trx, model, [attachment.id], 'update')).has(attachment.id)) {
    throw new ValidationError('refId', `Invalid refId ${attachment.id}: no such entry of ${attachment.uid}`);
  }
}
