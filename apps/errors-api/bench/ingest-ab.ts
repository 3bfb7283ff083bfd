/**
 * Ingest throughput of this code against the code before issue 31 (releases and environments on
 * every event, tag counts, source-map resolution, the issue following its latest event), in one
 * process and one run, cells interleaved round by round (ABBA) so that whatever else the machine
 * runs weighs on both alike:
 *
 *   npx tsx apps/errors-api/bench/ingest-ab.ts
 *
 * The previous code is the commit BENCH_BASELINE (default 4c6844d, the parent of the issue's
 * first commit), checked out with `git worktree add` into a temporary folder (kept for later runs)
 * and run on this checkout's node_modules, so both sides use the same shared packages and only
 * errors-api differs. Both run on the embedded database on disk with rate limits off, each with a
 * project that has no source maps. The load comes from a child process, so that besides events/s (which
 * the machine's other work moves a lot) each cell gives the server process's CPU time per event
 * (its threads, the embedded database's included), which that work moves far less: on a saturated
 * machine, throughput is what the CPU time per event allows. BENCH_ROUNDS (default 12), BENCH_SECONDS per cell (default 2),
 * BENCH_CONCURRENCY (default 8), BENCH_SIZES (default 5,50).
 *
 * BENCH_TRANSPORT=inject sends the same envelopes through Fastify's inject instead of sockets, in
 * bursts of BENCH_CONCURRENCY requests at once (BENCH_BURSTS per cell, default 10): every side then
 * gets batches of the same size whatever the machine does, and the CPU time per event compares
 * the ingest path alone (decoding, grouping, source maps, the statement, tag counts).
 *
 * BENCH_VARIANTS adds sides running this code with one part switched off, to see what each costs:
 * `no-maps` (source-map resolution), `no-tags` (tag counting), `old-statement` (the previous
 * ingest statement, as the baseline's migrations left it, in this code's database).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createLogger, type Logger } from '@trove/service-kit';
import { median, percentile } from '@trove/stats';
import type { FastifyInstance } from 'fastify';
import { type LoadResult, load } from './load.ts';
import { type PayloadSet, payloadSet } from './payloads.ts';

const BASELINE = process.env.BENCH_BASELINE ?? '4c6844d';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SIZES = (process.env.BENCH_SIZES ?? '5,50').split(',');
const INJECT = process.env.BENCH_TRANSPORT === 'inject';
const BURSTS = Number(process.env.BENCH_BURSTS ?? 10);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const logger = createLogger({ service: 'errors-api', level: 'silent', format: 'json' });

type Build = (config: never, logger: Logger) => Promise<FastifyInstance>;

/** The baseline's source in a worktree of its own, resolving packages through this checkout's node_modules. */
function baselineTree(): string {
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', `${BASELINE}^{commit}`])
    .toString()
    .trim();
  const dir = join(tmpdir(), `errors-api-baseline-${commit}`);
  if (!existsSync(join(dir, 'apps/errors-api/src/app.ts'))) {
    execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, commit], { stdio: 'ignore' });
  }
  // The root's packages, and those errors-api pins for itself (installed under its own folder).
  for (const modules of ['node_modules', 'apps/errors-api/node_modules']) {
    if (existsSync(join(ROOT, modules)) && !existsSync(join(dir, modules)))
      symlinkSync(join(ROOT, modules), join(dir, modules));
  }
  return dir;
}

interface Side {
  name: string;
  app: FastifyInstance;
  url: string;
  rates: number[];
  p50s: number[];
  cpuMs: number[];
  close(): Promise<void>;
}

type Variant = (app: FastifyInstance, src: string) => Promise<void>;

/** The baseline's ingest statement: the last definition of errors_ingest_batch in its migrations. */
async function previousStatement(): Promise<string> {
  const dir = join(baselineTree(), 'prisma/errors/migrations');
  const names = readdirSync(dir)
    .filter((n) => /^\d+_/.test(n))
    .sort()
    .reverse();
  for (const name of names) {
    const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
    const found = /CREATE (?:OR REPLACE )?FUNCTION "errors_ingest_batch"[\s\S]*?\$fn\$;/.exec(sql)?.[0];
    if (found) return found.replace(/^CREATE FUNCTION/, 'CREATE OR REPLACE FUNCTION');
  }
  throw new Error(`no errors_ingest_batch in ${dir}`);
}

const VARIANTS: Record<string, { label: string; apply: Variant }> = {
  'no-maps': {
    label: 'current, source maps off',
    async apply(app, src) {
      const { sourceMaps } = await import(join(src, 'sourcemaps/resolver.ts'));
      sourceMaps(app.errors.db, app.errors.config).resolver.resolve = async () => false;
    },
  },
  'no-tags': {
    label: 'current, tag counts off',
    async apply(app) {
      (app.errors.writer as unknown as { tags: { add(): void } }).tags.add = () => {};
    },
  },
  'old-statement': {
    label: 'current, previous ingest statement',
    async apply(app) {
      await app.errors.db.sql.query(await previousStatement());
    },
  },
};

