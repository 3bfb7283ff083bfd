import { Worker } from 'node:worker_threads';
import type { Embedder } from '../embedder.ts';
import { ModelDirError } from './model-dir.ts';
import type { OnnxModel, OnnxOptions } from './onnx-model.ts';
import type { FromWorker, ToWorker, WorkerOptions } from './onnx-worker.ts';
import { PrefixingEmbedder } from './prefixes.ts';

export type { OnnxOptions } from './onnx-model.ts';

const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

type Ready = Extract<FromWorker, { kind: 'ready' }>;

/**
 * The onnx model (OnnxModel) on a worker thread of its own. onnxruntime-node's `session.run` is
 * synchronous on the thread that calls it: in the caller's thread every run stopped the event loop
 * for its whole length (tens to hundreds of milliseconds), so the embedder service read no calls
 * and wrote no answers meanwhile, and memory-api served no HTTP. Here the caller's thread decodes,
 * encodes and queues the next batch while the model runs; vectors come back in one transferred
 * buffer per batch. Batches run one after another, in the order sent.
 */
export class OnnxEmbedder extends PrefixingEmbedder implements Embedder {
  readonly backend = 'onnx';
  readonly normalized = true;
  /** A transformer embeds words in context: a lone word's vector is not a word vector. */
  readonly wordVectors = false;
  /** Texts cut at maxTokens since start. */
  truncated = 0;
  readonly model: string;
  readonly device: OnnxModel['device'];
  readonly dimensions: number;
  readonly maxTokens: number;
  readonly pooling: OnnxModel['pooling'];
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(m: FromWorker): void; reject(err: Error): void }>();
  private stopped: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    ready: Ready,
  ) {
    super(ready.prefixes);
    this.model = ready.model;
    this.device = ready.device;
    this.dimensions = ready.dimensions;
    this.maxTokens = ready.maxTokens;
    this.pooling = ready.pooling;
    worker.on('message', (message: FromWorker) => {
      if (!('id' in message)) return;
      const call = this.pending.get(message.id);
      this.pending.delete(message.id);
      // An idle model does not keep the process alive (memory-api's CLI commands, tests).
      if (this.pending.size === 0) worker.unref();
      call?.resolve(message);
    });
    const stop = (err: Error) => {
      this.stopped ??= err;
      for (const call of this.pending.values()) call.reject(this.stopped);
      this.pending.clear();
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`the onnx model's thread stopped (exit code ${code})`)));
    worker.unref();
  }

  /** Starts the thread, which loads and checks the model and runs one text on the device (see OnnxModel.open). */
  static async open(options: OnnxOptions): Promise<OnnxEmbedder> {
    const { log = (message: string) => console.error(message), ...rest } = options;
    const worker = new Worker(WORKER_ENTRY, { workerData: rest satisfies WorkerOptions });
    // The thread's log lines, in the order it wrote them (before the answer they came with).
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'log') log(message.message);
    });
    const ready = await new Promise<Ready>((resolve, reject) => {
      const fail = (err: Error) => {
        void worker.terminate();
        reject(err);
      };
      worker.once('error', fail);
      worker.once('exit', (code) =>
        fail(new Error(`the onnx model's thread stopped while loading (exit code ${code})`)),
      );
      const listen = (message: FromWorker) => {
        if (message.kind === 'ready') {
          worker.off('message', listen);
          worker.removeAllListeners('error').removeAllListeners('exit');
          resolve(message);
        } else if (message.kind === 'failed') {
          // The same one line as in process: a model directory error names its file.
          fail(message.name === 'ModelDirError' ? new ModelDirError(message.message) : new Error(message.message));
        }
      };
      worker.on('message', listen);
    });
    return new OnnxEmbedder(worker, ready);
  }

  /** Texts that already carry their prefix (see PrefixingEmbedder), in one message to the thread. */
  async embedPrefixed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const reply = await this.send({ id: this.nextId++, texts });
    if (reply.kind === 'error') throw new Error(reply.message);
    if (reply.kind !== 'vectors') throw new Error(`unexpected answer from the onnx thread: ${reply.kind}`);
    this.truncated = reply.truncated;
    const d = this.dimensions;
    return texts.map((_, i) => reply.data.subarray(i * d, (i + 1) * d));
  }

  /**
   * For readiness: rejects once the model's thread has stopped (closed, or ended by an error), when
   * every call would fail, so that /readyz says so and an orchestrator restarts the process.
   */
  async check(): Promise<void> {
    if (this.stopped) throw this.stopped;
  }

  /** Releases the session (after the batches already sent) and ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    await this.send({ id: this.nextId++, close: true }).catch(() => {});
    this.stopped = new Error('the onnx model is closed');
    await this.worker.terminate();
  }

  private send(message: ToWorker): Promise<FromWorker> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(message);
    });
  }
}
