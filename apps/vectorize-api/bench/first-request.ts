/**
 * The first request after start against warm ones, over HTTP in process: the service is started,
 * waited on until /readyz says ready (its tracing threads warmed up), then sent the same upload six
 * times; and again without waiting for readiness, as a client that comes too early would. Each
 * run is a process of its own, as a service is: apps started and closed before it in the same
 * process leave garbage whose collection lands on later requests.
 *
 *   npx tsx apps/vectorize-api/bench/first-request.ts [fixture paths under packages/vectorize/fixtures/]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createLogger } from '@trove/service-kit';
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

async function run(file: string, waitForReady: boolean): Promise<void> {
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
  const warm = [...times.slice(1)].sort((a, b) => a - b)[2]!;
  console.log(
    `${file.padEnd(26)} ${waitForReady ? 'after /readyz' : 'at once     '}  ready after ${readyMs.toFixed(0).padStart(5)} ms  first ${times[0]!.toFixed(1).padStart(7)} ms  warm median ${warm.toFixed(1).padStart(6)} ms  first/warm ${(times[0]! / warm).toFixed(2)} [${times.map((t) => t.toFixed(1)).join(' ')}]`,
  );
}

if (process.argv[2] === CHILD_RUN) await run(process.argv[3]!, process.argv[4] === 'ready');
else
  for (const file of process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_FILES)
    for (const mode of ['ready', 'at-once']) {
      const child = fork(import.meta.filename, [CHILD_RUN, file, mode]);
      const [code] = await once(child, 'exit');
      if (code !== 0) throw new Error(`the run for ${file} (${mode}) exited with ${code}`);
    }
