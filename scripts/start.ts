/**
 * `npm start`: runs the three APIs on this machine with their embedded defaults (no database or
 * Redis server needed), waits until each answers its health check, and prints the addresses.
 * Ctrl+C (or SIGTERM) stops them gracefully. Ports: MEMORY_API_PORT, VECTORIZE_API_PORT,
 * ERRORS_API_PORT (8767, 8768, 8769). Embedded data goes under DATA_ROOT (./data), one directory
 * per app. They listen on 127.0.0.1 unless HOST is set. Every other variable is passed to the apps
 * as is.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ConfigError, EXIT_CONFIG, env, loadConfig } from '@trove/service-kit';
import { ROOT } from './prisma-tools.ts';

const APPS = [
  { name: 'memory-api', portVar: 'MEMORY_API_PORT', port: 8767, health: '/health' },
  { name: 'vectorize-api', portVar: 'VECTORIZE_API_PORT', port: 8768, health: '/v1/health' },
  { name: 'errors-api', portVar: 'ERRORS_API_PORT', port: 8769, health: '/health' },
] as const;

// A bound for a hang, not for speed: a first start on a busy machine builds the GloVe cache too.
const STARTUP_TIMEOUT_MS = 300_000;

// The launcher's own variables, validated like every service's (one line naming the variable).
let ports: Record<string, number>;
try {
  ports = loadConfig(
    Object.fromEntries(
      APPS.map((app) => [app.portVar, env.port({ description: `port of ${app.name}`, default: app.port })]),
    ),
    process.env,
  ) as Record<string, number>;
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(EXIT_CONFIG);
}

const running = APPS.map((app) => {
  const port = ports[app.portVar] as number;
  const dataRoot = process.env.DATA_ROOT || './data';
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps', app.name, 'src/server.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      // A laptop run stays on this machine unless HOST says otherwise; containers bind 0.0.0.0.
      HOST: process.env.HOST || '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(dataRoot, app.name),
      LOG_FORMAT: process.env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    },
  });
  return { ...app, port, child, exited: new Promise<number>((done) => child.on('exit', (code) => done(code ?? 1))) };
});

let stopping = false;
async function stopAll(exitCode: number): Promise<never> {
  stopping = true;
  for (const { child } of running) if (child.exitCode === null) child.kill('SIGTERM');
  const codes = await Promise.all(running.map((r) => r.exited));
  process.exit(exitCode || (codes.every((c) => c === 0) ? 0 : 1));
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

for (const app of running) {
  app.exited.then((code) => {
    if (stopping) return;
    console.error(`${app.name} exited with code ${code}; stopping the others`);
    void stopAll(code || 1);
  });
}

async function waitHealthy(app: (typeof running)[number], child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const res = await fetch(`http://127.0.0.1:${app.port}${app.health}`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `${app.name} did not answer http://127.0.0.1:${app.port}${app.health} within ${STARTUP_TIMEOUT_MS / 1000} s`,
  );
}

const healthy = new Set<string>();
const started = Date.now();
console.log(
  `starting ${running.map((a) => a.name).join(', ')} (a first start also compiles the TypeScript and builds the GloVe cache, so it takes longer than later ones)`,
);
// Says what it is still waiting for, so a slow first start (the GloVe cache) is not a silent one.
const progress = setInterval(() => {
  const waiting = running.filter((a) => !healthy.has(a.name));
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `waiting ${seconds} s for ${waiting.map((a) => `${a.name} (http://127.0.0.1:${a.port}${a.health})`).join(', ')}`,
  );
}, 5_000);
try {
  await Promise.all(
    running.map(async (app) => {
      await waitHealthy(app, app.child);
      healthy.add(app.name);
    }),
  );
} catch (err) {
  if (!stopping) {
    console.error((err as Error).message);
    await stopAll(1);
  }
}
clearInterval(progress);
if (!stopping) {
  const lines = running.map((a) => `  ${a.name.padEnd(14)} http://localhost:${a.port}   (health: ${a.health})`);
  console.log(`\nTrove is running:\n${lines.join('\n')}\nPress Ctrl+C to stop.\n`);
}
