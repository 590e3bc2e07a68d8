/** A worker thread of `loadInThread` (http-load.ts): runs its load and posts back what it tallied. */
import { parentPort, workerData } from 'node:worker_threads';
import { load, tally } from './http-load.js';

const { baseUrl, connections, seconds, paths } = workerData as { baseUrl: string; connections: number; seconds: number; paths: readonly string[] };
const result = tally();
let turn = 0;
await load(baseUrl, connections, seconds, () => paths[turn++ % paths.length]!, result);
parentPort!.postMessage(result);
