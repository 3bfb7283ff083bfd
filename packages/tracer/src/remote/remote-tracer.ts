import { type CallOptions, GrpcStatus } from '@trove/grpc-kit';
import type { RgbaImage, VectorizeOptions } from '@trove/vectorize';
import {
  abortError,
  TraceFailedError,
  TracerBusyError,
  TracerInputError,
  TracerTimeoutError,
  TracerUnavailableError,
} from '../errors.ts';
import type { OptimizedSvg, OptimizeSettings } from '../output/optimize-svg.ts';
import type { JobOptions, TraceJob, TraceOutput, Tracer, TracerStatus } from '../tracer.ts';
import { documentToWire, optimizedFromWire, optionsToWire, outputFromWire, settingsToWire } from './wire.ts';
import { type Endpoint, WorkerSet } from './worker-set.ts';

/** Why a call went to a second server. */
export type RetryReason = 'busy' | 'lost';

export interface RemoteObserver {
  retried(reason: RetryReason): void;
}

/** Where changes of a worker's reachability are written (a pino or Fastify logger). */
export interface RemoteLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface RemoteTracerOptions {
  /** VECTORIZER_WORKER_URL: `dns:///vectorizer-worker:50052`, `host:port`, or a comma-separated list. */
  target: string;
  /** Largest request sent, in bytes: the biggest image's pixels (4 bytes each) or SVG, plus the rest. */
  maxRequestBytes: number;
  /** How often the names are resolved again and every server is asked its capacity. */
  pollIntervalMs?: number;
  pollTimeoutMs?: number;
  logger?: RemoteLogger;
  observer?: RemoteObserver;
}

type Attempt<T> = (endpoint: Endpoint, call: CallOptions) => Promise<T>;

const codeOf = (err: unknown) => (err as { code?: number }).code;
const detailsOf = (err: unknown) => {
  const e = err as { details?: string; message?: string };
  return e.details ?? e.message ?? String(err);
};

/**
 * Tracing on vectorizer-worker servers over gRPC, round robin over every address the target
 * resolves to. A server that answers RESOURCE_EXHAUSTED (full) or is lost (UNAVAILABLE: down,
 * draining, or it died mid-job) gets the call retried once on another server (tracing is a pure
 * function, so a retry is safe); the deadline and the caller's signal cover both attempts, and an
 * aborted signal cancels the call on the server, which drops or stops the job.
 */
