import { fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import type { PayloadSet } from './payloads.ts';

const WARMUP_SECONDS = 1;
const MAX_REQUESTS = Number(process.env.BENCH_MAX_REQUESTS ?? 100_000);

export interface LoadResult {
  /** Latency of each request answered 200 after the warm-up. */
  latencies: number[];
  errors: number;
  elapsedS: number;
  /** Requests answered 200 during the warm-up. */
  warmupAnswered: number;
}

/**
 * `concurrency` clients sending `set`'s envelopes to `url` for `seconds` after a second of warm-up,
 * over loopback from a worker thread (so the server's event loop is not the client's) or, with
 * `inChild`, from a child process (so the server process's CPU time is the server's alone).
 */
export function load(url: string, set: PayloadSet, concurrency: number, seconds: number, inChild = false) {
  const settings = {
    url,
    concurrency,
    seconds,
    warmupSeconds: WARMUP_SECONDS,
    maxRequests: MAX_REQUESTS,
    gzip: set.gzip,
    tails: set.tails,
    tailLengths: set.tailLengths,
  };
  const script = new URL('./load-worker.mjs', import.meta.url);
  return new Promise<LoadResult>((resolve, reject) => {
    const runner = inChild
      ? fork(script, [], { serialization: 'advanced', execArgv: [] }).on('exit', (code) => {
          if (code !== 0) reject(new Error(`the load process exited ${code}`));
        })
      : new Worker(script, { workerData: settings });
    runner.once('message', (result) => resolve(result as LoadResult));
    runner.once('error', reject);
    if (inChild) (runner as ReturnType<typeof fork>).send(settings);
  });
}
