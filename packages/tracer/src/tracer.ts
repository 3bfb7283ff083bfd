import type { ResolvedEngine, RgbaImage, VectorizeOptions } from '@trove/vectorize';
import type { OptimizedSvg, OptimizeSettings } from './output/optimize-svg.ts';
import type { PackedPaths } from './packed-paths.ts';

/** A trace's result as it crosses a thread or the network. */
export interface TraceOutput {
  /** The traced SVG, or the optimised one when the job asked for `optimize`. */
  svg: string;
  width: number;
  height: number;
  engineUsed: ResolvedEngine;
  pathCount: number;
  /** The path list packed into typed arrays, only when the job asked for `includePaths`. */
  paths?: PackedPaths;
  /** The PDF or EPS file, when the job asked for one. */
  document?: Uint8Array;
}

/** Vector documents written from the path list next to the trace. */
export type DocumentFormat = 'pdf' | 'eps';

/** What a caller may ask of one job besides the image and the tracing options. */
export interface JobOptions {
  /** Aborting it drops the job from the queue, or stops it mid-run; the call rejects with an AbortError. */
  signal?: AbortSignal;
  /**
   * Epoch milliseconds after which nobody waits for the answer: the job is dropped or stopped then,
   * and the call rejects with TracerTimeoutError.
   */
  deadline?: number;
  /** Carried to a remote worker (x-request-id) so one id follows the job across services. */
  requestId?: string;
}

export interface TraceJob extends JobOptions {
  /** Also write this document from the paths (in the same job, next to the trace). */
  document?: DocumentFormat;
  /** Optimise the SVG in the same job (one queue wait instead of two). */
  optimize?: OptimizeSettings;
  /** Answer the packed path list too. */
  includePaths?: boolean;
  /**
   * Hand the pixels' ArrayBuffer to the worker thread instead of copying it: `image.data` is
   * unusable afterwards. Only a buffer that can be transferred is (sharp's output cannot; it is
   * copied once instead).
   */
  transferPixels?: boolean;
}

/** How much work a tracer can take now, for health reports and Retry-After estimates. */
export interface TracerStatus {
  mode: 'in-process' | 'remote';
  /** Tracing threads in all (over the reachable servers when remote). */
  threads: number;
  /** Jobs allowed to wait when every thread is busy (summed likewise). */
  queueLength: number;
  /** Jobs running now. */
  busy: number;
  /** Jobs waiting now. */
  queued: number;
  /** Jobs that would be accepted now: free threads plus free queue places. */
  spare: number;
  /** Remote only: worker servers known, and how many answered the last capacity poll. */
  servers?: { total: number; reachable: number };
}

/**
 * Where the CPU-heavy work runs: an in-process worker_threads pool, or vectorizer-worker servers
 * over gRPC. The HTTP routes see only this.
 */
export interface Tracer {
  /**
   * Traces validated options over decoded pixels. Rejects with TracerBusyError when no more work
   * can be accepted, TracerUnavailableError when no worker can be reached, TracerInputError for
   * input the engine refuses, TracerTimeoutError past the deadline, and an AbortError once the
   * signal aborts.
   */
  trace(image: RgbaImage, options: VectorizeOptions, job?: TraceJob): Promise<TraceOutput>;
  /**
   * Removes external references and script from an SVG document, then runs svgo on it, with the
   * same errors.
   */
  optimize(svg: string, settings: OptimizeSettings, job?: JobOptions): Promise<OptimizedSvg>;
  /** Capacity now; never waits on the network (a remote tracer answers from its last poll). */
  status(): TracerStatus;
  close(): Promise<void>;
}
