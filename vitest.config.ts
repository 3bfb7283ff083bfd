import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'tests/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Quiet logs in tests unless a developer asks for them.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
