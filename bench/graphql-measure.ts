/**
 * One request measured against a running server over keep-alive HTTP, for the GraphQL bench: the
 * statements its first answer reports, p50 and p99 of sequential requests, then requests per
 * second at N connections after a warm-up. The windows stretch for a slow server (a request of a
 * second or more): the warm-up lasts until every connection has had an answer, and the measured
 * window until it holds at least one answer per connection.
 */
import http from 'node:http';

export interface BenchRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

export interface RequestFigures {
  readonly statements: number;
  readonly bytes: number;
  readonly p50: number;
  readonly p99: number;
  readonly rps: number;
}

export interface RequestMeasureOptions {
  readonly seconds: number;
  readonly samples: number;
  readonly connections: number;
  /** Where the server reports the statements a request ran. */
  readonly statementsOf: (headers: http.IncomingHttpHeaders) => number;
}

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: http.IncomingHttpHeaders;
}

function send(agent: http.Agent, base: URL, request: BenchRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = request.body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(request.body)) } : {};
    const sent = http.request(new URL(request.path, base), { agent, method: request.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(request.body);
  });
}

/**
 * `send`, sent again when the server reset the connection before answering: a slow server under
 * load closes a keep-alive connection it finds idle just as the next request goes out on it.
 */
async function sendAgainOnReset(agent: http.Agent, base: URL, request: BenchRequest): Promise<Answer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send(agent, base, request);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' || attempt === 3) throw error;
    }
  }
}

const percentile = (sorted: readonly number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;

/** The answer must be a 200 with data and no GraphQL error: a refusal measured would flatter either side. */
function checked(answer: Answer, label: string): Answer {
  const errors = answer.status === 200 ? (JSON.parse(answer.text) as { errors?: unknown[] }).errors : undefined;
  if (answer.status !== 200 || errors?.length) throw new Error(`${label} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  return answer;
}

async function load(agent: http.Agent, base: URL, request: BenchRequest, options: RequestMeasureOptions): Promise<number> {
  const warmUntil = performance.now() + Math.min(1, options.seconds / 2) * 1000;
  let windowStart = 0;
  let warmConnections = 0;
  let completions = 0;
  let lastAt = 0;
  const windowDone = () => windowStart > 0 && performance.now() - windowStart >= options.seconds * 1000 && completions >= options.connections;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      let warm = false;
      while (!windowDone()) {
        const answer = await sendAgainOnReset(agent, base, request);
        if (answer.status !== 200) throw new Error(`answered ${answer.status} under load: ${answer.text.slice(0, 300)}`);
        const at = performance.now();
        if (!warm) {
          warm = true;
          warmConnections += 1;
        }
        if (windowStart === 0 && warmConnections === options.connections && at >= warmUntil) {
          windowStart = at;
        } else if (windowStart > 0) {
          completions += 1;
          lastAt = at;
        }
      }
    }),
  );
  return completions / ((lastAt - windowStart) / 1000);
}

export async function measureRequest(baseUrl: string, request: BenchRequest, label: string, options: RequestMeasureOptions): Promise<RequestFigures> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  try {
    const first = checked(await send(agent, base, request), label);
    const statements = options.statementsOf(first.headers);
    const latencies: number[] = [];
    const until = performance.now() + options.seconds * 1000;
    while (latencies.length < options.samples && (latencies.length < 3 || performance.now() < until)) {
      const started = performance.now();
      checked(await sendAgainOnReset(agent, base, request), label);
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    const rps = await load(agent, base, request, options);
    return { statements, bytes: Buffer.byteLength(first.text), p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), rps };
  } finally {
    agent.destroy();
  }
}
