import {
  type CallContext,
  deadlineExceeded,
  GrpcError,
  GrpcStatus,
  type HandlersFor,
  hasGrpcCode,
  invalidArgument,
  resourceExhausted,
} from '@trove/grpc-kit';
import type { TracerService } from '@trove/proto/vectorize/v1';
import {
  documentFromWire,
  type JobOptions,
  optimizedToWire,
  optionsFromWire,
  outputToWire,
  settingsFromWire,
  TracerBusyError,
  TracerInputError,
  TracerTimeoutError,
  type WorkerPool,
} from '@trove/tracer';
import { VectorizeOptionError, type VectorizeOptions, validateOptions } from '@trove/vectorize';
import type { WorkerConfig } from './config.ts';

/**
 * What the pool needs from a call: its deadline, and a signal that aborts when the caller cancels
 * (or, marked as a timeout, when the deadline passes), so the job is dropped or its thread replaced.
 */
function jobOptions(call: CallContext): JobOptions {
  const controller = new AbortController();
  const forward = () =>
    controller.abort(
      hasGrpcCode(call.signal.reason, GrpcStatus.DEADLINE_EXCEEDED) ? new TracerTimeoutError() : call.signal.reason,
    );
  if (call.signal.aborted) forward();
  else call.signal.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, deadline: call.deadline, requestId: call.requestId };
}

/** Pool errors as gRPC statuses; anything else is a bug, answered INTERNAL and logged by the kit. */
async function answering<T>(config: WorkerConfig, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TracerBusyError) {
      throw resourceExhausted(
        `every tracing thread is busy and ${config.QUEUE_LENGTH} jobs are waiting (QUEUE_LENGTH): retry on another worker or in ${Math.ceil(err.retryAfterSeconds)} s`,
      );
    }
    if (err instanceof TracerInputError) throw invalidArgument(err.message);
    if (err instanceof TracerTimeoutError) throw deadlineExceeded('the deadline passed before the job finished');
    if ((err as Error).name === 'AbortError')
      throw new GrpcError(GrpcStatus.CANCELLED, 'the caller cancelled the call');
    throw err;
  }
}

function checkedOptions(raw: Record<string, unknown>): VectorizeOptions {
  try {
    return validateOptions(raw);
  } catch (err) {
    if (err instanceof VectorizeOptionError) throw invalidArgument(`options.${err.message}`);
    throw err;
  }
}

function checkedSettings(wire: { preset: string; multipass: boolean; iterations: number }) {
  try {
    return settingsFromWire(wire);
  } catch (err) {
    throw invalidArgument((err as Error).message);
  }
}

export function tracerHandlers(config: WorkerConfig, pool: WorkerPool): HandlersFor<typeof TracerService> {
  return {
    trace: async (request, call) => {
      const { width, height, rgba } = request;
      if (width < 1 || height < 1)
        throw invalidArgument(`width and height must be at least 1 (got ${width}×${height})`);
      if (width * height > config.MAX_IMAGE_PIXELS) {
        throw invalidArgument(
          `the image is ${width}×${height} = ${width * height} pixels; this worker takes at most ${config.MAX_IMAGE_PIXELS} (MAX_IMAGE_PIXELS)`,
        );
      }
      if (rgba.length !== width * height * 4) {
        throw invalidArgument(`rgba must hold width × height × 4 = ${width * height * 4} bytes (got ${rgba.length})`);
      }
      const options = checkedOptions(optionsFromWire(request.options));
      const optimize = request.optimize && checkedSettings(request.optimize);
      return answering(config, async () => {
        // The pixels are a view on the buffer grpc-js read the message into, which nothing else
        // holds: handed to the thread, not copied.
        const output = await pool.trace({ width, height, data: rgba }, options, {
          ...jobOptions(call),
          document: documentFromWire(request.document),
          optimize,
          includePaths: request.includePaths,
          transferPixels: true,
        });
        return outputToWire(output);
      });
    },
    optimize: async (request, call) => {
      const bytes = Buffer.byteLength(request.svg);
      if (bytes > config.MAX_SVG_BYTES) {
        throw invalidArgument(
          `the SVG is ${bytes} bytes; this worker takes at most ${config.MAX_SVG_BYTES} (MAX_SVG_BYTES)`,
        );
      }
      const settings = checkedSettings(request);
      return answering(config, async () =>
        optimizedToWire(await pool.optimize(request.svg, settings, jobOptions(call))),
      );
    },
    getCapacity: async () => {
      const status = pool.status();
      return {
        threads: status.threads,
        queueLength: status.queueLength,
        inFlight: status.busy,
        queued: status.queued,
        averageJobSeconds: pool.averageJobSeconds,
      };
    },
  };
}
