import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort } from './processes.ts';

export interface OwnRedis {
  url: string;
  port: number;
  /** The server's process id (for SIGSTOP/SIGCONT); undefined once it has been killed. */
  readonly pid: number | undefined;
  /** Kills the server (SIGKILL: a crash, not a clean shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
}

/** True once something on the port answers PING with PONG. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      resolve(String(data).startsWith('+PONG'));
      socket.destroy();
    });
    for (const event of ['error', 'timeout', 'close']) {
      socket.once(event, () => {
        resolve(false);
        socket.destroy();
      });
    }
  });
}

/**
 * A Redis server of the test's own (`redis-server` on a free port, nothing saved to disk), for tests
 * that stop it. Ask for it with `missing('redis-server')` first.
 */
export async function startOwnRedis(timeoutMs = 30_000): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + timeoutMs;
    while (!(await pong(port))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    async kill() {
      // A server already killed by a signal has no exit code but a signal code, and will not exit again.
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    restart: start,
  };
}
