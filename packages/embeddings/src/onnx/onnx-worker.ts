/**
 * The body of OnnxEmbedder's worker thread: opens the model here and answers one message per
 * batch, so that onnxruntime's run holds this thread and not the caller's.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxModel, type OnnxOptions } from './onnx-model.ts';
import type { Prefixes } from './prefixes.ts';

/** The caller's options less its log function, which the thread sends back as messages instead. */
export type WorkerOptions = Omit<OnnxOptions, 'log'>;

export type ToWorker = { id: number; texts: readonly string[] } | { id: number; close: true };

export type FromWorker =
  | { kind: 'log'; message: string }
  | {
      kind: 'ready';
      model: string;
      device: OnnxModel['device'];
      dimensions: number;
      maxTokens: number;
      pooling: OnnxModel['pooling'];
      prefixes: Prefixes;
    }
  | { kind: 'failed'; name: string; message: string }
  /** One batch's vectors, row after row in one transferred buffer; truncated: the count so far. */
  | { kind: 'vectors'; id: number; data: Float32Array; truncated: number }
  | { kind: 'error'; id: number; name: string; message: string }
  | { kind: 'closed'; id: number };

const port = parentPort;
if (!port) throw new Error('onnx-worker.ts runs as a worker thread (OnnxEmbedder starts it)');
const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  const model = await OnnxModel.open({
    ...(workerData as WorkerOptions),
    log: (message) => post({ kind: 'log', message }),
  });
  const handle = async (message: ToWorker) => {
    if ('close' in message) {
      await model.close();
      post({ kind: 'closed', id: message.id });
      return;
    }
    try {
      const vectors = await model.embedPrefixed(message.texts);
      const data = new Float32Array(vectors.length * model.dimensions);
      vectors.forEach((v, i) => {
        data.set(v, i * model.dimensions);
      });
      post({ kind: 'vectors', id: message.id, data, truncated: model.truncated }, [data.buffer]);
    } catch (err) {
      const e = err as Error;
      post({ kind: 'error', id: message.id, name: e.name, message: e.message });
    }
  };
  // One message at a time, in order: a close waits for the batches sent before it.
  let queue = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    queue = queue.then(() => handle(message));
  });
  post({
    kind: 'ready',
    model: model.model,
    device: model.device,
    dimensions: model.dimensions,
    maxTokens: model.maxTokens,
    pooling: model.pooling,
    prefixes: model.prefixes,
  });
} catch (err) {
  const e = err as Error;
  post({ kind: 'failed', name: e.name, message: e.message });
}
