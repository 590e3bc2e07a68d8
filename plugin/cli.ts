#!/usr/bin/env node
/**
 * `content-api <command> [options]`: each command lives in plugin/cli/<command>.ts and returns
 * its exit code.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { HelpRequested, UsageError } from './cli/common.js';
import { SchemaError } from './schema/problems.js';

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run(args: string[]): Promise<number> }> }> = {
  serve: { summary: 'serve the API (--root DIR --database URL --host H --port P --no-sync --seed --watch --cors ORIGINS --locales CODES --quiet)', load: () => import('./cli/serve.js') },
  explain: { summary: "print the SQL a request compiles to ('<path?query>' [--dialect sqlite|postgres|mysql] [--role R])", load: () => import('./cli/explain.js') },
  permissions: { summary: "what a role may do per type, rules included (--role R [--explain '<path?query>'])", load: () => import('./cli/permissions.js') },
  token: { summary: 'create, list or revoke API tokens (create --role R --name N [--expires DATE] | list | revoke --name N)', load: () => import('./cli/token.js') },
  sync: { summary: 'create the missing tables, columns and indexes (--root DIR --database URL)', load: () => import('./cli/sync.js') },
  seed: { summary: 'fill an empty database with the demo data, or a data file (--data FILE --root DIR --database URL)', load: () => import('./cli/seed.js') },
  copy: { summary: 'copy the schema\'s tables between databases (--from URL --to URL [--root DIR])', load: () => import('./cli/copy.js') },
  init: { summary: 'scaffold a new app: a content type, permissions, app.ts, a tested data file ([DIR])', load: () => import('./cli/init.js') },
  check: { summary: 'validate the schema files and permissions.yaml (--root DIR); exit 1 with every problem', load: () => import('./cli/check.js') },
  webhooks: { summary: 'see and replay webhook deliveries (list | deliveries [--target NAME] [--state S] | retry <id>)', load: () => import('./cli/webhooks.js') },
  openapi: { summary: 'print the OpenAPI 3.1 document of a role ([--root DIR] [--role R] [--out FILE])', load: () => import('./cli/openapi.js') },
  types: { summary: 'write TypeScript types of the API\'s responses ([--root DIR] [--out FILE])', load: () => import('./cli/types.js') },
  'graphql-schema': { summary: 'print the GraphQL schema (SDL) Strapi\'s GraphQL plugin generates ([--root DIR] [--out FILE])', load: () => import('./cli/graphql-schema.js') },
  'import-strapi': { summary: 'convert a Strapi v4 app\'s schema.json files to YAML (<app-dir> [--out DIR])', load: () => import('./cli/import-strapi.js') },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(15)} ${command.summary}`);
  return `usage: content-api <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n  content-api <command> --help   every flag of a command\n  content-api --version          the version of koa-content-api\n  --verbose                      on any command: a failure prints its stack\n`;
}

/** The version in the package's own package.json, two folders up from dist/plugin/cli.js. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  // `--verbose` anywhere: unexpected failures print their stack, not just their message.
  const verbose = argv.includes('--verbose');
  const [name, ...args] = argv.filter((arg) => arg !== '--verbose');
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  // `help serve` is `serve --help`.
  if (name === 'help' && args.length === 1 && Object.hasOwn(COMMANDS, args[0]!)) return main([args[0]!, '--help']);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`content-api: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    return await (await command.load()).run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`content-api ${name}: ${error.message}\n${error.usage}`);
      return 2;
    }
    if (error instanceof HelpRequested) {
      process.stdout.write(error.usage);
      return 0;
    }
    if (error instanceof SchemaError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    // By name: the CLI loads no database code before a command needs it.
    if (error instanceof Error && error.name === 'DatabaseUnavailable' && !verbose) {
      process.stderr.write(`content-api ${name}: ${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? (verbose ? (error.stack ?? error.message) : error.message) : inspect(error, { depth: 2, breakLength: Infinity });
    process.stderr.write(`content-api ${name}: ${message}${verbose ? '' : ' (--verbose for details)'}\n`);
    return 1;
  }
}

/**
 * Whether this module is the program being run. npm installs the bin as a symlink
 * (node_modules/.bin/content-api), so both sides are compared as real paths.
 */
function isMainModule(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(fileURLToPath(import.meta.url)) === realpathSync(script);
  } catch {
    return false;
  }
}

/**
 * A reader that stops early (`content-api explain … | head`) closes the pipe: the output it took
 * is all that was wanted, so the command ends quietly, as Unix tools do, rather than with a stack.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

/** Runs the command line of this process: `node dist/plugin/cli.js …`, or the package's `content-api` command (bin/content-api.js). */
export function runCli(): void {
  endQuietlyOnClosedPipe();
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`content-api: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

if (isMainModule()) runCli();
