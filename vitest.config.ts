import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'tests/**/*.test.ts'],
    pool: 'forks',
    // Most test files wait on processes, databases and sockets rather than compute; vitest's
    // default (one worker fewer than CPUs) ran them one at a time on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker runs its test files one after another in one process, sharing loaded modules, rather
    // than a fresh process per file: importing an app (Fastify, PGlite, Prisma, the tracer) cost each
    // of the 120 files 2-3 s of CPU, and the whole suite took 600 s here against 400-420 s so (also
    // with the files in a shuffled order). What a test changes in its process it puts back: fake
    // timers, environment variables, listeners; a test that needs a fresh process starts one.
    isolate: false,
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
