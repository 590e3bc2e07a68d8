/**
 * `content-api copy --from URL --to URL [--root DIR]`: copy every table of the schema from one
 * database to another (e.g. a Strapi SQLite database to PostgreSQL), printing the rows per
 * table. The target gets the layout first and must have no rows in those tables. Exit 0 when
 * done, 1 when the schema or the copy fails (the target is then left as it was), 2 on a usage error.
 */
import { existsSync } from 'node:fs';
import { loadSchema } from '../schema/load.js';
import { copyDatabase, TargetNotEmptyError } from '../storage/copy.js';
import { parseDatabaseUrl } from '../storage/database.js';
import { commandHelp, parseCommand, prepareDatabase, UsageError, withDatabase } from './common.js';
import { progressBar } from './progress.js';

const OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  root: { type: 'string', default: '.' },
} as const;

const USAGE = commandHelp('copy --from URL --to URL [--root DIR]', OPTIONS, {
  from: ['URL', 'the database read (sqlite:<path>, postgres://… or mysql://…), required'],
  to: ['URL', 'the database written: it gets the layout first and must have no rows in those tables; required'],
  root: ['DIR', 'the schema folder whose tables are copied (default .)'],
});

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  if (!values.from || !values.to) throw new UsageError('--from and --to are required', USAGE);
  const from = parseDatabaseUrl(values.from);
  // Opening a missing SQLite file would create it and copy nothing.
  if (from.client === 'sqlite' && !existsSync(from.target)) {
    process.stderr.write(`content-api copy: ${from.target} does not exist\n`);
    return 1;
  }
  const to = prepareDatabase(values.to);
  const registry = await loadSchema(values.root);
  const started = Date.now();
  return withDatabase(from, (source) =>
    withDatabase(to, async (target) => {
      try {
        const bar = progressBar(process.stdout, 'copying');
        const copied = await copyDatabase({ from: source, to: target, registry, log: bar.line, progress: bar.update }).finally(bar.finish);
        const rows = copied.reduce((sum, table) => sum + table.rows, 0);
        process.stdout.write(`copied ${rows} rows in ${copied.length} tables in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
        return 0;
      } catch (error) {
        if (!(error instanceof TargetNotEmptyError)) throw error;
        process.stderr.write(`content-api copy: ${error.message}\n`);
        return 1;
      }
    }),
  );
}
