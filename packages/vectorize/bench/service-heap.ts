import { spawnSync } from 'node:child_process';

/** The young generation the service's tracing threads get (@trove/tracer's worker pool: 96 MB). */
const SERVICE_HEAP_FLAG = '--max-semi-space-size=32';

/**
 * Times must be the service's, so a benchmark runs with its tracing threads' heap: the same page
 * took 16 or 25 ms from one run to the next on V8's default young generation (see the pool's
 * TRACE_YOUNG_GENERATION_MB). When this process was started without it, the benchmark runs
 * again in a child that has it, and this process exits with the child's status.
 */
export function runWithServiceHeap(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((arg) => arg.startsWith('--max-semi-space-size'))) return;
  const child = spawnSync(process.execPath, [...process.execArgv, SERVICE_HEAP_FLAG, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(child.status ?? 1);
}
