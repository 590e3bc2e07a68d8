/**
 * `content-api import-strapi <strapi-app-dir> [--out DIR] [--custom-field UID=TYPE …] [--database URL]`:
 * convert a Strapi v4 app's schema.json files into content-types/ and components/ YAML files,
 * print what was written, added, changed and dropped, then load the result. Exit 0 when it loads,
 * 1 when it does not (or a custom field's stored type is unknown), 2 on a usage error.
 */
import { join } from 'node:path';
import type { Knex } from 'knex';
import { UnresolvedCustomFieldsError } from '../schema/import-custom-fields.js';
import { importStrapiApp, type ImportChange, type ImportReport } from '../schema/import-strapi.js';
import { loadSchema } from '../schema/load.js';
import { formatProblem, SchemaError } from '../schema/problems.js';
import { commandHelp, parseCommand, prepareDatabase, UsageError, withDatabase } from './common.js';
import { progressBar } from './progress.js';


const OPTIONS = {
  out: { type: 'string', default: '.' },
  'custom-field': { type: 'string', multiple: true },
  database: { type: 'string' },
  users: { type: 'boolean', default: false },
} as const;

const USAGE = commandHelp('import-strapi <strapi-app-dir> [--out DIR] [--custom-field UID=TYPE …] [--database URL] [--users]', OPTIONS, {
  out: ['DIR', 'where content-types/ and components/ are written (default .)'],
  'custom-field': ['UID=TYPE', 'the type a custom field stores (plugin::ckeditor.CKEditor=richtext), when its plugin is not in the app\'s node_modules; repeatable'],
  database: ['URL', "the app's database (sqlite:<path> or postgres://…), read only: a custom field nothing else explains takes its column's type"],
  users: ['', "add users-permissions' user and role even when no type refers to them, for serving end users (serve --users)"],
});

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, USAGE, true);
  if (positionals.length !== 1) throw new UsageError('expected one Strapi app folder', USAGE);
  const appDir = positionals[0]!;
  const outDir = values.out;
  const customFields = Object.fromEntries((values['custom-field'] ?? []).map(parseCustomField));
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const bar = progressBar(process.stdout, 'converting');
  const convert = (database?: Knex) => importStrapiApp(appDir, outDir, { customFields, database, users: values.users, progress: bar.update }).finally(bar.finish);
  let report: ImportReport;
  try {
    report = values.database ? await withDatabase(prepareDatabase(values.database, { create: false }), convert) : await convert();
  } catch (error) {
    if (!(error instanceof UnresolvedCustomFieldsError)) throw error;
    out(error.message);
    return 1;
  }
  printReport(outDir, report, out);
  try {
    const registry = await loadSchema(outDir);
    out(`schema ok: ${registry.contentTypes.length} content types, ${registry.components.length} components`);
    return 0;
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    for (const problem of error.problems) out(formatProblem({ ...problem, file: join(outDir, problem.file) }));
    out(`the imported schema does not load yet: ${error.problems.length} problem(s) to fix by hand`);
    return 1;
  }
}

function parseCustomField(text: string): [string, string] {
  const at = text.lastIndexOf('=');
  if (at <= 0 || at === text.length - 1) throw new UsageError(`--custom-field ${text}: expected UID=TYPE, such as plugin::ckeditor.CKEditor=richtext`, USAGE);
  return [text.slice(0, at), text.slice(at + 1)];
}

function printReport(outDir: string, report: ImportReport, out: (text: string) => void): void {
  const describe = (change: ImportChange) => `${join(outDir, change.file)} ${change.path.join('.')}`;
  for (const written of report.written) out(`wrote   ${join(outDir, written.file)}  (from ${written.source})`);
  for (const change of report.added) out(`added   ${describe(change)} = ${JSON.stringify(change.value)}: ${change.reason}`);
  for (const change of report.changed) out(`changed ${describe(change)} = ${JSON.stringify(change.value)}: ${change.reason}`);
  for (const change of report.dropped) out(`dropped ${describe(change)}: ${change.reason}`);
  for (const change of report.problems) out(`problem ${describe(change)}: ${change.reason}`);
}
