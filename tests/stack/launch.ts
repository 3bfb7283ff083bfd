/**
 * The stack's processes, started either from the sources (`node --import tsx`, as `npm start` does)
 * or from the built images (`docker run`, as a cluster does: non-root, read-only root filesystem,
 * host network). TROVE_STACK_IMAGES=<tag> selects the images trove-<app>:<tag>; TROVE_STACK_COMPOSE
 * attaches to the services of a running compose.yaml instead.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { type AppName, freePort, spawnTs, waitFor } from '../support/processes.ts';
import type { Requirement } from '../support/requirements.ts';

const run = promisify(execFile);
export const IMAGE_TAG = process.env.TROVE_STACK_IMAGES || undefined;
/** TROVE_STACK_COMPOSE=<project>: the stack compose.yaml runs (docker-compose -p <project> up), attached to, not started. */
export const COMPOSE_PROJECT = process.env.TROVE_STACK_COMPOSE || undefined;
export const MODE = COMPOSE_PROJECT ? 'compose services' : IMAGE_TAG ? 'containers' : 'processes';

/** The processes of the stack: the three APIs and the gRPC backends. */
export type StackApp = AppName | 'embedder' | 'vectorizer-worker';
const GRPC_BACKENDS: StackApp[] = ['embedder', 'vectorizer-worker'];

export interface Launched {
  name: string;
  /** The HTTP port: the API, or a backend's side port (/livez, /readyz, /metrics). */
  url: string;
  /** A backend's gRPC target (127.0.0.1:port); undefined for the APIs. */
  target?: string;
  logs(): Promise<string>;
  stop(): Promise<void>;
}

/** The containers mode needs a running engine and the built images. */
export const imagesRequirement: Requirement = {
  name: `Docker engine and the trove-*:${IMAGE_TAG} images`,
  absent() {
    if (spawnSync('docker', ['info'], { stdio: 'ignore' }).status !== 0) return 'no running Docker engine';
    for (const target of ['memory-api', 'vectorize-api', 'errors-api', 'embedder', 'vectorizer-worker', 'migrate']) {
      const image = `trove-${target}:${IMAGE_TAG}`;
      if (spawnSync('docker', ['image', 'inspect', image], { stdio: 'ignore' }).status !== 0)
        return `no image ${image}`;
    }
    return undefined;
  },
  install: "bash .ci/images.sh (starts dockerd from Debian's docker.io and builds the images)",
};

/** The compose mode needs the project's services up. */
export const composeRequirement: Requirement = {
  name: `compose.yaml services of project ${COMPOSE_PROJECT}`,
  absent() {
    const ps = spawnSync('docker-compose', [
      '-p',
      COMPOSE_PROJECT ?? '',
      '-f',
      'compose.yaml',
      'ps',
      '-q',
      'memory-api',
    ]);
    return ps.status === 0 && ps.stdout.toString().trim() ? undefined : 'the compose project is not running';
  },
  install: 'bash .ci/compose.sh (builds the images, starts compose.yaml)',
};

/** A compose.yaml service, reached on the host port it publishes; stop() leaves it running. */
export async function attach(service: string, name: string, port: number, grpc = false): Promise<Launched> {
  const compose = ['-p', COMPOSE_PROJECT as string, '-f', 'compose.yaml'];
  const published = (await run('docker-compose', [...compose, 'port', service, String(port)])).stdout.trim();
  const container = (await run('docker-compose', [...compose, 'ps', '-q', service])).stdout.trim();
  const url = `http://${published.replace(/^0\.0\.0\.0:/, '127.0.0.1:')}`;
  await waitFor(`${url}/readyz`, READY_TIMEOUT_MS);
  return {
    name,
    url,
    // The gRPC port is reached only inside the compose network; metrics tell a backend apart.
    ...(grpc ? { target: `${service}:grpc` } : {}),
    logs: async () => {
      const out = await run('docker', ['logs', container], { maxBuffer: 64 * 1024 * 1024 });
      return out.stdout + out.stderr;
    },
    stop: async () => undefined,
  };
}

const READY_TIMEOUT_MS = 180_000;

export async function launch(app: StackApp, name: string, env: Record<string, string>): Promise<Launched> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const grpcPort = GRPC_BACKENDS.includes(app) ? await freePort() : undefined;
  const target = grpcPort === undefined ? undefined : `127.0.0.1:${grpcPort}`;
  const all: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ...(grpcPort === undefined ? {} : { GRPC_PORT: String(grpcPort) }),
    ...env,
  };
  if (!IMAGE_TAG) {
    const child = spawnTs(`apps/${app}/src/server.ts`, all);
    await waitFor(`${url}/readyz`, READY_TIMEOUT_MS, child.exit).catch((err: Error) => {
      child.child.kill('SIGKILL');
      throw new Error(`${name}: ${err.message}\n${child.output()}`);
    });
    return {
      name,
      url,
      ...(target ? { target } : {}),
      logs: async () => child.output(),
      stop: async () => {
        if (child.child.exitCode === null) child.child.kill('SIGTERM');
        await child.exit;
      },
    };
  }
  const container = `trove-stack-${name}-${process.pid}`;
  const envArgs = Object.entries(all).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  await run('docker', [
    'run',
    '-d',
    '--name',
    container,
    '--network',
    'host',
    '--read-only',
    '--tmpfs',
    '/tmp',
    '--tmpfs',
    '/data:uid=1000',
    ...envArgs,
    `trove-${app}:${IMAGE_TAG}`,
  ]);
  const logs = async () => {
    const out = await run('docker', ['logs', container], { maxBuffer: 64 * 1024 * 1024 });
    return out.stdout + out.stderr;
  };
  await waitFor(`${url}/readyz`, READY_TIMEOUT_MS).catch(async (err: Error) => {
    const text = await logs().catch(() => '');
    await run('docker', ['rm', '-f', container]).catch(() => undefined);
    throw new Error(`${name}: ${err.message}\n${text}`);
  });
  return {
    name,
    url,
    ...(target ? { target } : {}),
    logs,
    stop: async () => {
      await run('docker', ['stop', '-t', '20', container]).catch(() => undefined);
      await run('docker', ['rm', '-f', container]).catch(() => undefined);
    },
  };
}

/** Applies one app's migrations to a database: the migrate command, or the migrate image. */
export async function migrate(app: 'memory-api' | 'errors-api', databaseUrl: string): Promise<string> {
  if (!IMAGE_TAG) {
    const child = spawnTs(`apps/${app}/src/migrate.ts`, { DATABASE_URL: databaseUrl, LOG_FORMAT: 'json' });
    const { code } = await child.exit;
    if (code !== 0) throw new Error(`migrate ${app} exited ${code}: ${child.output()}`);
    return child.output();
  }
  const out = await run('docker', [
    'run',
    '--rm',
    '--network',
    'host',
    '--read-only',
    '--tmpfs',
    '/tmp',
    '-e',
    `DATABASE_URL=${databaseUrl}`,
    `trove-migrate:${IMAGE_TAG}`,
    app,
  ]);
  return out.stdout + out.stderr;
}
