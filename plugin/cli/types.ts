/**
 * `content-api types [--root DIR] [--out FILE]`: TypeScript declarations of the schema's REST
 * responses (one interface per content type and component, the envelopes, lookup tables by uid
 * and by route), written to FILE or printed.
 */
import { generateTypes } from '../codegen/types.js';
import { loadSchema } from '../schema/load.js';
import { commandHelp, parseCommand, writeOutput } from './common.js';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  out: { type: 'string' },
} as const;

const USAGE = commandHelp('types [--root DIR] [--out FILE]', OPTIONS, {
  root: ['DIR', 'the schema folder (default .)'],
  out: ['FILE', 'write the declarations to FILE (its folder created) rather than to stdout'],
});

export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  const declarations = generateTypes(await loadSchema(values.root));
  writeOutput(values.out, declarations);
  return 0;
}
