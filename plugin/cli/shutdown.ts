/**
 * Graceful shutdown of `serve`: on the first SIGTERM or SIGINT the server stops accepting
 * connections, requests in flight run to their end (their answers close the connection), idle
 * keep-alive connections are closed, and whatever still runs after `drainMs` is cut off. A second
 * signal cuts off at once.
 */
import type { Server } from 'node:http';

/**
 * Settles, with the signal, once the server has closed after one. `draining` is told at the
 * first signal (answers should then close their connection).
 */
export function shutdownOnSignals(
  server: Server,
  drainMs: number,
  draining: (line: string) => void,
  signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): Promise<NodeJS.Signals> {
  const state = { draining: false };
  return new Promise<NodeJS.Signals>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (state.draining) {
        server.closeAllConnections();
        return;
      }
      state.draining = true;
      draining(`${signal}: no new connections; finishing the requests in flight (at most ${drainMs} ms)`);
      server.close(() => resolve(signal));
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), drainMs).unref();
    };
    for (const signal of signals) process.on(signal, stop);
  });
}
