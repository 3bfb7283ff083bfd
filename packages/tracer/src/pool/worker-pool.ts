import { Worker } from 'node:worker_threads';
import type { ResolvedEngine, RgbaImage, VectorizeOptions } from '@trove/vectorize';
import { abortError, isTimeoutReason, TracerBusyError, TracerTimeoutError, workerError } from '../errors.ts';
import type { OptimizedSvg, OptimizeSettings } from '../output/optimize-svg.ts';
import type { JobOptions, TraceJob, TraceOutput, Tracer, TracerStatus } from '../tracer.ts';
import type { WorkerRequest, WorkerResponse, WorkerTask } from './messages.ts';

/** Why a job ended without an answer. */
export type DropReason = 'cancelled' | 'deadline';

/** What the pool reports as it works, for /metrics. */
export interface PoolObserver {
  /** A job answered; engine is set for traces. */
  finished(kind: 'trace' | 'optimize', seconds: number, engine?: ResolvedEngine, pixels?: number): void;
  /** A job dropped from the queue, or stopped on its thread, because its caller left or its deadline passed. */
  dropped(reason: DropReason, where: 'queued' | 'running'): void;
  /** A job refused because every thread was busy and the queue full. */
  refused(): void;
  /** A thread that crashed or exited on its own, and was replaced. */
  crashed(): void;
}

export interface WorkerPoolOptions {
  /** Worker threads kept running. */
  size: number;
  /** Jobs allowed to wait when every worker is busy; one more is refused with TracerBusyError. */
  queueLength: number;
  observer?: PoolObserver;
}

