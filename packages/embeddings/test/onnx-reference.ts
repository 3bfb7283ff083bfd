/**
 * The test model computed by hand: a lower-casing WordPiece tokenizer and the BERT-shaped forward
 * pass in plain JavaScript (float64) over the weights the model was written with. Shares nothing
 * with the embedder but the weights, so agreement checks tokenising, feeding, pooling and the graph.
 */
import { type BertShape, LAYER_NORM_EPSILON, testWeights } from '../src/onnx/test-model/bert-graph.ts';
import { testVocabulary } from '../src/onnx/test-model/write-test-model.ts';

export function referenceTokens(text: string): number[] {
  const vocab = new Map(testVocabulary().map((t, i) => [t, i]));
  const id = (t: string) => vocab.get(t) as number;
  const words = text.toLowerCase().match(/[a-z0-9]+|[^\sa-z0-9]/g) ?? [];
  const ids = [id('[CLS]')];
  for (const word of words) {
    let start = 0;
    const pieces: number[] = [];
    while (start < word.length) {
      let end = word.length;
      let found: number | undefined;
      for (; end > start; end--) {
        found = vocab.get((start > 0 ? '##' : '') + word.slice(start, end));
        if (found !== undefined) break;
      }
      if (found === undefined) {
        pieces.length = 0;
        pieces.push(id('[UNK]'));
        break;
      }
      pieces.push(found);
      start = end;
    }
    ids.push(...pieces);
  }
  ids.push(id('[SEP]'));
  return ids;
}

type Matrix = number[][];

const matmul = (x: Matrix, w: Float32Array, cols: number): Matrix =>
  x.map((row) => {
    const out = new Array<number>(cols).fill(0);
    row.forEach((v, i) => {
      for (let c = 0; c < cols; c++) out[c] = (out[c] as number) + v * (w[i * cols + c] as number);
    });
    return out;
  });

function layerNorm(x: Matrix, g: Float32Array, b: Float32Array): Matrix {
  return x.map((row) => {
    const mean = row.reduce((s, v) => s + v, 0) / row.length;
    const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / row.length;
    const inv = 1 / Math.sqrt(variance + LAYER_NORM_EPSILON);
    return row.map((v, i) => (v - mean) * inv * (g[i] as number) + (b[i] as number));
  });
}

const add = (a: Matrix, b: Matrix) => a.map((row, i) => row.map((v, j) => v + (b[i]?.[j] as number)));

/** The last hidden state of one text (no padding): one row per token. */
export function referenceHidden(shape: BertShape, ids: number[], tokenTypes: boolean): Matrix {
  const w = testWeights(shape);
  const h = shape.hidden;
  let x: Matrix = ids.map((id, j) =>
    Array.from(
      { length: h },
      (_, d) =>
        (w.word[id * h + d] as number) + (tokenTypes ? (w.type[d] as number) : 0) + (w.position[j * h + d] as number),
    ),
  );
  x = layerNorm(x, w.lng, w.lnb);
  for (const l of w.layers) {
    const q = matmul(x, l.wq, h);
    const k = matmul(x, l.wk, h);
    const v = matmul(x, l.wv, h);
    const attended = q.map((qi) => {
      const scores = k.map((kj) => qi.reduce((s, a, d) => s + a * (kj[d] as number), 0) / Math.sqrt(h));
      const top = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - top));
      const sum = e.reduce((s, a) => s + a, 0);
      return Array.from({ length: h }, (_, d) => e.reduce((s, p, j) => s + (p / sum) * (v[j]?.[d] as number), 0));
    });
    x = layerNorm(add(x, matmul(attended, l.wo, h)), l.ln1g, l.ln1b);
    const inner = matmul(x, l.w1, shape.intermediate).map((row) =>
      row.map((a, i) => Math.tanh(a + (l.b1[i] as number))),
    );
    const ff = matmul(inner, l.w2, h).map((row) => row.map((a, i) => a + (l.b2[i] as number)));
    x = layerNorm(add(x, ff), l.ln2g, l.ln2b);
  }
  return x;
}

export function unit(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, a) => s + a * a, 0));
  return v.map((a) => a / n);
}

export function referencePool(hidden: Matrix, mode: 'mean' | 'cls' | 'last'): number[] {
  if (mode === 'cls') return unit(hidden[0] as number[]);
  if (mode === 'last') return unit(hidden[hidden.length - 1] as number[]);
  const h = (hidden[0] as number[]).length;
  return unit(
    Array.from({ length: h }, (_, d) => hidden.reduce((s, row) => s + (row[d] as number), 0) / hidden.length),
  );
}

/** Largest absolute difference. */
export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = a.length === b.length ? 0 : Number.POSITIVE_INFINITY;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs((a[i] as number) - (b[i] as number)));
  return worst;
}
