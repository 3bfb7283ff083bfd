/**
 * This code against the code before the LoCoMo recall work, in one process and one run, requests
 * interleaved (each pair in alternating order) so that whatever else the machine runs weighs on
 * both alike: `/remember` one at a time, `/import` of 5,000-line batches up to SIZE memories
 * (default 100,000, as bench:speed's largest), then `/recall` fusion and vector (limit 10, no
 * namespace) with bench:speed's 122 queries, six rounds, the first not counted:
 *
 *   npm run bench:recall-ab -w apps/memory-api
 *
 * The previous code is the commit BENCH_BASELINE (default 4c6844d), checked out with
 * `git worktree add` into a temporary folder (kept for later runs), each side with its own shared
 * packages (the worktree's `@trove/*`) and this checkout's other node_modules. Both sides run the
 * embedded defaults (PGlite on its own thread, in memory; GloVe; the in-process HNSW index).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import type { FastifyInstance } from 'fastify';
import { loadRetrievalSet } from './retrieval-set.ts';
import { sentenceMaker } from './synthetic.ts';

const BASELINE = process.env.BENCH_BASELINE ?? '4c6844d';
const SIZE = Number(process.env.SIZE ?? 100_000);
const REMEMBERS = 1500;
const ROUNDS = 6;
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });

/** The baseline's source in a worktree, with its own `@trove/*` packages and this checkout's others. */
function baselineTree(): string {
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', `${BASELINE}^{commit}`])
    .toString()
    .trim();
  const dir = join(tmpdir(), `memory-api-baseline-${commit}`);
  if (!existsSync(join(dir, 'apps/memory-api/src/app.ts'))) {
    execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, commit], { stdio: 'ignore' });
  }
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) {
    mkdirSync(join(modules, '@trove'), { recursive: true });
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name !== '@trove') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
    }
    // Workspace links are relative (../../packages/x): the same link resolves inside the worktree.
    for (const name of readdirSync(join(ROOT, 'node_modules/@trove'))) {
      symlinkSync(readlinkSync(join(ROOT, 'node_modules/@trove', name)), join(modules, '@trove', name));
    }
  }
  return dir;
}

type Build = (config: never, logger: Logger) => Promise<FastifyInstance>;

async function start(src: string): Promise<FastifyInstance> {
  const { buildMemoryApp } = (await import(join(src, 'app.ts'))) as { buildMemoryApp: Build };
  const { readConfig } = (await import(join(src, 'config.ts'))) as { readConfig: (env: object) => never };
  const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
  return buildMemoryApp(readConfig({ DATA_DIR: 'memory://', EMBEDDINGS_CACHE_DIR: cacheDir }), logger);
}

const sides = {
  previous: await start(join(baselineTree(), 'apps/memory-api/src')),
  current: await start(fileURLToPath(new URL('../src', import.meta.url))),
};
type Name = keyof typeof sides;
const names = Object.keys(sides) as Name[];
const times = (): Record<Name, number[]> => ({ previous: [], current: [] });

/** Sends one request to each side, in alternating order, and records each one's time. */
async function pair(i: number, out: Record<Name, number[]>, url: string, payload: object, status: number) {
  for (const name of i % 2 === 0 ? names : [...names].reverse()) {
    const started = performance.now();
    const res = await sides[name].inject({ method: 'POST', url, payload });
    out[name].push(performance.now() - started);
    // A failed request is fast: timing it would flatter the figures.
    if (res.statusCode !== status) throw new Error(`${name} ${url} answered ${res.statusCode}: ${res.body}`);
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
console.log(`this code against ${BASELINE}, requests interleaved in one process\n`);
console.log('| measure | previous | current | current / previous |\n|---|---|---|---|');

const remember = times();
const rememberSentence = sentenceMaker(7);
for (let i = 0; i < REMEMBERS; i++) {
  await pair(i, remember, '/remember', { content: rememberSentence(), namespace: `ns${i % 4}` }, 201);
}
const perSecond = (n: number, ms: number[]) => n / (sum(ms) / 1000);
const [rp, rc] = names.map((n) => perSecond(REMEMBERS, remember[n]));
console.log(
  `| /remember one at a time, per second | ${rp?.toFixed(0)} | ${rc?.toFixed(0)} | ${ratio(rc ?? 0, rp ?? 1)} |`,
);

const imports = times();
const sentence = sentenceMaker(42);
for (let done = 0; done < SIZE; done += 5000) {
  const n = Math.min(5000, SIZE - done);
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ content: sentence(), namespace: `ns${i % 4}`, tags: [`t${i % 20}`] }),
  );
  await pair(done / 5000, imports, '/import', { content: lines.join('\n') }, 200);
}
const [ip, ic] = names.map((n) => perSecond(SIZE, imports[n]));
console.log(
  `| /import to ${SIZE.toLocaleString('en')}, per second | ${ip?.toFixed(0)} | ${ic?.toFixed(0)} | ${ratio(ic ?? 0, ip ?? 1)} |`,
);

const queries = loadRetrievalSet().queries.map((q) => q.query);
for (const strategy of ['fusion', 'vector']) {
  const recall = times();
  const warmUp = times();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, query] of queries.entries()) {
      await pair(round + i, round === 0 ? warmUp : recall, '/recall', { query, strategy, limit: 10 }, 200);
    }
  }
  for (const p of [50, 95]) {
    const [a, b] = names.map((n) => percentile(recall[n], p));
    console.log(`| /recall ${strategy} p${p} ms | ${a?.toFixed(2)} | ${b?.toFixed(2)} | ${ratio(b ?? 0, a ?? 1)} |`);
  }
}
for (const side of Object.values(sides)) await side.close();