export class RemoteTracer implements Tracer {
  private readonly workers: WorkerSet;
  private readonly timer: NodeJS.Timeout;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: RemoteTracerOptions) {
    this.workers = new WorkerSet({
      target: options.target,
      maxSendBytes: options.maxRequestBytes,
      pollTimeoutMs: options.pollTimeoutMs ?? 1_000,
    });
    this.timer = setInterval(() => void this.refresh(), options.pollIntervalMs ?? 2_000);
    this.timer.unref();
  }

  /** Resolves the target and polls every server once; call before serving so health is right at once. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      const before = new Map(this.workers.all.map((e) => [e.address, e.reachable]));
      await this.workers.refresh();
      for (const endpoint of this.workers.all) {
        const was = before.get(endpoint.address);
        if (endpoint.reachable === false && was !== false) {
          this.options.logger?.warn(
            { worker: endpoint.address, reason: endpoint.lastError },
            'vectorizer-worker unreachable',
          );
        } else if (endpoint.reachable && was !== true) {
          this.options.logger?.info({ worker: endpoint.address }, 'vectorizer-worker reachable');
        }
      }
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  status(): TracerStatus {
    const all = this.workers.all;
    const reachable = all.filter((e) => e.reachable && e.capacity);
    let threads = 0;
    let queueLength = 0;
    let busy = 0;
    let queued = 0;
    let spare = 0;
    for (const { capacity } of reachable) {
      if (!capacity) continue;
      threads += capacity.threads;
      queueLength += capacity.queueLength;
      busy += capacity.inFlight;
      queued += capacity.queued;
      spare += Math.max(0, capacity.threads - capacity.inFlight) + Math.max(0, capacity.queueLength - capacity.queued);
    }
    return {
      mode: 'remote',
      threads,
      queueLength,
      busy,
      queued,
      spare,
      servers: { total: all.length, reachable: reachable.length },
    };
  }

  async trace(image: RgbaImage, options: VectorizeOptions, job: TraceJob = {}): Promise<TraceOutput> {
    const { width, height, data } = image;
    const request = {
      width,
      height,
      rgba: data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      options: optionsToWire(options),
      document: documentToWire(job.document),
      optimize: job.optimize && settingsToWire(job.optimize),
      includePaths: job.includePaths === true,
    };
    const reply = await this.call((endpoint, call) => endpoint.client.trace(request, call), job);
    return outputFromWire(reply);
  }

  async optimize(svg: string, settings: OptimizeSettings, job: JobOptions = {}): Promise<OptimizedSvg> {
    const request = { svg, ...settingsToWire(settings) };
    const reply = await this.call((endpoint, call) => endpoint.client.optimize(request, call), job);
    return optimizedFromWire(reply);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing?.catch(() => {});
    this.workers.close();
  }

  /** One call, retried once on another server when the first is full or lost. */
  private async call<T>(attempt: Attempt<T>, job: JobOptions): Promise<T> {
    const first = this.workers.pick();
    if (!first) {
      throw new TracerUnavailableError(`no vectorizer-worker address: ${this.options.target} resolves to none`, 5);
    }
    try {
      return await this.attempt(first, attempt, job);
    } catch (err) {
      const reason = this.retryReason(err, job);
      if (!reason) throw this.translate(err, job);
      // A lost server is tried again only when it is the only one (behind a Service's one virtual
      // address, a new connection may reach another pod); a full one is not asked twice.
      const second = this.workers.pick(new Set([first.address])) ?? (reason === 'lost' ? first : undefined);
      if (!second) throw this.translate(err, job);
      this.options.observer?.retried(reason);
      try {
        return await this.attempt(second, attempt, job);
      } catch (again) {
        throw this.translate(again, job);
      }
    }
  }

  private async attempt<T>(endpoint: Endpoint, attempt: Attempt<T>, job: JobOptions): Promise<T> {
    const deadlineMs = job.deadline === undefined ? undefined : job.deadline - Date.now();
    if (deadlineMs !== undefined && deadlineMs <= 0) throw new TracerTimeoutError();
    if (job.signal?.aborted) throw abortError();
    try {
      return await attempt(endpoint, { deadlineMs, signal: job.signal, requestId: job.requestId });
    } catch (err) {
      if (codeOf(err) === GrpcStatus.UNAVAILABLE) this.workers.markFailed(endpoint, detailsOf(err));
      throw Object.assign(err as object, { worker: endpoint.address });
    }
  }

  private retryReason(err: unknown, job: JobOptions): RetryReason | undefined {
    if (job.signal?.aborted) return undefined;
    if (job.deadline !== undefined && job.deadline <= Date.now()) return undefined;
    const code = codeOf(err);
    if (code === GrpcStatus.RESOURCE_EXHAUSTED) return 'busy';
    if (code === GrpcStatus.UNAVAILABLE) return 'lost';
    return undefined;
  }

  /** Seconds until a place is likely to free up on some server, from the last poll. */
  private retryAfterSeconds(): number {
    const waits = this.workers.all
      .filter((e) => e.reachable && e.capacity && e.capacity.threads > 0)
      .map(({ capacity: c }) => c && ((c.queued + c.threads) / c.threads) * Math.max(0.05, c.averageJobSeconds));
    return waits.length > 0 ? Math.min(...(waits as number[])) : 1;
  }

  private translate(err: unknown, job: JobOptions): Error {
    if (err instanceof Error && err.name.startsWith('Tracer')) return err;
    if (job.signal?.aborted) return abortError();
    const code = codeOf(err);
    const details = detailsOf(err);
    const worker = (err as { worker?: string }).worker ?? 'a vectorizer-worker';
    switch (code) {
      case GrpcStatus.INVALID_ARGUMENT:
        return new TracerInputError(details);
      case GrpcStatus.RESOURCE_EXHAUSTED:
        return new TracerBusyError(this.retryAfterSeconds());
      case GrpcStatus.UNAVAILABLE:
        return new TracerUnavailableError(`no vectorizer-worker could take the job (${worker}: ${details})`, 2);
      case GrpcStatus.DEADLINE_EXCEEDED:
        return new TracerTimeoutError();
      default:
        return new TraceFailedError(
          'RemoteTraceError',
          `${worker} answered ${code === undefined ? 'an error' : (GrpcStatus[code] ?? code)}: ${details}`,
        );
    }
  }
}
