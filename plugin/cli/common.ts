/**
 * What the commands share: options parsed strictly (a usage error exits 2), the schema loaded
 * (its problems exit 1, printed by the dispatcher), databases opened for writing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Knex } from 'knex';
import { openDatabase, parseDatabaseUrl, type DatabaseLocation } from '../storage/database.js';

/** A command line the command cannot read; the dispatcher prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `--help` or `-h` on a command: the dispatcher prints its usage and exits 0. */
export class HelpRequested extends Error {
  constructor(readonly usage: string) {
    super('help requested');
    this.name = 'HelpRequested';
  }
}

/** The options every database command takes; `DATABASE_URL` is the default database. */
export const SCHEMA_AND_DATABASE = {
  root: { type: 'string', default: '.' },
  database: { type: 'string', default: process.env.DATABASE_URL || 'sqlite:.data/content.db' },
} as const;

type Options = NonNullable<ParseArgsConfig['options']>;

/** A flag's help: `[ARG, explanation]` for a flag that takes a value, the explanation alone for a switch. */
export type FlagHelp = string | readonly [argument: string, explanation: string];

/**
 * A command's `--help`: its usage line, then one line per flag. `flags` must name every option,
 * so a new option without help does not compile.
 */
export function commandHelp<T extends Options>(synopsis: string, options: T, flags: { readonly [K in keyof T]: FlagHelp }): string {
  const rows = Object.keys(options).map((name) => {
    const help = flags[name as keyof T];
    const short = options[name]?.short ? `-${options[name].short}, ` : '';
    return typeof help === 'string' ? [`${short}--${name}`, help] : [`${short}--${name} ${help[0]}`, help[1]];
  });
  rows.push(['-h, --help', 'print this help']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return `usage: content-api ${synopsis}\n\noptions:\n${rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`).join('\n')}\n`;
}

/** The help of {@link SCHEMA_AND_DATABASE}. */
export const SCHEMA_AND_DATABASE_HELP = {
  root: ['DIR', 'the schema folder: content-types/, components/, permissions.yaml (default .)'],
  database: ['URL', 'sqlite:<path>, postgres://user@host:port/db or mysql://user@host:port/db (default $DATABASE_URL, else sqlite:.data/content.db)'],
} as const;
type Parsed<T extends Options, P extends boolean> = ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: P }>>;

/** parseArgs, strict, with a UsageError carrying `usage` on anything unexpected; `--help` asks for the usage. */
export function parseCommand<T extends Options, P extends boolean = false>(args: string[], options: T, usage: string, positionals?: P): Parsed<T, P> {
  if (args.includes('--help') || args.includes('-h')) throw new HelpRequested(usage);
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: (positionals ?? false) as P });
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

/** The location of a database URL, with the folder of a SQLite file created. */
export function prepareDatabase(url: string, { create = true } = {}): DatabaseLocation {
  const location = parseDatabaseUrl(url);
  if (create && location.client === 'sqlite' && location.target !== ':memory:') mkdirSync(dirname(location.target), { recursive: true });
  return location;
}

/** Opens a database for a one-off command (one connection) and closes it after `work`. */
export async function withDatabase<T>(location: string | DatabaseLocation, work: (knex: Knex) => Promise<T>): Promise<T> {
  const knex = openDatabase(location, { poolSize: 1 });
  try {
    return await work(knex);
  } finally {
    await knex.destroy();
  }
}

/** `1 change`, `2 changes` */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Writes generated text to `out` (its folder created), saying so, or to stdout when no file is named. */
export function writeOutput(out: string | undefined, text: string): void {
  if (!out) {
    process.stdout.write(text);
    return;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  process.stdout.write(`wrote ${out}\n`);
}
