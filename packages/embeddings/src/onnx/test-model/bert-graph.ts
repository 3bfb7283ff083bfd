import { addHashedWord } from '../../hash-embedder.ts';
import { encodeModel, FLOAT, type Graph, INT64, type Node, type Tensor } from './onnx-writer.ts';

/**
 * The shape of a BERT-like test encoder: word, token-type and position embeddings, then `layers`
 * blocks of single-head self-attention (padding masked) and a tanh feed-forward layer, each with a
 * residual connection and layer normalisation. Same operators and cost per token as BERT; the
 * weights are computed (`testWeights`), so anyone can recompute them.
 */
export interface BertShape {
  /** The vocabulary, in id order (a word's embedding is computed from the word). */
  vocab: readonly string[];
  hidden: number;
  layers: number;
  intermediate: number;
  maxPositions: number;
  seed: number;
}

/** What the graph declares, for the cases a loader must handle. */
export interface GraphVariant {
  /** Declare token_type_ids as an input (BERT does; many distilled models do not). */
  tokenTypeIds: boolean;
  /** Outputs: last_hidden_state only, also a CLS sentence_embedding, or only an unknown `logits`. */
  outputs: 'last_hidden_state' | 'sentence_embedding' | 'logits';
}

export const LAYER_NORM_EPSILON = 1e-5;

/** A 32-bit seeded generator (mulberry32): the same seed gives the same weights everywhere. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uniform(seed: number, n: number, scale: number, offset = 0): Float32Array {
  const next = generator(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = offset + (next() * 2 - 1) * scale;
  return out;
}

export interface LayerWeights {
  wq: Float32Array;
  wk: Float32Array;
  wv: Float32Array;
  wo: Float32Array;
  ln1g: Float32Array;
  ln1b: Float32Array;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
  ln2g: Float32Array;
  ln2b: Float32Array;
}

export interface BertWeights {
  word: Float32Array;
  type: Float32Array;
  position: Float32Array;
  lng: Float32Array;
  lnb: Float32Array;
  layers: LayerWeights[];
}

/**
 * A word gets a vector, and the first piece of a word outside the vocabulary (its first letter);
 * the pieces after it (`##e`), special tokens ([CLS], [SEP], ...) and punctuation do not.
 */
const HAS_MEANING = /^[a-z0-9]+$/;

/**
 * Every weight of the model, row-major ([in, out] for matrices). Chosen so that the model behaves
 * like the hashing embedder it stands in for in memory-api's tests, texts sharing words being
 * similar and others not, while every operator still changes the answer:
 * - a word's embedding is its hashed vector (±1 at three places, as HashEmbedder adds per word);
 *   special tokens, punctuation and the pieces after a word's first (a word outside the
 *   vocabulary is spelt letter by letter) have none, and token types and positions are tiny
 *   (1e-5), so that [CLS] and [SEP] bring no direction shared by every text, and two unknown words
 *   are not alike for sharing letters;
 * - attention's value and output projections are near the identity, scaled by 1/4: each token
 *   takes in a quarter of the text it attends to, and [CLS] and [SEP], empty until then, become
 *   the text's own words (their small position part stays in them), and so do the later pieces;
 * - the feed-forward output is small (2% of a layer's scale) and layer norms have no bias.
 * Mean pooling then gives about the normalised sum of the words' vectors. The rest (query and key
 * projections, gains, inner weights) comes from a seeded generator (mulberry32, `seed`).
 */
export function testWeights(s: BertShape): BertWeights {
  let k = s.seed * 1000;
  const u = (n: number, scale: number, offset = 0) => uniform(k++, n, scale, offset);
  const h = s.hidden;
  const nearIdentity = (scale: number) => {
    const m = u(h * h, (0.1 * scale) / Math.sqrt(h));
    for (let i = 0; i < h; i++) m[i * h + i] = (m[i * h + i] as number) + scale;
    return m;
  };
  const word = new Float32Array(s.vocab.length * h);
  s.vocab.forEach((token, i) => {
    if (HAS_MEANING.test(token)) addHashedWord(word.subarray(i * h, (i + 1) * h), token);
  });
  const type = u(2 * h, 1e-5);
  const position = u(s.maxPositions * h, 1e-5);
  const lng = u(h, 0.05, 1);
  const noBias = () => new Float32Array(h);
  const layers = Array.from({ length: s.layers }, () => ({
    wq: u(h * h, 1 / Math.sqrt(h)),
    wk: u(h * h, 1 / Math.sqrt(h)),
    wv: nearIdentity(1),
    wo: nearIdentity(0.25),
    ln1g: u(h, 0.05, 1),
    ln1b: noBias(),
    w1: u(h * s.intermediate, 1 / Math.sqrt(h)),
    b1: u(s.intermediate, 0.1),
    w2: u(s.intermediate * h, 0.02 / Math.sqrt(s.intermediate)),
    b2: noBias(),
    ln2g: u(h, 0.05, 1),
    ln2b: noBias(),
  }));
  return { word, type, position, lng, lnb: noBias(), layers };
}

const f32 = (name: string, dims: number[], data: Float32Array): Tensor => ({ name, dims, type: FLOAT, data });
const i64 = (name: string, dims: number[], values: number[]): Tensor => ({
  name,
  dims,
  type: INT64,
  data: BigInt64Array.from(values.map(BigInt)),
});

