/**
 * `content-api graphql-schema [--root DIR] [--out FILE]`: the GraphQL schema Strapi's GraphQL
 * plugin generates for the schema folder, as SDL (types and fields in lexicographic order),
 * written to FILE or printed. Private and password attributes are in no type (docs/graphql.md).
 */
import { graphqlSdlFor } from '../graphql/schema/schema.js';
import { loadSchema } from '../schema/load.js';
import { commandHelp, parseCommand, writeOutput } from './common.js';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  out: { type: 'string' },
} as const;

const USAGE = commandHelp('graphql-schema [--root DIR] [--out FILE]', OPTIONS, {
  root: ['DIR', 'the schema folder (default .)'],
  out: ['FILE', 'write the SDL to FILE (its folder created) rather than to stdout'],
});

export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  writeOutput(values.out, graphqlSdlFor(await loadSchema(values.root)));
  return 0;
}
