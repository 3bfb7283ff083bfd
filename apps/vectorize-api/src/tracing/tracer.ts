import type { ResolvedEngine, RgbaImage, VectorizeOptions } from '@trove/vectorize';
import type { OptimizeSettings } from '../output/optimize-svg.ts';
import type { PackedPaths } from './packed-paths.ts';

/** A trace's result as it crosses a thread (or a network): the path list packed into typed arrays. */
export interface TraceOutput {
  svg: string;
  width: number;
  height: number;
  engineUsed: ResolvedEngine;
  pathCount: number;
  /** Unpack with `unpackPaths` when the caller needs the paths themselves. */
  paths: PackedPaths;
  /** The PDF or EPS file, when `trace` was asked for one. */
  document?: Uint8Array;
}

/** Vector documents written from the path list next to the trace. */
export type DocumentFormat = 'pdf' | 'eps';

/**
 * The seam between the HTTP routes and wherever the CPU-heavy work runs. Today an in-process
 * worker pool; a networked tracing service can implement the same methods later without touching
 * the routes.
 */
export interface Tracer {
  /**
   * Traces validated options over decoded pixels. Rejects with `TracerBusyError` when no more work
   * can be accepted, and with an `AbortError` once `signal` aborts (the job is dropped or stopped).
   * With `document`, the result also carries that PDF or EPS file.
   */
  trace(
    image: RgbaImage,
    options: VectorizeOptions,
    signal?: AbortSignal,
    document?: DocumentFormat,
  ): Promise<TraceOutput>;
  /** Runs svgo on an SVG document, with the same busy and abort behaviour. */
  optimize(svg: string, settings: OptimizeSettings, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** The tracer cannot take another job now; callers should retry after `retryAfterSeconds`. */
export class TracerBusyError extends Error {
  override readonly name = 'TracerBusyError';
  constructor(readonly retryAfterSeconds: number) {
    super('all tracing workers are busy and the queue is full');
  }
}

export function abortError(): Error {
  return new DOMException('the job was cancelled', 'AbortError');
}
