/**
 * Worker thread body: traces (then writes PDF or EPS, or optimises the SVG) or optimises, one job
 * at a time. It holds no state between jobs, so the pool may terminate it mid-job (caller gone,
 * deadline passed) and start a fresh one.
 */
import { parentPort } from 'node:worker_threads';
import { vectorize } from '@trove/vectorize';
import { writeEps } from '../output/eps.ts';
import { type OptimizedSvg, optimizeSvg } from '../output/optimize-svg.ts';
import { writePdf } from '../output/pdf.ts';
import { packedBuffers, packPaths } from '../packed-paths.ts';
import type { TraceOutput } from '../tracer.ts';
import type { WorkerRequest, WorkerResponse } from './messages.ts';

if (!parentPort) throw new Error('trace-worker must run as a worker thread');
const port = parentPort;

async function run(job: WorkerRequest): Promise<{ result: TraceOutput | OptimizedSvg; transfer: ArrayBuffer[] }> {
  if (job.kind === 'optimize') return { result: optimizeSvg(job.svg, job.settings), transfer: [] };
  const traced = vectorize({ width: job.width, height: job.height, data: job.data }, job.options);
  const { width, height, engineUsed } = traced;
  const svg = job.optimize ? optimizeSvg(traced.svg, job.optimize).svg : traced.svg;
  const result: TraceOutput = { svg, width, height, engineUsed, pathCount: traced.paths.length };
  const transfer: ArrayBuffer[] = [];
  if (job.includePaths) {
    result.paths = packPaths(traced.paths);
    transfer.push(...packedBuffers(result.paths));
  }
  // PDF and EPS are written here too: for a photo's ~100k commands that is hundreds of
  // milliseconds, which would otherwise stall the caller's thread.
  if (job.document) {
    const bytes =
      job.document === 'pdf' ? await writePdf(width, height, traced.paths) : writeEps(width, height, traced.paths);
    result.document = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Only a buffer of its own can move (a small one may sit in Node's shared pool).
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
      transfer.push(bytes.buffer as ArrayBuffer);
  }
  return { result, transfer };
}

port.on('message', async (job: WorkerRequest) => {
  const started = performance.now();
  try {
    const { result, transfer } = await run(job);
    const seconds = (performance.now() - started) / 1000;
    port.postMessage({ id: job.id, ok: true, result, seconds } satisfies WorkerResponse, transfer);
  } catch (error) {
    const err = error as Error;
    port.postMessage({ id: job.id, ok: false, name: err.name, message: err.message } satisfies WorkerResponse);
  }
});
