/**
 * Recorded upload cases the plugin answers differently on purpose (docs/uploads.md), each with
 * the expectation that replaces the recorded one, derived from the recording.
 */
import type { Expectation } from './compare.js';

export interface UploadDeviation {
  readonly reason: string;
  expect(recorded: Expectation, path: string): Expectation;
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

export const DEVIATIONS: ReadonlyMap<number, UploadDeviation> = new Map([
  [23, attachedTogether(['gallery-2.png', 'gallery-3.svg'])],
  [37, page(3, 3)],
  [62, attachedTogether(['entry-1.png', 'entry-2.txt'])],
  [65, badMultipart("When using multipart/form-data you need to provide your data in a JSON 'data' field.")],
  [66, badMultipart("Invalid 'data' field. 'data' should be a valid JSON.")],
  [
    67,
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
