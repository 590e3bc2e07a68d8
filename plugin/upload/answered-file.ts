/**
 * A file as the upload routes answer it: Strapi's `{ id, ...attributes }`, no envelope, read from
 * the primary (so a write's own answer sees what it wrote) under the caller's role.
 */
import { NO_QUERY, type ReadRequest, type ReadResult } from '../read.js';
import { answerOf, type WriteEngine } from '../write/write.js';

export interface Entry {
  readonly id: number;
  readonly attributes: Record<string, unknown>;
}

/** Who reads the file: the request's role, caller, rules and deadline. */
export type FileReader = Pick<ReadRequest, 'role' | 'caller' | 'rules' | 'deadline'>;

/** Strapi's file answer: `{ id, ...attributes }`. */
export function flatten(entry: Entry): Record<string, unknown> {
  return { id: entry.id, ...entry.attributes };
}

/** The response's parsed body; its lent bytes are given back. */
export function takeBody(result: ReadResult): { data: unknown } {
  try {
    return JSON.parse(result.body.toString('utf8')) as { data: unknown };
  } finally {
    result.release?.();
  }
}

/** One file as the upload routes answer it, whatever the reader may read of files (the write's own answer). */
export async function answeredFile(engine: WriteEngine, reader: FileReader, id: number): Promise<Record<string, unknown>> {
  const result = await answerOf(engine, { model: engine.registry.file, id, ...NO_QUERY, ...reader });
  return flatten(takeBody(result).data as Entry);
}
