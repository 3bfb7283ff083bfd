/**
 * vectorize-api benchmark, remote mode (`npm run bench -w apps/vectorize-api -- --remote`):
 * tracing in process against tracing on vectorizer-worker processes over gRPC, in one run.
 *
 * Every part runs as its own process on loopback, as in production: three vectorize-api processes
 * (one with its in-process pool, one with VECTORIZER_WORKER_URL naming one worker, one naming two)
 * and two vectorizer-worker processes, each pool with one tracing thread (the default on this
 * 2-core machine, where the API's own thread needs the other core). The three setups are measured
 * in turn at each level, so the machine's background load touches all three alike.
 *
 * Prints images/s and p50/p99 latency per image at client concurrency 1, 4 and 16 for a 512×512
 * logo and an 800×600 photo-like image (optimize=false: the trace and its hand-off, not svgo), then
 * the ratios the issue sets goals for. Each level runs BENCH_SECONDS (default 10) and at least two
 * requests per client. Beside them, the CPU time all of the setup's processes spent per image
 * (from /proc): on a machine shared with other work, rates move with the background load, while
 * CPU per image shows what each way of running costs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { percentile } from '@trove/stats';
import { type RunningApp, startApp } from '../../../tests/support/processes.ts';
import { type RunningWorker, startVectorizerWorker } from '../../../tests/support/vectorizer-worker.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LEVELS = [1, 4, 16];
const FIXTURES = new URL('../../../packages/vectorize/fixtures/', import.meta.url);
const IMAGES = [
  { label: 'logo 512×512', file: 'logo-aa-transparent-512.png' },
  { label: 'photo 800×600', file: 'photo-like-800x600.png' },
];
// Deep enough that concurrency 16 queues instead of being refused: this measures throughput, not refusals.
const QUEUE = '64';

interface Setup {
  label: string;
  api: RunningApp;
  /** The processes whose CPU time counts for this setup: its vectorize-api and the workers it uses. */
  pids: number[];
}

/** CPU milliseconds (user + system, all threads) a process has used, or NaN where /proc is missing. */
function cpuMs(pid: number): number {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return Number.NaN;
  const fields = readFileSync(path, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);

async function body(file: string): Promise<{ payload: Buffer; type: string }> {
  const form = new FormData();
  form.append('optimize', 'false');
  form.append('file', new Blob([new Uint8Array(readFileSync(new URL(file, FIXTURES)))]), 'image.png');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type') as string };
}

/** `concurrency` clients, each sending one request after another, for SECONDS and at least two requests each. */
async function level(setup: Setup, upload: { payload: Buffer; type: string }, concurrency: number) {
  const url = setup.api.url;
  const cpuBefore = cpuOf(setup.pids);
  const latencies: number[] = [];
  let refused = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const client = async () => {
    for (let sent = 0; sent < 2 || performance.now() < until; sent++) {
      const t = performance.now();
      const response = await fetch(`${url}/v1/vectorize`, {
        method: 'POST',
        body: new Uint8Array(upload.payload),
        headers: { 'content-type': upload.type },
      });
      await response.arrayBuffer();
      if (response.status === 200) latencies.push(performance.now() - t);
      else if (response.status === 503) refused++;
      else throw new Error(`unexpected status ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  const cpuPerImage = (cpuOf(setup.pids) - cpuBefore) / latencies.length;
  return {
    rate: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    refused,
    cpuPerImage,
  };
}

const workers: RunningWorker[] = [];
const setups: Setup[] = [];
try {
  workers.push(
    ...(await Promise.all(
      [1, 2].map(() => startVectorizerWorker({ TRACE_THREADS: '1', QUEUE_LENGTH: QUEUE, LOG_LEVEL: 'warn' })),
    )),
  );
  const [one, two] = workers as [RunningWorker, RunningWorker];
  const api = (env: Record<string, string>) =>
    startApp('vectorize-api', { LOG_LEVEL: 'warn', TRACE_QUEUE_LENGTH: QUEUE, ...env });
  const pid = (process: { child: { pid?: number } }) => process.child.pid ?? 0;
  const local = await api({ TRACE_WORKERS: '1' });
  const remoteOne = await api({ VECTORIZER_WORKER_URL: one.target });
  const remoteTwo = await api({ VECTORIZER_WORKER_URL: `${one.target},${two.target}` });
  setups.push(
    { label: 'in-process pool, 1 thread', api: local, pids: [pid(local)] },
    { label: '1 worker process', api: remoteOne, pids: [pid(remoteOne), pid(one)] },
    { label: '2 worker processes', api: remoteTwo, pids: [pid(remoteTwo), pid(one), pid(two)] },
  );

  console.log(
    `vectorize-api remote benchmark: ${availableParallelism()} cores; every part its own process on loopback; one tracing thread per pool; ${SECONDS} s (and at least 2 requests per client) per level; optimize=false`,
  );
  console.log('\n| image | tracing on | concurrency | images/s | p50 ms | p99 ms | 503s | CPU ms per image |');
  console.log('|---|---|---|---|---|---|---|---|');
  const rates = new Map<string, number>();
  for (const { label, file } of IMAGES) {
    const upload = await body(file);
    // Warm-up: the first traces of an image in a fresh thread run several times slower; 8 requests
    // give each of two workers (round robin) four.
    for (const setup of setups) {
      for (let i = 0; i < 8; i++) {
        const response = await fetch(`${setup.api.url}/v1/vectorize`, {
          method: 'POST',
          body: new Uint8Array(upload.payload),
          headers: { 'content-type': upload.type },
        });
        await response.arrayBuffer();
      }
    }
    for (const concurrency of LEVELS) {
      for (const setup of setups) {
        const r = await level(setup, upload, concurrency);
        rates.set(`${label}|${setup.label}|${concurrency}`, r.rate);
        console.log(
          `| ${label} | ${setup.label} | ${concurrency} | ${r.rate.toFixed(2)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.refused} | ${r.cpuPerImage.toFixed(0)} |`,
        );
      }
    }
  }

  console.log('\n| image | concurrency | 1 worker ÷ in-process | 2 workers ÷ 1 worker |');
  console.log('|---|---|---|---|');
  for (const { label } of IMAGES) {
    for (const concurrency of LEVELS) {
      const [local, one, two] = setups.map((s) => rates.get(`${label}|${s.label}|${concurrency}`) ?? Number.NaN);
      console.log(
        `| ${label} | ${concurrency} | ${(((one as number) / (local as number)) * 100).toFixed(0)} % | ${(((two as number) / (one as number)) * 100).toFixed(0)} % |`,
      );
    }
  }
} finally {
  await Promise.all(setups.map((setup) => setup.api.stop()));
  await Promise.all(workers.map((worker) => worker.stop()));
}
