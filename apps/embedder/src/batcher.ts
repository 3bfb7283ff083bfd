import { resourceExhausted } from '@trove/grpc-kit';

/** What the batcher reports, for /metrics. */
export interface BatchObserver {
  batch(texts: number, calls: number, seconds: number): void;
  queueWait(seconds: number): void;
  dropped(calls: number): void;
}

interface Job {
  texts: readonly string[];
  signal: AbortSignal | undefined;
  enqueuedAt: number;
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: unknown) => void;
  /** Stops listening for the call's cancellation once its batch has started. */
  detach: () => void;
}

export interface BatcherOptions {
  /** Runs one batch on the model. */
  run: (texts: string[]) => Promise<Float32Array[]>;
  /**
   * How long the first waiting call waits for others to join; 0 runs as soon as the model is free.
   * Not applied while callers are seen to come alone (see DynamicBatcher).
   */
  windowMs: number;
  /** Most texts one run takes (a single larger call runs alone). */
  maxBatch: number;
  /** Calls allowed to wait; beyond, submit refuses at once. */
  queueLength: number;
  observer?: BatchObserver;
}

/**
 * Dynamic batching: calls that arrive within a short window run as one batch on the model, one batch
 * at a time; calls that queued while a batch ran go next together, without another window.
 *
 * The window is skipped while callers come alone: when the last batch, started within the last
 * max(50 ms, 10 windows), held a single call, a new call runs at once, so a lone caller never pays
 * the window for company that does not come. One batch of several calls turns the window back on.
 *
 * A call cancelled or past its deadline while it waits leaves the queue at once: its work never
 * runs and its place is free for another call.
 */
export class DynamicBatcher {
  private readonly queue: Job[] = [];
  private queuedTexts = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Calls in the last batch and when it started. */
  private last = { calls: 0, at: Number.NEGATIVE_INFINITY };

  constructor(private readonly options: BatcherOptions) {}

  get waiting(): number {
    return this.queue.length;
  }

  submit(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.queue.length >= this.options.queueLength) {
      return Promise.reject(
        resourceExhausted(
          `the embedder is busy (${this.queue.length} calls waiting, QUEUE_LENGTH=${this.options.queueLength}): retry with backoff or add replicas`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        this.options.observer?.dropped(1);
        reject(signal.reason);
        return;
      }
      const onAbort = () => this.withdraw(job);
      const job: Job = {
        texts,
        signal,
        enqueuedAt: performance.now(),
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.queuedTexts += texts.length;
      this.schedule();
    });
  }

  /** Takes a cancelled or expired call out of the queue before its batch runs. */
  private withdraw(job: Job): void {
    const at = this.queue.indexOf(job);
    if (at < 0) return;
    this.queue.splice(at, 1);
    this.queuedTexts -= job.texts.length;
    this.options.observer?.dropped(1);
    job.reject(job.signal?.reason);
    if (this.queue.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** Whether recent batches show callers coming one at a time, so that waiting for company is waste. */
  private alone(): boolean {
    const memory = Math.max(50, 10 * this.options.windowMs);
    return this.last.calls === 1 && performance.now() - this.last.at < memory;
  }

  /** afterBatch: calls queued while the model was busy have waited already, so they run at once. */
  private schedule(afterBatch = false): void {
    if (this.running || this.queue.length === 0) return;
    if (
      afterBatch ||
      this.queuedTexts >= this.options.maxBatch ||
      this.options.windowMs === 0 ||
      (this.timer === undefined && this.alone())
    ) {
      clearTimeout(this.timer);
      this.timer = undefined;
      // setImmediate lets calls already received in this turn of the event loop join the batch.
      setImmediate(() => void this.runBatch());
      this.running = true;
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.running = true;
      void this.runBatch();
    }, this.options.windowMs);
  }

  private take(): Job[] {
    const jobs: Job[] = [];
    let texts = 0;
    let dropped = 0;
    while (this.queue.length > 0) {
      const job = this.queue[0] as Job;
      if (jobs.length > 0 && texts + job.texts.length > this.options.maxBatch) break;
      this.queue.shift();
      this.queuedTexts -= job.texts.length;
      job.detach();
      if (job.signal?.aborted) {
        dropped++;
        job.reject(job.signal.reason);
        continue;
      }
      jobs.push(job);
      texts += job.texts.length;
    }
    if (dropped > 0) this.options.observer?.dropped(dropped);
    return jobs;
  }

  private async runBatch(): Promise<void> {
    const jobs = this.take();
    try {
      if (jobs.length === 0) return;
      const started = performance.now();
      this.last = { calls: jobs.length, at: started };
      for (const job of jobs) this.options.observer?.queueWait((started - job.enqueuedAt) / 1000);
      const texts = jobs.flatMap((job) => job.texts);
      try {
        const vectors = await this.options.run(texts);
        let at = 0;
        for (const job of jobs) {
          job.resolve(vectors.slice(at, at + job.texts.length));
          at += job.texts.length;
        }
      } catch (err) {
        for (const job of jobs) job.reject(err);
      }
      this.options.observer?.batch(texts.length, jobs.length, (performance.now() - started) / 1000);
    } finally {
      this.running = false;
      this.schedule(true);
    }
  }
}
