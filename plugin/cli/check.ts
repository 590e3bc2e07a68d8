/**
 * `content-api check [--root DIR]`: validate the schema files and report every problem at once.
 * Exit 0 when the schema loads, 1 with the problems, 2 on a usage error.
 */
import { join } from 'node:path';
import { loadSchema } from '../schema/load.js';
import { formatProblem, SchemaError } from '../schema/problems.js';
import { commandHelp, parseCommand } from './common.js';

/** Run the command; returns the exit code. */
const OPTIONS = { root: { type: 'string', default: '.' } } as const;
const USAGE = commandHelp('check [--root DIR]', OPTIONS, { root: ['DIR', 'the schema folder: content-types/ and components/ (default .)'] });

export async function run(args: string[]): Promise<number> {
  const root = parseCommand(args, OPTIONS, USAGE).values.root;
  try {
    const registry = await loadSchema(root);
    const types = registry.contentTypes.length;
    const components = registry.components.length;
    process.stdout.write(`schema ok: ${types} content type${types === 1 ? '' : 's'}, ${components} component${components === 1 ? '' : 's'}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    // Paths relative to the working folder, so terminals and editors can open them.
    const lines = error.problems.map((problem) => formatProblem({ ...problem, file: join(root, problem.file) }));
    const count = error.problems.length;
    process.stdout.write(`${lines.join('\n')}\n${count} schema problem${count === 1 ? '' : 's'}\n`);
    return 1;
  }
}
