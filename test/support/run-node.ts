/**
 * A Node script (the compiled CLI, tsc, mocha) run in a child process as a user runs it: what it
 * printed and its exit code, once it has exited.
 */
import { spawn } from 'node:child_process';
import { cliPath, repoRoot } from './server.js';

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runNode(args: readonly string[], cwd = repoRoot, env: NodeJS.ProcessEnv = process.env): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `content-api <args>` from the compiled CLI. */
export function runCli(args: readonly string[], cwd = repoRoot, env?: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return runNode([cliPath, ...args], cwd, env);
}
