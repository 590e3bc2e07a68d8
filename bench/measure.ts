/**
 * Measures one query against a running server over keep-alive HTTP: p50 latency of sequential
 * requests, then requests per second with N concurrent connections for a fixed time.
 */
import http from 'node:http';

export interface QueryFigures {
  p50: number;
  rps: number;
  bytes: number;
  statements: number;
}

export interface MeasureOptions {
  seconds: number;
  samples: number;
  connections: number;
}

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
    if (first.status !== 200) throw new Error(`${path} answered ${first.status}`);
    for (let i = 0; i < 5; i += 1) await get(agent, url);
    const latencies: number[] = [];
    for (let i = 0; i < options.samples; i += 1) {
      const started = performance.now();
      await get(agent, url);
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    let completed = 0;
    const deadline = performance.now() + options.seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < deadline) {
          await get(agent, url);
          completed += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const statements = Number(/statements=(\d+)/.exec(first.timing)?.[1] ?? NaN);
    return { p50: latencies[Math.floor(latencies.length / 2)], rps: completed / elapsed, bytes: first.bytes, statements };
  } finally {
    agent.destroy();
  }
}
