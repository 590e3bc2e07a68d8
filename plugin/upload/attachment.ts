/**
 * `ref`, `refId` and `field` of an upload: the entry's media attribute the new files fill. Strapi
 * attaches when all three are sent and checks none of them (an unknown type is its 500, an
 * unknown attribute or entry a link to nothing); here the type must be a content type, the
 * attribute one of its media attributes, the entry must exist, the caller must be allowed to
 * `update` that type, and each file must be of a type the attribute allows.
 */
import type { Grants } from '../access/permissions.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { ENTRY_ID } from '../http/entry-id.js';
import type { MediaAttribute, Registry } from '../schema/registry.js';
import type { RowStore } from '../write/row-store.js';
import type { Attachment } from './file-rows.js';

export interface ResolvedAttachment extends Attachment {
  readonly table: string;
  readonly allowedTypes: readonly string[] | null;
}

/** The attachment the fields ask for, or null when they do not name all three. */
export function resolveAttachment(registry: Registry, grants: Grants, fields: ReadonlyMap<string, readonly string[]>): ResolvedAttachment | null {
  const [ref, refId, field] = ['ref', 'refId', 'field'].map((name) => fields.get(name)?.[0]);
  if (!ref || !refId || !field) return null;
  const model = registry.models.get(ref);
  if (!model || model.modelType !== 'contentType') throw new ValidationError('ref', `Invalid ref ${JSON.stringify(ref)}: expected the uid of a content type, such as api::article.article`);
  const attribute = model.attributes.get(field);
  if (attribute?.kind !== 'media') throw new ValidationError('field', `Invalid field ${JSON.stringify(field)}: ${ref} has no media attribute of that name`);
  if (!ENTRY_ID.test(refId)) throw new ValidationError('refId', `Invalid refId ${JSON.stringify(refId)}: expected the id of an entry`);
  if (!grants.can(model.uid, 'update')) throw new ForbiddenError();
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

/** Inside the write's transaction: the entry must exist when its link is written. */
export async function checkEntryExists(store: RowStore, attachment: ResolvedAttachment): Promise<void> {
  if (!(await store.trx(attachment.table).where({ id: attachment.id }).first('id'))) {
    throw new ValidationError('refId', `Invalid refId ${attachment.id}: no such entry of ${attachment.uid}`);
  }
}
