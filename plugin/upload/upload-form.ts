/**
 * An upload's form, as a door received it (http/multipart.ts; the GraphQL door's multipart
 * requests): text parts by name, and file parts already streamed to a temporary folder.
 */
import { ApiError } from '../errors.js';

/** A file part, as received. */
export interface ReceivedFile {
  /** The file name the client sent (UTF-8). */
  readonly filename: string;
  /** The type the client declared: a hint, checked against the content (sniff.ts). */
  readonly declaredType: string;
  /** Where its bytes are, in the request's temporary folder. */
  readonly path: string;
  readonly bytes: number;
}

export interface UploadForm {
  /** Text parts by name; a name sent more than once keeps every value, in order. */
  readonly fields: ReadonlyMap<string, readonly string[]>;
  readonly files: readonly NamedFile[];
}

export interface FormLimits {
  readonly maxFileBytes: number;
  readonly maxFiles: number;
}

/** A file part with the name it was sent under (`files`, `files.gallery`). */
export interface NamedFile extends ReceivedFile {
  readonly part: string;
}

/** Strapi's answer to a file over the limit (its body parser's), kept word for word. */
export const fileTooBig = () => new ApiError('PayloadTooLargeError', 'FileTooBig');
