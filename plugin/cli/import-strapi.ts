/**
 * `content-api import-strapi <strapi-app-dir> [--out DIR]`: convert a Strapi v4 app's schema.json
 * files into content-types/ and components/ YAML files, print what was written, added and
 * dropped, then load the result. Exit 0 when it loads, 1 when it does not, 2 on a usage error.
 */
import { join } from 'node:path';
import { importStrapiApp, type ImportChange } from '../schema/import-strapi.js';
import { loadSchema } from '../schema/load.js';
import { formatProblem, SchemaError } from '../schema/problems.js';
import { parseCommand, UsageError } from './common.js';
import { progressBar } from './progress.js';

const USAGE = 'usage: content-api import-strapi <strapi-app-dir> [--out DIR]\n';

const OPTIONS = { out: { type: 'string', default: '.' } } as const;

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, USAGE, true);
  if (positionals.length !== 1) throw new UsageError('expected one Strapi app folder', USAGE);
  const parsed = { appDir: positionals[0]!, outDir: values.out };
  const bar = progressBar(process.stdout, 'converting');
  const report = await importStrapiApp(parsed.appDir, parsed.outDir, bar.update).finally(bar.finish);
  const out = (text: string) => process.stdout.write(`${text}\n`);
  for (const written of report.written) out(`wrote   ${join(parsed.outDir, written.file)}  (from ${written.source})`);
  for (const change of report.added) out(`added   ${describe(parsed.outDir, change)} = ${JSON.stringify(change.value)}: ${change.reason}`);
  for (const change of report.dropped) out(`dropped ${describe(parsed.outDir, change)}: ${change.reason}`);
  for (const change of report.problems) out(`problem ${describe(parsed.outDir, change)}: ${change.reason}`);
  try {
    const registry = await loadSchema(parsed.outDir);
    out(`schema ok: ${registry.contentTypes.length} content types, ${registry.components.length} components`);
    return 0;
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    for (const problem of error.problems) out(formatProblem({ ...problem, file: join(parsed.outDir, problem.file) }));
    out(`the imported schema does not load yet: ${error.problems.length} problem(s) to fix by hand`);
    return 1;
  }
}

function describe(outDir: string, change: ImportChange): string {
  return `${join(outDir, change.file)} ${change.path.join('.')}`;
}
