/**
 * `content-api types [--root DIR] [--out FILE] [--graphql]`: TypeScript declarations of the
 * schema's REST responses (one interface per content type and component, the envelopes, lookup
 * tables by uid and by route), written to FILE or printed; `--graphql` adds the GraphQL schema's
 * SDL as a constant, for a front end's GraphQL code generator to read without a running server.
 */
import { generateTypes } from '../codegen/types.js';
import { graphqlSdlFor } from '../graphql/schema/schema.js';
import { loadSchema } from '../schema/load.js';
import { commandHelp, parseCommand, UsageError, writeOutput } from './common.js';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  out: { type: 'string' },
  graphql: { type: 'boolean', default: false },
} as const;

const USAGE = commandHelp('types [--root DIR] [--out FILE] [--graphql]', OPTIONS, {
  root: ['DIR', 'the schema folder (default .)'],
  out: ['FILE', 'write the declarations to FILE (its folder created) rather than to stdout'],
  graphql: ['', 'add `graphqlSchema`, the SDL of the GraphQL schema (as `content-api graphql-schema` prints it)'],
});

export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  // A declaration file holds no values: the SDL needs a module of its own (api.ts).
  if (values.graphql && values.out?.endsWith('.d.ts')) throw new UsageError('--graphql writes a value: give --out a .ts file, not a .d.ts', USAGE);
  const registry = await loadSchema(values.root);
  const declarations = generateTypes(registry);
  const sdl = values.graphql ? `\n/** The GraphQL schema the API serves with \`graphql: true\`, as SDL. */\nexport const graphqlSchema: string = ${JSON.stringify(graphqlSdlFor(registry))};\n` : '';
  writeOutput(values.out, declarations + sdl);
  return 0;
}
