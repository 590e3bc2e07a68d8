/** A real pino logger writing into memory, for the suites that check what goes to the `logger`. */
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export interface MemoryLog {
  readonly logger: Logger;
  /** The lines written so far, parsed. */
  records(): Record<string, unknown>[];
  clear(): void;
}

export function memoryLog(): MemoryLog {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: pino({ base: null }, destination),
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => void lines.splice(0),
  };
}
