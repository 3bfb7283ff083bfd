import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export type AppName = 'memory-api' | 'vectorize-api' | 'errors-api';
export const HEALTH_PATH: Record<AppName, string> = {
  'memory-api': '/health',
  'vectorize-api': '/v1/health',
  'errors-api': '/health',
};

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface Spawned {
  child: ChildProcess;
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Where the test run's bundles of the apps lie (set by the global setup, bundles.ts). */
export const BUNDLES_ENV = 'TROVE_TEST_BUNDLES';

/**
 * Node's arguments that run `entry`: an app's entry point from the run's bundle where there is one
 * (bundles.ts), as production runs it; anything else from its TypeScript source through tsx.
 */
export function entryCommand(entry: string): string[] {
  const app = /^apps\/([a-z-]+)\/src\/([a-z-]+)\.ts$/.exec(entry);
  const bundles = process.env[BUNDLES_ENV];
  if (app && bundles) {
    const bundled = join(bundles, app[1] as string, 'apps', app[1] as string, 'dist', `${app[2]}.mjs`);
    if (existsSync(bundled)) return [bundled];
  }
  return ['--import', 'tsx', join(ROOT, entry)];
}

/** Runs an entry point of the repository as its own process, as production would (see `entryCommand`). */
export function spawnTs(entry: string, env: Record<string, string>, args: string[] = []): Spawned {
  const child = spawn(process.execPath, [...entryCommand(entry), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (d) => {
    text += d;
  });
  child.stderr?.on('data', (d) => {
    text += d;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  return { child, output: () => text, exit };
}

export async function waitFor(url: string, timeoutMs = 60_000, exited?: Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  exited?.then(() => {
    gone = true;
  });
  while (Date.now() < deadline && !gone) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(gone ? `process exited before ${url} answered` : `${url} did not answer within ${timeoutMs} ms`);
}

export interface RunningApp extends Spawned {
  port: number;
  url: string;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startApp(app: AppName, env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort();
  const spawned = spawnTs(`apps/${app}/src/server.ts`, { HOST: '127.0.0.1', PORT: String(port), ...env });
  const url = `http://127.0.0.1:${port}`;
  try {
    // Generous: correctness, not this machine's speed (a busy machine starts an app in tens of seconds).
    await waitFor(`${url}${HEALTH_PATH[app]}`, 150_000, spawned.exit);
  } catch (err) {
    spawned.child.kill('SIGKILL');
    throw new Error(`${app} did not start: ${(err as Error).message}; its output:\n${spawned.output().slice(-3000)}`);
  }
  return {
    ...spawned,
    port,
    url,
    stop: async () => {
      if (spawned.child.exitCode === null) spawned.child.kill('SIGTERM');
      return spawned.exit;
    },
  };
}

/** A gRPC back end (embedder, vectorizer-worker) started as its own process on loopback. */
export interface RunningBackend extends Spawned {
  /** gRPC target, e.g. 127.0.0.1:40123. */
  target: string;
  /** The side port: /livez, /readyz, /metrics. */
  httpUrl: string;
  /** SIGTERM (graceful: calls in flight finish), then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: the process dies on the spot, as a crashed pod does. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a gRPC back end on free ports and waits until it reports ready (/readyz). */
export async function startGrpcBackend(
  app: 'embedder' | 'vectorizer-worker',
  env: Record<string, string> = {},
): Promise<RunningBackend> {
  const [grpcPort, httpPort] = [await freePort(), await freePort()];
  const spawned = spawnTs(`apps/${app}/src/server.ts`, {
    HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPort),
    PORT: String(httpPort),
    ...env,
  });
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  try {
    // Generous: correctness, not this machine's speed (loading a model on a busy machine).
    await waitFor(`${httpUrl}/readyz`, 120_000, spawned.exit);
  } catch (err) {
    spawned.child.kill('SIGKILL');
    throw new Error(`${app} did not start: ${(err as Error).message}\n${spawned.output().slice(-3000)}`);
  }
  const signal = (name: NodeJS.Signals) => async () => {
    if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(name);
    return spawned.exit;
  };
  return { ...spawned, target: `127.0.0.1:${grpcPort}`, httpUrl, stop: signal('SIGTERM'), kill: signal('SIGKILL') };
}

export type RunningEmbedder = RunningBackend;

/** Starts apps/embedder as its own process on loopback and waits until its model is loaded. */
export const startEmbedder = (env: Record<string, string> = {}) => startGrpcBackend('embedder', env);