/** The ONNX model bytes of `shape` with `variant`'s inputs and outputs. */
export function bertModel(shape: BertShape, variant: GraphVariant): Uint8Array {
  const w = testWeights(shape);
  const h = shape.hidden;
  const nodes: Node[] = [];
  const init: Tensor[] = [];
  const op = (type: string, inputs: string[], output: string, attributes?: Node['attributes']) => {
    nodes.push({ op: type, inputs, outputs: [output], attributes });
    return output;
  };
  const layerNorm = (x: string, g: Float32Array, b: Float32Array, name: string) => {
    init.push(f32(`${name}.g`, [h], g), f32(`${name}.b`, [h], b));
    return op('LayerNormalization', [x, `${name}.g`, `${name}.b`], `${name}.out`, [
      { name: 'axis', int: -1 },
      { name: 'epsilon', float: LAYER_NORM_EPSILON },
    ]);
  };
  const matmul = (x: string, m: Float32Array, rows: number, cols: number, name: string) => {
    init.push(f32(name, [rows, cols], m));
    return op('MatMul', [x, name], `${name}.out`);
  };

  init.push(
    f32('word_embeddings', [shape.vocab.length, h], w.word),
    f32('position_embeddings', [shape.maxPositions, h], w.position),
    i64('zero', [], [0]),
    i64('one', [], [1]),
    i64('axis1', [1], [1]),
    f32('one_f', [], Float32Array.of(1)),
    f32('neg_big', [], Float32Array.of(-10000)),
    f32('scale', [], Float32Array.of(1 / Math.sqrt(h))),
  );
  let x = op('Gather', ['word_embeddings', 'input_ids'], 'words');
  if (variant.tokenTypeIds) {
    init.push(f32('token_type_embeddings', [2, h], w.type));
    x = op('Add', [x, op('Gather', ['token_type_embeddings', 'token_type_ids'], 'types')], 'with_types');
  }
  const shapeOf = op('Shape', ['input_ids'], 'ids_shape');
  const length = op('Gather', [shapeOf, 'one'], 'seq_len', [{ name: 'axis', int: 0 }]);
  const positions = op('Range', ['zero', length, 'one'], 'positions');
  x = op('Add', [x, op('Gather', ['position_embeddings', positions], 'pos')], 'embedded');
  x = layerNorm(x, w.lng, w.lnb, 'emb_ln');
  // Padding gets -10000 added to its attention scores: softmax gives it no weight.
  const mask = op('Unsqueeze', [op('Cast', ['attention_mask'], 'mask_f', [{ name: 'to', int: FLOAT }]), 'axis1'], 'm3');
  const bias = op('Mul', [op('Sub', ['one_f', mask], 'inv_mask'), 'neg_big'], 'mask_bias');

  w.layers.forEach((l, i) => {
    const p = `l${i}`;
    const q = matmul(x, l.wq, h, h, `${p}.wq`);
    const k = matmul(x, l.wk, h, h, `${p}.wk`);
    const v = matmul(x, l.wv, h, h, `${p}.wv`);
    const kt = op('Transpose', [k], `${p}.kt`, [{ name: 'perm', ints: [0, 2, 1] }]);
    const scores = op('Add', [op('Mul', [op('MatMul', [q, kt], `${p}.qk`), 'scale'], `${p}.scaled`), bias], `${p}.s`);
    const probs = op('Softmax', [scores], `${p}.p`, [{ name: 'axis', int: -1 }]);
    const attended = matmul(op('MatMul', [probs, v], `${p}.pv`), l.wo, h, h, `${p}.wo`);
    x = layerNorm(op('Add', [x, attended], `${p}.r1`), l.ln1g, l.ln1b, `${p}.ln1`);
    init.push(f32(`${p}.b1`, [shape.intermediate], l.b1), f32(`${p}.b2`, [h], l.b2));
    const inner = op(
      'Tanh',
      [op('Add', [matmul(x, l.w1, h, shape.intermediate, `${p}.w1`), `${p}.b1`], `${p}.f1`)],
      `${p}.t`,
    );
    const ff = op('Add', [matmul(inner, l.w2, shape.intermediate, h, `${p}.w2`), `${p}.b2`], `${p}.f2`);
    x = layerNorm(op('Add', [x, ff], `${p}.r2`), l.ln2g, l.ln2b, `${p}.ln2`);
  });

  const hidden = variant.outputs === 'logits' ? 'logits' : 'last_hidden_state';
  op('Identity', [x], hidden);
  const outputs: Graph['outputs'] = [{ name: hidden, type: FLOAT, shape: ['batch', 'sequence', h] }];
  if (variant.outputs === 'sentence_embedding') {
    // The first token's state, as a model that pools in its graph would answer it.
    op('Gather', [x, 'zero'], 'sentence_embedding', [{ name: 'axis', int: 1 }]);
    outputs.push({ name: 'sentence_embedding', type: FLOAT, shape: ['batch', h] });
  }
  const inputs: Graph['inputs'] = [
    { name: 'input_ids', type: INT64, shape: ['batch', 'sequence'] },
    { name: 'attention_mask', type: INT64, shape: ['batch', 'sequence'] },
  ];
  if (variant.tokenTypeIds) inputs.push({ name: 'token_type_ids', type: INT64, shape: ['batch', 'sequence'] });
  return encodeModel({ nodes, initializers: init, inputs, outputs });
}
