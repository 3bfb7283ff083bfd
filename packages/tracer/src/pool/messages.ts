import type { VectorizeOptions } from '@trove/vectorize';
import type { OptimizedSvg, OptimizeSettings } from '../output/optimize-svg.ts';
import type { DocumentFormat, TraceOutput } from '../tracer.ts';

/**
 * Pool → worker thread. Only structured-clone-friendly values: the pixels travel as a Uint8Array
 * whose buffer is transferred when it can be, never as JSON or a plain array.
 */
export type WorkerRequest =
  | {
      id: number;
      kind: 'trace';
      width: number;
      height: number;
      data: Uint8Array;
      options: VectorizeOptions;
      document?: DocumentFormat;
      optimize?: OptimizeSettings;
      includePaths?: boolean;
    }
  | { id: number; kind: 'optimize'; svg: string; settings: OptimizeSettings };

/** Worker thread → pool. Errors travel as name and message (Error objects lose their class across threads). */
export type WorkerResponse =
  | { id: number; ok: true; result: TraceOutput | OptimizedSvg; seconds: number }
  | { id: number; ok: false; name: string; message: string };

/** What a job asks for, without the id the pool assigns. */
export type WorkerTask =
  | Omit<Extract<WorkerRequest, { kind: 'trace' }>, 'id'>
  | Omit<Extract<WorkerRequest, { kind: 'optimize' }>, 'id'>;
