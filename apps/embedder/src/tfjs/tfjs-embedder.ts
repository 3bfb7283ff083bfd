import * as tf from '@tensorflow/tfjs-core';
import { tokenize } from '@trove/embeddings';
import { MODEL_FILE, type ModelDirectory, openModelDirectory } from './model-dir.ts';
import { type RuntimeLog, startTfjs, type TfjsDevice, type TfjsDeviceSetting } from './runtime.ts';

export interface TfjsEmbedderOptions {
  /** The model directory (see model-dir.ts). */
  dir: string;
  device: TfjsDeviceSetting;
  log: RuntimeLog;
}

type Run = (ids: tf.Tensor2D) => tf.Tensor;

async function loadModel(directory: ModelDirectory): Promise<{ run: Run; dispose: () => void }> {
  if (directory.format === 'graph-model') {
    const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
    const model = await loadGraphModel(directory.handler);
    if (model.inputs.length !== 1 || model.outputs.length !== 1) {
      throw new Error(
        `the graph model in ${directory.dir} has ${model.inputs.length} inputs and ${model.outputs.length} outputs; the embedder runs models with one of each (token ids in, vectors out)`,
      );
    }
    return { run: (ids) => model.execute(ids) as tf.Tensor, dispose: () => model.dispose() };
  }
  const { loadLayersModel } = await import('@tensorflow/tfjs-layers');
  const model = await loadLayersModel(directory.handler);
  return { run: (ids) => model.predict(ids) as tf.Tensor, dispose: () => model.dispose() };
}

/**
 * The `tfjs` backend: a TensorFlow.js model from a directory, run on webgpu, wasm or cpu. Texts are
 * tokenised here, padded to the longest text of the batch, and the model's output rows are scaled
 * to unit length on the device before they are read back.
 */
export class TfjsEmbedder {
  readonly backend = 'tfjs';
  readonly normalized = true;
  readonly model: string;
  readonly dimensions: number;

  private constructor(
    readonly device: TfjsDevice,
    private readonly directory: ModelDirectory,
    private readonly net: { run: Run; dispose: () => void },
  ) {
    this.model = directory.manifest.id;
    this.dimensions = directory.manifest.dimensions;
  }

  /** Starts tfjs on the configured device, loads the model and checks what it answers. */
  static async open(options: TfjsEmbedderOptions): Promise<TfjsEmbedder> {
    const runtime = await startTfjs(options.device, options.log);
    const directory = await openModelDirectory(options.dir);
    const embedder = new TfjsEmbedder(runtime.device, directory, await loadModel(directory));
    try {
      await embedder.embed(['check the shape of what the model answers']);
    } catch (err) {
      embedder.net.dispose();
      throw new Error(`the model in ${options.dir} (${MODEL_FILE}) could not embed a text: ${(err as Error).message}`);
    }
    return embedder;
  }

  /** Token ids of a text: 0 for words outside the vocabulary (the model gives them no weight). */
  tokenIds(text: string): Int32Array {
    const { vocabulary, manifest } = this.directory;
    const tokens = tokenize(text);
    const count = Math.min(tokens.length, manifest.maxTokens ?? tokens.length);
    const ids = new Int32Array(count);
    for (let i = 0; i < count; i++) ids[i] = vocabulary.get(tokens[i] as string) ?? 0;
    return ids;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const rows = texts.map((text) => this.tokenIds(text));
    // At least one column: tfjs ops do not take empty dimensions; an all-padding row embeds to zero.
    const width = rows.reduce((most, row) => Math.max(most, row.length), 1);
    const ids = new Int32Array(texts.length * width);
    for (const [i, row] of rows.entries()) ids.set(row, i * width);
    const unit = tf.tidy(() => {
      const out = this.net.run(tf.tensor2d(ids, [texts.length, width], 'int32'));
      if (out.rank !== 2 || out.shape[0] !== texts.length || out.shape[1] !== this.dimensions) {
        throw new Error(
          `the model answered shape [${out.shape.join(', ')}] for ${texts.length} texts; ${this.directory.manifest.id} should answer [${texts.length}, ${this.dimensions}]`,
        );
      }
      const squares = tf.sum(tf.square(out), 1, true);
      // A zero row (no known word) stays zero, as the GloVe backend leaves it.
      return tf.mul(out, tf.rsqrt(tf.maximum(squares, 1e-30)));
    });
    try {
      const values = (await unit.data()) as Float32Array;
      return rows.map((_, i) => values.slice(i * this.dimensions, (i + 1) * this.dimensions));
    } finally {
      unit.dispose();
    }
  }

  async close(): Promise<void> {
    this.net.dispose();
  }
}
