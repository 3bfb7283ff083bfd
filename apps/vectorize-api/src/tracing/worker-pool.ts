import { Worker } from 'node:worker_threads';
import type { RgbaImage, VectorizeOptions } from '@trove/vectorize';
import type { OptimizeSettings } from '../output/optimize-svg.ts';
import type { WorkerRequest, WorkerResponse, WorkerTask } from './messages.ts';
import { abortError, type DocumentFormat, type TraceOutput, type Tracer, TracerBusyError } from './tracer.ts';

export interface WorkerPoolOptions {
  /** Worker threads kept running. */
  size: number;
  /** Jobs allowed to wait when every worker is busy; one more is refused with TracerBusyError. */
  queueLength: number;
}

interface Job {
  id: number;
  task: WorkerTask;
  signal: AbortSignal | undefined;
  resolve(result: TraceOutput | string): void;
  reject(error: Error): void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  startedAt: number;
}

// The worker is TypeScript; tsx's loader is registered inside the thread by this small module so it
// works the same under `node --import tsx`, plain tsx and vitest.
const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

/** Error raised in a worker, rebuilt with its original name so callers can tell input errors apart. */
export class TraceFailedError extends Error {
  constructor(
    override readonly name: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs traces on worker_threads with a bounded wait queue. A job whose signal aborts is dropped
 * from the queue, or, when it is already running, its worker is terminated and replaced, so a
 * client that went away stops costing CPU.
 */
export class WorkerPool implements Tracer {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Moving average of job time, for a Retry-After that means something. */
  private averageJobMs = 500;
  /** Jobs dropped from the queue or stopped mid-run because their signal aborted. */
  cancelled = 0;
  /** Jobs refused because the queue was full. */
  refused = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    for (let i = 0; i < Math.max(1, options.size); i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  /** Workers running a job now. */
  get busy(): number {
    return this.slots.filter((slot) => slot.job !== null).length;
  }

  get queued(): number {
    return this.queue.length;
  }

  trace(
    image: RgbaImage,
    options: VectorizeOptions,
    signal?: AbortSignal,
    document?: DocumentFormat,
  ): Promise<TraceOutput> {
    const { width, height, data } = image;
    // A copy the worker can own: the caller's buffer may be a view on a larger one.
    const task: WorkerTask = { kind: 'trace', width, height, data: new Uint8Array(data), options, document };
    return this.run(task, signal) as Promise<TraceOutput>;
  }

  optimize(svg: string, settings: OptimizeSettings, signal?: AbortSignal): Promise<string> {
    return this.run({ kind: 'optimize', svg, settings }, signal) as Promise<string>;
  }

  private run(task: WorkerTask, signal: AbortSignal | undefined): Promise<TraceOutput | string> {
    if (this.closed) return Promise.reject(new Error('the tracing pool is closed'));
    if (signal?.aborted) return Promise.reject(abortError());
    const idle = this.slots.find((slot) => slot.job === null);
    if (!idle && this.queue.length >= this.options.queueLength) {
      this.refused += 1;
      const waves = (this.queue.length + this.slots.length) / this.slots.length;
      return Promise.reject(new TracerBusyError((waves * this.averageJobMs) / 1000));
    }
    return new Promise<TraceOutput | string>((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, signal, resolve, reject };
      if (signal) {
        job.onAbort = () => this.cancel(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      if (idle) this.start(idle, job);
      else this.queue.push(job);
    });
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
    const worker = new Worker(WORKER_ENTRY);
    const slot: Slot = { worker, job: null, startedAt: 0 };
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
    slot.startedAt = performance.now();
    // A busy worker keeps the process alive until its answer arrives; an idle one does not.
    slot.worker.ref();
    const request = { ...job.task, id: job.id } as WorkerRequest;
    slot.worker.postMessage(request, request.kind === 'trace' ? [request.data.buffer as ArrayBuffer] : []);
  }

  private finish(slot: Slot, message: WorkerResponse): void {
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    slot.job = null;
    slot.worker.unref();
    this.averageJobMs = 0.8 * this.averageJobMs + 0.2 * (performance.now() - slot.startedAt);
    if (message.ok) this.settle(job, null, message.result);
    else this.settle(job, new TraceFailedError(message.name, message.message));
    this.dispatch(slot);
  }

  private cancel(job: Job): void {
    const queuedAt = this.queue.indexOf(job);
    if (queuedAt >= 0) {
      this.cancelled += 1;
      this.queue.splice(queuedAt, 1);
      this.settle(job, abortError());
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot) return;
    // A running trace cannot be interrupted cooperatively: stop the thread and start a fresh one.
    this.cancelled += 1;
    slot.job = null;
    this.settle(job, abortError());
    this.swap(slot);
  }

  /** A worker crashed or exited on its own: fail its job and put a new worker in its place. */
  private replace(slot: Slot, error: Error): void {
    if (this.closed) return;
    const job = slot.job;
    slot.job = null;
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

  private settle(job: Job, error: Error | null, result?: TraceOutput | string): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (error) job.reject(error);
    else job.resolve(result as TraceOutput | string);
  }
}
