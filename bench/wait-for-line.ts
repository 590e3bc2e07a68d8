/** Resolves once a child process has printed `line` on its stdout (a server saying it listens); fails if it exits first. */
import type { ChildProcess } from 'node:child_process';

export function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(line)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}
