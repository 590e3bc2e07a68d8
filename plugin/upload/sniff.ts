/**
 * A file's type, from its content rather than the client's word: what file-type recognizes from
 * the first bytes wins. A declared type the content does not bear out — an image, audio, video or
 * PDF type on bytes that are none of them — becomes `application/octet-stream`; text formats
 * file-type cannot recognize (plain text, CSV, JSON, HTML, SVG) keep the declared type, and are
 * served as attachments when they could run script (serve-local.ts).
 */
import { fileTypeFromFile } from 'file-type';

const BINARY_CLAIMS = /^(image\/(?!svg\+xml$)|audio\/|video\/|application\/pdf$|application\/zip$)/;

export async function sniffType(path: string, declared: string, isSvg: boolean): Promise<string> {
  if (isSvg) return 'image/svg+xml';
  const found = await fileTypeFromFile(path);
  if (found) return found.mime;
  if (!declared || BINARY_CLAIMS.test(declared)) return 'application/octet-stream';
  return declared;
}
