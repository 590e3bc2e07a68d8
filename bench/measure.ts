/**
 * Measures one query against a running server over keep-alive HTTP: p50 latency of sequential
 * requests, then requests per second with N concurrent connections for a fixed time.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

export interface QueryFigures {
  /** Latency at one connection (ms). */
  p50: number;
  p99: number;
  /** Latency at `connections` connections (ms). */
  p50Loaded: number;
  p99Loaded: number;
  rps: number;
  bytes: number;
  statements: number;
  /** The server process's CPU time per request at `connections` connections (ms), when its pid is known. */
  cpuMsPerRequest: number | null;
}

export interface MeasureOptions {
  seconds: number;
  samples: number;
  connections: number;
  /** The server's process id, to read its CPU time (Linux /proc). */
  serverPid?: number;
}

/** A process's user and system CPU time so far (ms), from /proc; null elsewhere. */
function cpuMillis(pid: number): number | null {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesized command name, in clock ticks (100 Hz on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const percentile = (sorted: readonly number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;

interface Response {
  status: number;
  bytes: number;
  timing: string;
}

function get(agent: http.Agent, url: URL): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, timing: String(response.headers['server-timing'] ?? '') }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

export async function measureQuery(baseUrl: string, path: string, options: MeasureOptions): Promise<QueryFigures> {
  const url = new URL(path, baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  try {
    const first = await get(agent, url);
    if (first.status !== 200) {
      const body = await fetch(url).then((response) => response.text()).catch(() => '');
      throw new Error(`${path} answered ${first.status} (again: ${body.slice(0, 300)})`);
    }
    for (let i = 0; i < 5; i += 1) await get(agent, url);
    const latencies: number[] = [];
    for (let i = 0; i < options.samples; i += 1) {
      const started = performance.now();
      await get(agent, url);
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    let completed = 0;
    const loaded: number[] = [];
    const cpuBefore = options.serverPid ? cpuMillis(options.serverPid) : null;
    const deadline = performance.now() + options.seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < deadline) {
          const sent = performance.now();
          await get(agent, url);
          loaded.push(performance.now() - sent);
          completed += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = options.serverPid ? cpuMillis(options.serverPid) : null;
    loaded.sort((a, b) => a - b);
    const statements = Number(/statements=(\d+)/.exec(first.timing)?.[1] ?? NaN);
    return {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      p50Loaded: percentile(loaded, 0.5),
      p99Loaded: percentile(loaded, 0.99),
      rps: completed / elapsed,
      bytes: first.bytes,
      statements,
      cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && completed ? (cpuAfter - cpuBefore) / completed : null,
    };
  } finally {
    agent.destroy();
  }
}
