/**
 * Vitest global setup: when a test worker process ends before vitest asked it to stop, prints its
 * exit code, its signal and the test files it was running. Vitest 4 reports such a death only as
 * "Worker exited unexpectedly", which cannot tell a crash (SIGSEGV, SIGABRT) from the kernel's OOM
 * killer (SIGKILL), a fatal V8 error or an exit the worker chose.
 *
 * Vitest's forks pool starts each worker with `child_process.fork`; this wraps that function (and
 * updates the live ES module binding the pool imported) to watch the messages sent to each worker.
 */
import childProcess, { type ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

interface WorkerRequest {
  __vitest_worker_request__?: boolean;
  type?: string;
  context?: { files?: { filepath?: string }[] };
}

function watch(child: ChildProcess): void {
  let files: string[] = [];
  let stopping = false;
  const send = child.send.bind(child) as (message: unknown, ...rest: unknown[]) => boolean;
  child.send = ((message: unknown, ...rest: unknown[]) => {
    const request = message as WorkerRequest | null;
    if (request?.__vitest_worker_request__) {
      if (request.type === 'run' || request.type === 'collect') {
        files = (request.context?.files ?? []).map((f) => f.filepath ?? '?');
      } else if (request.type === 'stop') {
        stopping = true;
      }
    }
    return send(message, ...rest);
  }) as ChildProcess['send'];
  const kill = child.kill.bind(child);
  child.kill = (signal?: NodeJS.Signals | number) => {
    stopping = true;
    return kill(signal);
  };
  child.once('exit', (code, signal) => {
    if (stopping) return;
    // Synchronous: the main process may be about to end as well.
    writeSync(
      2,
      `\ntest worker ${child.pid} ended before vitest stopped it: exit code ${code}, signal ${signal}; ` +
        `running ${files.length > 0 ? files.join(', ') : 'no test file'}\n`,
    );
  });
}

export default function setup(): () => void {
  const fork = childProcess.fork;
  childProcess.fork = ((...args: Parameters<typeof fork>) => {
    const child = fork(...args);
    watch(child);
    return child;
  }) as typeof fork;
  syncBuiltinESMExports();
  return () => {
    childProcess.fork = fork;
    syncBuiltinESMExports();
  };
}