interface Job {
  id: number;
  task: WorkerTask;
  /** Hand the pixels' buffer over instead of copying it. */
  transfer: boolean;
  signal: AbortSignal | undefined;
  timer?: NodeJS.Timeout;
  resolve(result: TraceOutput | OptimizedSvg): void;
  reject(error: Error): void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

// The worker is TypeScript; tsx's loader is registered inside the thread by this small module so it
// works the same under `node --import tsx`, plain tsx and vitest.
const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

/**
 * Young generation of each tracing thread (MB; V8 splits it into 32 MB semi-spaces). A trace
 * allocates a command per outline corner, and most live until the SVG is written. With V8's default
 * (16 MB semi-spaces), enough of them survived a collection that V8 kept moving those allocations
 * to the old generation and back. The same page then took 16 or 25 ms from one run to the next:
 * the OCR benchmark's logs page at 1.45x vtracer's time in one run, 0.9x in the next. With 96 MB
 * it took 14 ms every run (0.85x). The benchmarks time with the same (`--max-semi-space-size=32`).
 */
export const TRACE_YOUNG_GENERATION_MB = 96;

/**
 * Runs traces on worker_threads with a bounded wait queue. A job whose signal aborts or whose
 * deadline passes is dropped from the queue, or, when it is already running, its thread is
 * terminated and replaced, so work nobody waits for stops costing CPU.
 */
export class WorkerPool implements Tracer {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Moving average of a job's time on its thread, for a Retry-After that means something. */
  private averageJobMs = 500;
  /** Jobs dropped from the queue or stopped mid-run because their caller left or their deadline passed. */
  cancelled = 0;
  /** Jobs refused because the queue was full. */
  refused = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    for (let i = 0; i < Math.max(1, options.size); i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  get queueLength(): number {
    return this.options.queueLength;
  }

  /** Workers running a job now. */
  get busy(): number {
    return this.slots.filter((slot) => slot.job !== null).length;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Recent mean seconds of one job on its thread. */
  get averageJobSeconds(): number {
    return this.averageJobMs / 1000;
  }

  status(): TracerStatus {
    const busy = this.busy;
    return {
      mode: 'in-process',
      threads: this.size,
      queueLength: this.queueLength,
      busy,
      queued: this.queued,
      spare: Math.max(0, this.size - busy) + Math.max(0, this.queueLength - this.queued),
    };
  }

  trace(image: RgbaImage, options: VectorizeOptions, job: TraceJob = {}): Promise<TraceOutput> {
    const { width, height } = image;
    const data =
      image.data instanceof Uint8Array
        ? image.data
        : new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    const task: WorkerTask = {
      kind: 'trace',
      width,
      height,
      data,
      options,
      document: job.document,
      optimize: job.optimize,
      includePaths: job.includePaths,
    };
    return this.run(task, job, job.transferPixels === true) as Promise<TraceOutput>;
  }

  optimize(svg: string, settings: OptimizeSettings, job: JobOptions = {}): Promise<OptimizedSvg> {
    return this.run({ kind: 'optimize', svg, settings }, job, false) as Promise<OptimizedSvg>;
  }

  private run(task: WorkerTask, options: JobOptions, transfer: boolean): Promise<TraceOutput | OptimizedSvg> {
    const { signal, deadline } = options;
    if (this.closed) return Promise.reject(new Error('the tracing pool is closing'));
    if (signal?.aborted)
      return Promise.reject(isTimeoutReason(signal.reason) ? new TracerTimeoutError() : abortError());
    if (deadline !== undefined && deadline <= Date.now()) return Promise.reject(new TracerTimeoutError());
    const idle = this.slots.find((slot) => slot.job === null);
    if (!idle && this.queue.length >= this.options.queueLength) {
      this.refused += 1;
      this.options.observer?.refused();
      return Promise.reject(new TracerBusyError(this.retryAfterSeconds()));
    }
    return new Promise<TraceOutput | OptimizedSvg>((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, transfer, signal, resolve, reject };
      if (signal) {
        job.onAbort = () => this.drop(job, isTimeoutReason(signal.reason) ? 'deadline' : 'cancelled');
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      // setTimeout fires at once beyond 2^31 - 1 ms; no deadline that far away is meant literally.
      if (deadline !== undefined)
        job.timer = setTimeout(() => this.drop(job, 'deadline'), Math.min(deadline - Date.now(), 2 ** 31 - 1));
      if (idle) this.start(idle, job);
      else this.queue.push(job);
    });
  }

  /** Seconds until a place is likely to free up: the jobs ahead, spread over the threads. */
  retryAfterSeconds(): number {
    const waves = (this.queue.length + this.slots.length) / this.slots.length;
    return (waves * this.averageJobMs) / 1000;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, new Error('the tracing pool is closing'));
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.job) this.settle(slot.job, new Error('the tracing pool is closing'));
        slot.job = null;
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_ENTRY, {
      resourceLimits: { maxYoungGenerationSizeMb: TRACE_YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, job: null };
    worker.on('message', (message: WorkerResponse) => this.finish(slot, message));
    worker.on('error', (error) => this.replace(slot, error));
    worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new Error(`tracing worker exited (${code})`));
    });
    // An idle pool should not keep the process alive on its own.
    worker.unref();
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    // A busy worker keeps the process alive until its answer arrives; an idle one does not.
    slot.worker.ref();
    const request = { ...job.task, id: job.id } as WorkerRequest;
    if (request.kind === 'trace' && job.transfer) {
      try {
        slot.worker.postMessage(request, [request.data.buffer as ArrayBuffer]);
        return;
      } catch {
        // Memory that cannot move (sharp's external buffers, Node's shared pool on Node 21+): copied below.
      }
    }
    slot.worker.postMessage(request);
  }

  private finish(slot: Slot, message: WorkerResponse): void {
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    slot.job = null;
    slot.worker.unref();
    if (message.ok) {
      this.averageJobMs = 0.8 * this.averageJobMs + 0.2 * message.seconds * 1000;
      const { task } = job;
      if (task.kind === 'trace') {
        const { engineUsed } = message.result as TraceOutput;
        this.options.observer?.finished('trace', message.seconds, engineUsed, task.width * task.height);
      } else this.options.observer?.finished('optimize', message.seconds);
      this.settle(job, null, message.result);
    } else this.settle(job, workerError(message.name, message.message));
    this.dispatch(slot);
  }

  /** The caller left or the deadline passed: drop the job from the queue, or stop its thread. */
  private drop(job: Job, reason: DropReason): void {
    const error = reason === 'deadline' ? new TracerTimeoutError() : abortError();
    const queuedAt = this.queue.indexOf(job);
    if (queuedAt >= 0) {
      this.queue.splice(queuedAt, 1);
      this.count(reason, 'queued');
      this.settle(job, error);
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot) return;
    // A running trace cannot be interrupted cooperatively: stop the thread and start a fresh one.
    slot.job = null;
    this.count(reason, 'running');
    this.settle(job, error);
    this.swap(slot);
  }

  private count(reason: DropReason, where: 'queued' | 'running'): void {
    this.cancelled += 1;
    this.options.observer?.dropped(reason, where);
  }

  /** A worker crashed or exited on its own: fail its job and put a new worker in its place. */
  private replace(slot: Slot, error: Error): void {
    if (this.closed) return;
    const job = slot.job;
    slot.job = null;
    this.options.observer?.crashed();
    if (job) this.settle(job, error);
    this.swap(slot);
  }

  private swap(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (this.closed) return;
    const fresh = this.spawn();
    this.slots.push(fresh);
    this.dispatch(fresh);
  }

  private dispatch(slot: Slot): void {
    const next = this.queue.shift();
    if (next) this.start(slot, next);
  }

  private settle(job: Job, error: Error | null, result?: TraceOutput | OptimizedSvg): void {
    clearTimeout(job.timer);
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (error) job.reject(error);
    else job.resolve(result as TraceOutput | OptimizedSvg);
  }
}
