/**
 * The first request after start against warm ones, over HTTP in process: the service is started,
 * waited on until /readyz says ready (its tracing threads warmed up), then sent the same upload six
 * times; and again without waiting for readiness, as a client that comes too early would. Each
 * run is a process of its own, as a service is: apps started and closed before it in the same
 * process leave garbage whose collection lands on later requests. Each case runs in FIRST_RUNS
 * fresh processes (default 5); a summary gives the median and largest first ÷ warm over them and,
 * beside it, how often the first request and how often a later one took over 2x the warm median:
 * a collection or the shared machine stalls any request now and then, and only a first request
 * that is slow more often than later ones is cold code or memory.
 *
 * FIRST_MODES=ready leaves out the runs that do not wait for readiness.
 *
 *   FIRST_RUNS=9 npx tsx apps/vectorize-api/bench/first-request.ts [fixture paths under packages/vectorize/fixtures/]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createLogger } from '@trove/service-kit';
import { median } from '@trove/stats';
import type { FastifyInstance } from 'fastify';
import { buildVectorizeApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';

const FIXTURES = new URL('../../../packages/vectorize/fixtures/', import.meta.url);
const DEFAULT_FILES = ['real/diagram-states.png', 'logo-aa-256.png'];
const CHILD_RUN = '--run';

async function post(app: FastifyInstance, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'upload.png');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/v1/vectorize',
    payload,
    headers: { 'content-type': request.headers.get('content-type') as string },
  });
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}: ${response.body}`);
  return performance.now() - started;
}

interface RunResult {
  firstOverWarm: number;
  laterOverTwice: number;
}

async function run(file: string, waitForReady: boolean): Promise<RunResult> {
  const bytes = readFileSync(new URL(file, FIXTURES));
  const config = readConfig({ ...process.env, TRACE_WORKERS: '1', LOG_LEVEL: 'silent' });
  // Timed from before the build: the warm-up starts there, and part of it runs synchronously.
  const started = performance.now();
  const app = await buildVectorizeApp(config, createLogger({ service: 'bench', level: 'silent', format: 'json' }));
  if (waitForReady)
    while ((await app.inject('/readyz')).statusCode !== 200) await new Promise((r) => setTimeout(r, 10));
  const readyMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < 6; i++) times.push(await post(app, bytes));
  await app.close();
  const warm = median(times.slice(1));
  console.log(
    `${file.padEnd(26)} ${waitForReady ? 'after /readyz' : 'at once     '}  ready after ${readyMs.toFixed(0).padStart(5)} ms  first ${times[0]!.toFixed(1).padStart(7)} ms  warm median ${warm.toFixed(1).padStart(6)} ms  first/warm ${(times[0]! / warm).toFixed(2)} [${times.map((t) => t.toFixed(1)).join(' ')}]`,
  );
  return { firstOverWarm: times[0]! / warm, laterOverTwice: times.slice(1).filter((t) => t > 2 * warm).length };
}

async function runInFreshProcess(file: string, mode: string): Promise<RunResult> {
  const child = fork(import.meta.filename, [CHILD_RUN, file, mode]);
  let result: RunResult | undefined;
  child.on('message', (message) => (result = message as RunResult));
  const [code] = await once(child, 'exit');
  if (code !== 0 || !result) throw new Error(`the run for ${file} (${mode}) exited with ${code}`);
  return result;
}

if (process.argv[2] === CHILD_RUN) process.send!(await run(process.argv[3]!, process.argv[4] === 'ready'));
else {
  const runs = Number(process.env.FIRST_RUNS ?? 5);
  for (const file of process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_FILES)
    for (const mode of (process.env.FIRST_MODES ?? 'ready,at-once').split(',')) {
      const results: RunResult[] = [];
      for (let i = 0; i < runs; i++) results.push(await runInFreshProcess(file, mode));
      const ratios = results.map((r) => r.firstOverWarm);
      const firstOver = ratios.filter((r) => r > 2).length;
      const laterOver = results.reduce((sum, r) => sum + r.laterOverTwice, 0);
      console.log(
        `  ${file} ${mode}: first/warm median ${median(ratios).toFixed(2)}, largest ${Math.max(...ratios).toFixed(2)} over ${runs} processes; over 2x the warm median: first ${firstOver} of ${runs}, later ${laterOver} of ${runs * 5}`,
      );
    }
}
