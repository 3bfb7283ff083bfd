/**
 * apps/vectorizer-worker as its own process on loopback, as tests and benchmarks use it: real gRPC
 * on GRPC_PORT, /livez /readyz /metrics on PORT.
 */
import { type RunningBackend, startGrpcBackend } from './processes.ts';

export type RunningWorker = RunningBackend;

/** Starts a vectorizer-worker (one thread unless `env` says otherwise) and waits until its threads are warm. */
export const startVectorizerWorker = (env: Record<string, string> = {}): Promise<RunningWorker> =>
  startGrpcBackend('vectorizer-worker', { TRACE_THREADS: '1', ...env });

/**
 * The sum of a metric's samples on a /metrics page whose labels include all of `labels`
 * (e.g. vectorize_pool_cancelled_jobs_total with { reason: 'cancelled' }).
 */
export async function metricValue(httpUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([\w:]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labelText = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`)))
      sum += Number(match[3]);
  }
  return sum;
}
