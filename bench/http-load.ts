/**
 * The HTTP load of `npm run test:load`: keep-alive connections sending requests until a deadline,
 * with every answer's status and time, and what went wrong. `loadInThread` runs a load in a
 * worker thread of its own, so that a heavy load's responses (megabytes each) are read on another
 * event loop than the light requests timed beside it: their latency is then the server's, not
 * the load generator's.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';

export interface Answer {
  readonly status: number;
  readonly milliseconds: number;
  readonly enveloped: boolean;
}

export interface Tally {
  readonly answers: Answer[];
  readonly failures: string[];
}

function get(agent: http.Agent, url: URL, headers: http.OutgoingHttpHeaders): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      const status = response.statusCode ?? 0;
      response.on('data', (chunk: Buffer) => {
        // Only an error's body is read; a 200's is counted, not kept.
        if (status >= 400) chunks.push(chunk);
      });
      response.on('end', () => {
        let enveloped = status < 400;
        if (!enveloped) {
          try {
            enveloped = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.error?.status === status;
          } catch {
            enveloped = false;
          }
        }
        resolve({ status, milliseconds: performance.now() - started, enveloped });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Sends `next()` on `connections` keep-alive connections until `seconds` have passed (with `headers`: another caller, by its token). */
export async function load(baseUrl: string, connections: number, seconds: number, next: () => string, tally: Tally, headers: http.OutgoingHttpHeaders = {}): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const path = next();
          try {
            const answer = await get(agent, new URL(path, baseUrl), headers);
            tally.answers.push(answer);
            if ((answer.status >= 500 && answer.status !== 503) || !answer.enveloped) tally.failures.push(`${answer.status} for ${path.slice(0, 200)}`);
            // A 503 carries Retry-After; a polite client waits a little before trying again.
            if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
          } catch (error) {
            tally.failures.push(`${(error as Error).message} for ${path.slice(0, 200)}`);
          }
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}

export const tally = (): Tally => ({ answers: [], failures: [] });

/** `load`, in a worker thread of its own, sending `paths` in turn. */
export function loadInThread(baseUrl: string, connections: number, seconds: number, paths: readonly string[]): Promise<Tally> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-thread.js', import.meta.url), { workerData: { baseUrl, connections, seconds, paths } });
    worker.once('message', (result: Tally) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the load thread exited with ${code}`))));
  });
}
