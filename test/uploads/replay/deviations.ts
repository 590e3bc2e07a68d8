/**
 * Recorded upload cases the plugin answers differently on purpose (docs/uploads.md), each with
 * the expectation that replaces the recorded one, derived from the recording.
 */
import type { Expectation, FileIds } from './compare.js';

export interface UploadDeviation {
  readonly reason: string;
  /** `ids` translates a recorded file id into the replay's. */
  expect(recorded: Expectation, path: string, ids: FileIds): Expectation;
}

const NO_ROWS = { added: [], changed: [], removed: [] };

/** Strapi ignores `pagination` on the files list and answers every file: the page asked for. */
function page(start: number, count: number, descending = false): UploadDeviation {
  return {
    reason: 'pagination honoured (Strapi answers every file)',
    expect: (recorded) => {
      const files = [...(recorded.response as { id: number }[])].sort((a, b) => (descending ? b.id - a.id : a.id - b.id));
      return { ...recorded, response: files.slice(start, start + count) };
    },
  };
}

/**
 * Files attached by one request all get order 1 (Strapi's numbering), so among them the list
 * follows the order their links were inserted: in Strapi the order its parallel processing
 * finished, here the order they were sent (ids ascending).
 */
function attachedTogether(names: readonly string[]): UploadDeviation {
  return {
    reason: 'files attached by one request listed in the order sent',
    expect: (recorded) => {
      const response = structuredClone(recorded.response) as { data: { attributes: Record<string, { data: { id: number; attributes: { name: string } }[] }> } };
      for (const media of Object.values(response.data.attributes)) {
        if (!Array.isArray(media?.data)) continue;
        const positions = media.data.flatMap((file, index) => (names.includes(file.attributes.name) ? [index] : []));
        const files = positions.map((index) => media.data[index]).sort((a, b) => a.id - b.id);
        positions.forEach((position, index) => (media.data[position] = files[index]));
      }
      return { ...recorded, response };
    },
  };
}

/** Strapi answers a malformed multipart entry write with a 500 (or a BadRequestError): a 400 ValidationError with its message. */
function badMultipart(message: string): UploadDeviation {
  return {
    reason: 'a malformed multipart entry write is a 400 ValidationError',
    expect: (recorded) => ({ ...recorded, status: 400, response: { data: null, error: { status: 400, name: 'ValidationError', message, details: {} } } }),
  };
}

/**
 * A file for the media of a component inside a component (`files.seo.metaSocial.1.image`): Strapi
 * 4.26.2 looks the nested item's id up in what it wrote, finds none, and stores the file without
 * a link; here it is linked to that item (`related` is the item the path names).
 */
function linkedInNestedComponent(relatedType: string, relatedId: number, field: string): UploadDeviation {
  return {
    reason: 'files for the media of a nested component are linked to it (Strapi: stored unlinked)',
    expect: (recorded) => {
      const added = (recorded.rows.files?.added ?? []) as { id: number }[];
      const links = added.map((file) => ({ file_id: file.id, related_id: relatedId, related_type: relatedType, field, order: 1 }));
      return { ...recorded, rows: { ...recorded.rows, files_related_morphs: { added: links, changed: [], removed: [] } } };
    },
  };
}

/** The read after it: the item answers the file linked to it. */
function readsNestedFile(recordedFileId: number, name: string): UploadDeviation {
  return {
    reason: 'the nested component reads back with the file linked to it (Strapi: none)',
    expect: (recorded, _path, ids) => {
      const response = structuredClone(recorded.response) as { data: { attributes: { seo: { metaSocial: { image: unknown }[] } } } };
      response.data.attributes.seo.metaSocial[1]!.image = { data: { id: ids.translateId(recordedFileId), attributes: { name } } };
      return { ...recorded, response };
    },
  };
}

export const DEVIATIONS: ReadonlyMap<number, UploadDeviation> = new Map([
  [67, linkedInNestedComponent('shared.meta-social', 51, 'image')],
  [68, readsNestedFile(50, 'social.png')],
  [23, attachedTogether(['gallery-2.png', 'gallery-3.svg'])],
  [37, page(3, 3)],
  [62, attachedTogether(['entry-1.png', 'entry-2.txt'])],
  [75, badMultipart("When using multipart/form-data you need to provide your data in a JSON 'data' field.")],
  [76, badMultipart("Invalid 'data' field. 'data' should be a valid JSON.")],
  [
    77,
    badMultipart(`When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\nFor example, when a media file is named "avatar", make sure the form key name is "files.avatar"`),
  ],
  [38, page(1, 2)],
  [60, page(0, 3, true)],
  [
    56,
    {
      reason: 'a ref to an unknown type is a 400 and stores nothing (Strapi: 500, the file left in storage)',
      expect: (recorded) => ({
        status: 400,
        response: {
          data: null,
          error: { status: 400, name: 'ValidationError', message: 'Invalid ref "api::nope.nope": expected the uid of a content type, such as api::article.article (at ref)', details: { path: 'ref' } },
        },
        rows: Object.fromEntries(Object.keys(recorded.rows).map((table) => [table, NO_ROWS])),
        objects: { added: [], removed: [] },
      }),
    },
  ],
]);
