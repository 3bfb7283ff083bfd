/**
 * apps/vectorizer-worker as its own process on loopback, as tests and benchmarks use it: real gRPC
 * on GRPC_PORT, /livez /readyz /metrics on PORT.
 */
import { freePort, type Spawned, spawnTs, waitFor } from './processes.ts';

export interface RunningWorker extends Spawned {
  /** gRPC address, e.g. 127.0.0.1:40123. */
  target: string;
  /** The side port: /livez, /readyz, /metrics. */
  httpUrl: string;
  /** SIGTERM (graceful: in-flight jobs finish), then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: the process dies on the spot, as a crashed pod does. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a vectorizer-worker and waits until its threads are warm (/readyz). */
export async function startVectorizerWorker(env: Record<string, string> = {}): Promise<RunningWorker> {
  const [grpcPort, httpPort] = [await freePort(), await freePort()];
  const spawned = spawnTs('apps/vectorizer-worker/src/server.ts', {
    HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPort),
    PORT: String(httpPort),
    TRACE_THREADS: '1',
    ...env,
  });
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  try {
    await waitFor(`${httpUrl}/readyz`, 120_000, spawned.exit);
  } catch (err) {
    spawned.child.kill('SIGKILL');
    throw new Error(`vectorizer-worker did not start: ${(err as Error).message}\n${spawned.output().slice(-3000)}`);
  }
  const signal = (name: NodeJS.Signals) => async () => {
    if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(name);
    return spawned.exit;
  };
  return { ...spawned, target: `127.0.0.1:${grpcPort}`, httpUrl, stop: signal('SIGTERM'), kill: signal('SIGKILL') };
}

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