async function start(name: string, src: string, variant?: Variant): Promise<Side> {
  const { buildErrorsApp } = (await import(join(src, 'app.ts'))) as { buildErrorsApp: Build };
  const { readConfig } = (await import(join(src, 'config.ts'))) as { readConfig: (env: object) => never };
  const dir = await mkdtemp(join(tmpdir(), 'errors-ab-'));
  const app = await buildErrorsApp(
    readConfig({ DATA_DIR: dir, INGEST_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' }),
    logger,
  );
  const key = 'b'.repeat(32);
  const project = await app.errors.db.prisma.project.create({ data: { name: 'Bench', slug: 'bench', dsnKey: key } });
  await variant?.(app, src);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    name,
    app,
    url: `http://127.0.0.1:${port}/api/${project.id}/envelope/?sentry_key=${key}`,
    rates: [],
    p50s: [],
    cpuMs: [],
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `count` bursts of CONCURRENCY envelopes injected at once (each burst is one or two batches). */
async function bursts(side: Side, set: PayloadSet, count: number): Promise<LoadResult> {
  const path = new URL(side.url).pathname + new URL(side.url).search;
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (let b = 0; b < count; b++) {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, n) => {
        const t0 = performance.now();
        const res = await side.app.inject({
          method: 'POST',
          url: path,
          payload: envelopeBody(set, (b * CONCURRENCY + n) % set.tails.length),
          headers: set.gzip ? { 'content-encoding': 'gzip' } : {},
        });
        if (res.statusCode === 200) latencies.push(performance.now() - t0);
        else errors++;
      }),
    );
  }
  return { latencies, errors, elapsedS: (performance.now() - started) / 1000, warmupAnswered: 0 };
}

/** An envelope as load-worker.mjs builds it: a new event_id ahead of the kind's prepared tail. */
function envelopeBody(set: PayloadSet, kind: number): Buffer {
  const id = randomBytes(16).toString('hex');
  const eventLength = `{"event_id":"${id}",`.length + (set.tailLengths[kind] as number);
  const head = `{"event_id":"${id}"}\n{"type":"event","length":${eventLength}}\n{"event_id":"${id}",`;
  return Buffer.concat([set.gzip ? gzipSync(head, { level: 1 }) : Buffer.from(head), set.tails[kind] as Buffer]);
}

const here = fileURLToPath(new URL('../src', import.meta.url));
const variants = (process.env.BENCH_VARIANTS ?? '').split(',').filter(Boolean);
for (const v of variants)
  if (!VARIANTS[v]) throw new Error(`BENCH_VARIANTS: unknown "${v}"; known: ${Object.keys(VARIANTS)}`);
const previous = await start(`previous (${BASELINE})`, join(baselineTree(), 'apps/errors-api/src'));
const current = await start('current', here);
const sides = [previous, current];
for (const v of variants) sides.push(await start(VARIANTS[v]?.label as string, here, VARIANTS[v]?.apply));
const ratio = (a: number, b: number) => (a / b).toFixed(3);
console.log(
  INJECT
    ? `ingest A/B: embedded, injected in bursts of ${CONCURRENCY}, ${BURSTS} bursts per cell, ${ROUNDS} rounds (ABBA)`
    : `ingest A/B: embedded, ${CONCURRENCY} clients, ${SECONDS} s cells after 1 s warm-up, ${ROUNDS} rounds (ABBA)`,
);
try {
  for (const size of SIZES) {
    const set = payloadSet(size === '5' ? '5 KB' : `${size} KB (gzip)`, Number(size) * 1024, Number(size) > 32);
    for (const side of sides) side.rates.length = side.p50s.length = side.cpuMs.length = 0;
    const cell = (side: Side, seconds: number) =>
      INJECT ? bursts(side, set, seconds > 1 ? BURSTS : 2) : load(side.url, set, CONCURRENCY, seconds, true);
    // One unrecorded cell each first: JIT, caches and the first pages of the database files.
    for (const side of sides) await cell(side, 1);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const before = process.cpuUsage();
        const { latencies, errors, elapsedS, warmupAnswered } = await cell(side, SECONDS);
        const used = process.cpuUsage(before);
        if (errors > 0) throw new Error(`${side.name}: ${errors} requests failed`);
        side.rates.push(latencies.length / elapsedS);
        side.cpuMs.push((used.user + used.system) / 1000 / (latencies.length + warmupAnswered));
        side.p50s.push(percentile(latencies, 50));
      }
      console.log(
        `${set.label} round ${round + 1}: ${sides.map((s) => `${s.name} ${s.rates.at(-1)?.toFixed(0)}/s ${s.cpuMs.at(-1)?.toFixed(2)} ms CPU`).join('; ')}`,
      );
    }
    const perRound = (side: Side, of: (s: Side) => number[], invert: boolean) => {
      const values = of(side).map((v, i) =>
        invert ? (of(previous)[i] as number) / v : v / (of(previous)[i] as number),
      );
      return `${median(values).toFixed(3)} (${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)})`;
    };
    console.log(
      `\n| ${set.label}, ${CONCURRENCY} clients | median events/s | median p50 ms | median CPU ms per event | events/s ÷ previous, per round: median (range) | previous CPU per event ÷ this, per round |`,
    );
    console.log('|---|---|---|---|---|---|');
    for (const side of sides) {
      console.log(
        `| ${side.name} | ${median(side.rates).toFixed(0)} | ${median(side.p50s).toFixed(1)} | ${median(side.cpuMs).toFixed(2)} | ${perRound(side, (s) => s.rates, false)} | ${perRound(side, (s) => s.cpuMs, true)} |`,
      );
    }
    console.log(
      `${set.label}: current/previous events/s, ratio of the medians ${ratio(median(current.rates), median(previous.rates))}; previous/current CPU per event (above 1: current costs less), ratio of the medians ${ratio(median(previous.cpuMs), median(current.cpuMs))}\n`,
    );
  }
} finally {
  for (const side of sides) await side.close();
}
