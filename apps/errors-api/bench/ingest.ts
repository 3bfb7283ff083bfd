/**
 * Ingest benchmark: sustained events/s and latency percentiles for realistic 5 KB and 50 KB
 * envelopes at several client concurrencies, against errors-api on the embedded database and on
 * Postgres, beside a Fastify route that does nothing (the ceiling of this machine).
 *
 *   npm run bench -w apps/errors-api
 *
 * BENCH_SECONDS (default 4) per cell, BENCH_CONCURRENCY (default 1,8,32), BENCH_SIZES (default 5,50),
 * BENCH_TARGETS (default noop,embedded,postgres), and BENCH_DATABASE_URL
 * or TEST_DATABASE_URL (a Postgres server URL; a throwaway database is made) for the Postgres rows.
 * Load comes from a worker thread over loopback, bounded by time and by BENCH_MAX_REQUESTS.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase } from '@trove/data';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildErrorsApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { load } from './load.ts';
import { payloadSet } from './payloads.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP_SECONDS = 1;
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number);
const POSTGRES = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const logger = createLogger({ service: 'errors-api', level: 'silent', format: 'json' });

interface Target {
  name: string;
  start(): Promise<{ app: FastifyInstance; path: string; cleanup(): Promise<void> }>;
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

const noop: Target = {
  name: 'do-nothing Fastify route',
  async start() {
    const app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 }, (_r, body, done) =>
      done(null, body),
    );
    app.post('/api/:id/envelope/', async () => ({}));
    return { app, path: '/api/1/envelope/', cleanup: async () => {} };
  },
};

function errorsApi(
  name: string,
  env: () => Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>,
): Target {
  return {
    name,
    async start() {
      const made = await env();
      const config = readConfig({ ...made.env, INGEST_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
      const app = await buildErrorsApp(config, logger);
      const project = await app.errors.db.prisma.project.create({
        data: { name: 'Bench', slug: 'bench', dsnKey: 'b'.repeat(32) },
      });
      return { app, path: `/api/${project.id}/envelope/?sentry_key=${'b'.repeat(32)}`, cleanup: made.cleanup };
    },
  };
}

const embedded = errorsApi('errors-api, embedded (PGlite on disk)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'errors-bench-'));
  return { env: { DATA_DIR: dir }, cleanup: () => rm(dir, { recursive: true, force: true }) };
});

const postgres = (serverUrl: string) =>
  errorsApi('errors-api, Postgres', async () => {
    const db = await createThrowawayDatabase(serverUrl, 'errors_bench');
    return { env: { DATABASE_URL: db.url, MIGRATE_ON_START: 'apply', DATABASE_POOL_MAX: '10' }, cleanup: db.drop };
  });

async function main() {
  const sizes = (process.env.BENCH_SIZES ?? '5,50').split(',');
  const sets = [
    ...(sizes.includes('5') ? [payloadSet('5 KB', 5 * 1024, false)] : []),
    ...(sizes.includes('50') ? [payloadSet('50 KB (gzip)', 50 * 1024, true)] : []),
  ];
  const only = process.env.BENCH_TARGETS?.split(',');
  const targets = [noop, embedded, ...(POSTGRES ? [postgres(POSTGRES)] : [])].filter(
    (_t, i) => !only || only.includes(['noop', 'embedded', 'postgres'][i] as string),
  );
  const rows: string[][] = [];
  console.log(`ingest benchmark: ${SECONDS} s per cell after ${WARMUP_SECONDS} s warm-up, loopback, one process`);
  if (!POSTGRES) console.log('(set BENCH_DATABASE_URL or TEST_DATABASE_URL for the Postgres rows)');
  for (const target of targets) {
    const { app, path, cleanup } = await target.start();
    try {
      const port = await listen(app);
      for (const set of sets) {
        for (const concurrency of CONCURRENCY) {
          const { latencies, errors, elapsedS } = await load(
            `http://127.0.0.1:${port}${path}`,
            set,
            concurrency,
            SECONDS,
          );
          const row = [
            target.name,
            set.label,
            String(concurrency),
            (latencies.length / elapsedS).toFixed(0),
            percentile(latencies, 50).toFixed(1),
            percentile(latencies, 99).toFixed(1),
            String(errors),
          ];
          rows.push(row);
          console.log(row.join(' | '));
        }
      }
    } finally {
      await app.close();
      await cleanup();
    }
  }
  console.log('\n| target | event size | clients | events/s | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

await main();
