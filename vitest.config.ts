import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'tests/**/*.test.ts'],
    pool: 'forks',
    // Most test files wait on processes, databases and sockets rather than compute; vitest's
    // default (one worker fewer than CPUs) ran them one at a time on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism()),
    // Prints, at the end, what was skipped for want of a tool or server (tests/support/requirements.ts);
    // prints the exit code, signal and files of a worker process that dies while running tests.
    globalSetup: [
      'tests/support/skip-summary.ts',
      'tests/support/worker-exits.ts',
      'tests/support/cluster-template.ts',
      'tests/support/bundles.ts',
    ],
    // Each worker's in-memory databases start from one cluster made for the run, not from initdb.
    setupFiles: ['tests/support/cluster-template-seed.ts'],
    // Bounds for a test that hangs, not for speed: on a machine busy with other work, starting an app
    // on an embedded database alone can take half a minute.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Quiet logs in tests unless a developer asks for them.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
