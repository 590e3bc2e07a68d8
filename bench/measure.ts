/**
 * Measures one query against a running server over keep-alive HTTP: p50 latency of sequential
 * requests, then, after a warm-up, requests per second with N concurrent connections for a fixed
 * time, with the server's CPU and this process's (the load generator shares the machine's cores)
 * over that time.
 */
import http from 'node:http';
import { cpuSpent, type CpuReading } from './proc-cpu.js';

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
  /** The server's CPU time per request at `connections` connections (ms), when it can be read. */
  cpuMsPerRequest: number | null;
  /** This process's CPU (the load generator's) while loading, in % of one core. */
  loaderCpuPercent: number;
}

export interface MeasureOptions {
  seconds: number;
  samples: number;
  connections: number;
  /** Seconds of the same load before the measured one (default: half of `seconds`, at most 1). */
  warmupSeconds?: number;
  /** The CPU the server has used so far (see engines.ts: its processes, and PostgreSQL's backends serving it). */
  serverCpu?: () => Promise<CpuReading>;
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

/** One request of a load: when it completed, and its latency (ms). */
interface Completion {
  readonly at: number;
  readonly latency: number;
}

/**
 * `connections` connections sending `url` until `deadline` (performance.now() time), each request
 * sent when the connection's last one completed; `onEachCompletion` runs after each.
 */
async function loadUntil(agent: http.Agent, url: URL, connections: number, deadline: number, onEachCompletion: () => void): Promise<Completion[]> {
  const completions: Completion[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        await get(agent, url);
        const at = performance.now();
        completions.push({ at, latency: at - sent });
        onEachCompletion();
      }
    }),
  );
  return completions;
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
    // The load runs a warm-up first, unmeasured: a server that has just started (or just served
    // another query) runs this query's code unoptimized for its first thousands of requests — the
    // first query of a run measured at half its speed without it. The load does not pause between
    // the two: connections left idle while the slowest request of a warm-up completes would outlast
    // a server's keep-alive timeout, and a request sent as the server closes one is reset.
    const warmupSeconds = options.warmupSeconds ?? Math.min(1, options.seconds / 2);
    const warmedUp = performance.now() + warmupSeconds * 1000;
    let cpuBefore: Promise<CpuReading> | null = null;
    let loaderBefore: NodeJS.CpuUsage | null = null;
    const startMeasuring = () => {
      if (loaderBefore || performance.now() < warmedUp) return;
      loaderBefore = process.cpuUsage();
      cpuBefore = options.serverCpu ? options.serverCpu() : null;
    };
    const completions = await loadUntil(agent, url, options.connections, warmedUp + options.seconds * 1000, startMeasuring);
    const started = Math.max(warmedUp, completions.find((completion) => completion.at >= warmedUp)?.at ?? warmedUp);
    const loaded = completions.filter((completion) => completion.at > started).map((completion) => completion.latency);
    const completed = loaded.length;
    const elapsed = (performance.now() - started) / 1000;
    const loader = process.cpuUsage(loaderBefore ?? undefined);
    const cpuAfter = options.serverCpu ? await options.serverCpu() : null;
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
      cpuMsPerRequest: cpuBefore && cpuAfter?.size && completed ? cpuSpent(await cpuBefore, cpuAfter) / completed : null,
      loaderCpuPercent: ((loader.user + loader.system) / 1000 / (elapsed * 1000)) * 100,
    };
  } finally {
    agent.destroy();
  }
}
