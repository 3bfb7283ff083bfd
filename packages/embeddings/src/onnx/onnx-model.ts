import { createHash } from 'node:crypto';
import { Tokenizer } from '@huggingface/tokenizers';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { type Embedder, normalize } from '../embedder.ts';
import { type ConcreteDevice, cpuLimit, firstWorking, type OnnxDevice, sessionOptions } from './devices.ts';
import { filesHash, ModelDirError, type Pooling, readModelDir } from './model-dir.ts';
import { type Prefixes, PrefixingEmbedder } from './prefixes.ts';
import { planRuns } from './runs.ts';

export interface OnnxOptions {
  /** A Hugging Face model directory: tokenizer.json, tokenizer_config.json, onnx/model.onnx, ... */
  dir: string;
  /** The graph, relative to dir (default onnx/model.onnx, else model.onnx). */
  file?: string;
  device: OnnxDevice;
  /** Intra-op threads; 0 or unset: the CPU limit of this process. */
  threads?: number;
  /** Overrides 1_Pooling/config.json; with neither, mean. Ignored when the graph pools itself. */
  pooling?: Pooling;
  /** Put before each text: a question (`query: `) or a stored text (`passage: `). */
  queryPrefix?: string;
  documentPrefix?: string;
  /** Tokens per text, special tokens included; 0 or unset: the model's own limit. */
  maxTokens?: number;
  log?: (message: string) => void;
}

const KNOWN_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids', 'position_ids'];
/** Most padded tokens one session.run takes; a bigger batch runs in several, shortest texts first. */
const TOKENS_PER_RUN = 16_384;
const DEFAULT_MAX_TOKENS = 512;
/**
 * On the CPU a run ends where padding would pass 10% of its real tokens: on BERT-small's sizes,
 * 32 texts of 8-26 tokens cost 25% less CPU per text than padded in one run (5.0 against 6.6 ms,
 * one thread; 0.25 and 0 gave 5.2 and 5.7).
 */
const CPU_PADDING_SLACK = 0.1;

interface Encoded {
  ids: number[];
  types: number[];
}

type IntArray = BigInt64Array | Int32Array;

/**
 * A transformer sentence-embedding model from a Hugging Face directory, run by onnxruntime on the
 * CPU, a GPU through WebGPU (Dawn over Vulkan) or CUDA. The graph's own `sentence_embedding` is
 * used when it has one, else `last_hidden_state` is pooled; vectors are L2-normalised.
 *
 * It runs on the thread that calls it, and onnxruntime-node's `session.run` holds that thread for
 * the whole run: OnnxEmbedder (onnx-embedder.ts) runs it on a worker thread of its own.
 */
export class OnnxModel extends PrefixingEmbedder implements Embedder {
  readonly backend = 'onnx';
  readonly normalized = true;
  /** A transformer embeds words in context: a lone word's vector is not a word vector. */
  readonly wordVectors = false;
  /** Texts cut at maxTokens since start. */
  truncated = 0;
  dimensions = 0;

  private constructor(
    readonly model: string,
    readonly device: ConcreteDevice,
    readonly maxTokens: number,
    readonly pooling: Pooling | 'graph',
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    prefixes: Prefixes,
    private readonly specialIds: Set<number>,
    private readonly padId: number,
    private readonly log: (message: string) => void,
  ) {
    super(prefixes);
  }

  /** Loads and checks the model, then runs one text on the device, so that a bad model or device fails here. */
  static async open(options: OnnxOptions): Promise<OnnxModel> {
    const log = options.log ?? ((message: string) => console.error(message));
    const dir = await readModelDir(options.dir, options.file);
    const tokenizer = new Tokenizer(dir.tokenizer, dir.tokenizerConfig);
    const special = [...tokenizer.get_added_tokens_decoder()].filter(([, t]) => t.special).map(([id]) => id);
    const padToken = dir.tokenizerConfig.pad_token;
    const padId = (typeof padToken === 'string' ? tokenizer.token_to_id(padToken) : undefined) ?? 0;
    const maxTokens = options.maxTokens || dir.maxTokens || DEFAULT_MAX_TOKENS;
    const prefixes: Prefixes = {
      query: options.queryPrefix ?? dir.prompts.query ?? '',
      document: options.documentPrefix ?? dir.prompts.document ?? dir.prompts.passage ?? '',
    };
    const threads = options.threads || cpuLimit();
    const files = await filesHash(dir);
    const { value: embedder, device } = await firstWorking(
      options.device,
      async (candidate) => {
        const session = await InferenceSession.create(dir.modelFile, sessionOptions(candidate, threads));
        const hidden = understood(session, dir.modelFile);
        const pooling = hidden === 'sentence_embedding' ? 'graph' : (options.pooling ?? dir.pooling ?? 'mean');
        // The id changes exactly when stored vectors must be recomputed: other files or other settings.
        const settings = JSON.stringify({ files, pooling, prefixes, maxTokens });
        const id = `${dir.name}@${createHash('sha256').update(settings).digest('hex').slice(0, 12)}`;
        const e = new OnnxModel(
          id,
          candidate,
          maxTokens,
          pooling,
          session,
          tokenizer,
          prefixes,
          new Set(special),
          padId,
          log,
        );
        try {
          const [probe] = await e.embed(['warm up the model on its device']);
          e.dimensions = probe?.length ?? 0;
          e.truncated = 0;
        } catch (err) {
          await session.release();
          throw err;
        }
        return e;
      },
      log,
    );
    log(
      `onnx: ${embedder.model} on ${device} (${threads} CPU threads): ${embedder.dimensions} dimensions, ${embedder.pooling} pooling, at most ${maxTokens} tokens per text`,
    );
    return embedder;
  }

  /** Texts that already carry their prefix (see PrefixingEmbedder). */
  async embedPrefixed(texts: readonly string[]): Promise<Float32Array[]> {
    const encoded = texts.map((text) => this.encode(text));
    // Shortest first, so that each run pads to a length close to its texts' (planRuns).
    const order = encoded
      .map((_, i) => i)
      .sort((a, b) => (encoded[a]?.ids.length ?? 0) - (encoded[b]?.ids.length ?? 0));
    const out = new Array<Float32Array>(texts.length);
    const lengths = order.map((i) => encoded[i]?.ids.length ?? 0);
    for (const [start, end] of planRuns(
      lengths,
      TOKENS_PER_RUN,
      this.device === 'cpu' ? CPU_PADDING_SLACK : Infinity,
    )) {
      const chunk = order.slice(start, end);
      const vectors = await this.run(chunk.map((i) => encoded[i] as Encoded));
      chunk.forEach((i, k) => {
        out[i] = vectors[k] as Float32Array;
      });
    }
    return out;
  }

  private encode(text: string): Encoded {
    const e = this.tokenizer.encode(text, { return_token_type_ids: true });
    let ids = e.ids;
    let types = e.token_type_ids ?? ids.map(() => 0);
    if (ids.length > this.maxTokens) {
      // Keep a closing special token ([SEP], </s>): models are trained with one at the end.
      const last = ids[ids.length - 1] as number;
      const keep = this.specialIds.has(last) ? this.maxTokens - 1 : this.maxTokens;
      ids = [...ids.slice(0, keep), ...(keep < this.maxTokens ? [last] : [])];
      types = types.slice(0, this.maxTokens);
      this.truncated++;
      if (isPowerOfTwo(this.truncated)) {
        this.log(`onnx: ${this.truncated} text(s) so far cut to ${this.maxTokens} tokens (the model's limit)`);
      }
    }
    return { ids, types };
  }

  private async run(batch: Encoded[]): Promise<Float32Array[]> {
    const rows = batch.length;
    const width = Math.max(...batch.map((e) => e.ids.length));
    const feeds: Record<string, Tensor> = {};
    const fill = (name: string, value: (e: Encoded, j: number) => number) => {
      const meta = this.session.inputMetadata.find((m) => m.name === name);
      const int32 = meta?.isTensor && meta.type === 'int32';
      const data: IntArray = int32 ? new Int32Array(rows * width) : new BigInt64Array(rows * width);
      batch.forEach((e, r) => {
        for (let j = 0; j < width; j++) {
          const v = j < e.ids.length ? value(e, j) : name === 'input_ids' ? this.padId : 0;
          if (int32) (data as Int32Array)[r * width + j] = v;
          else (data as BigInt64Array)[r * width + j] = BigInt(v);
        }
      });
      feeds[name] = new Tensor(int32 ? 'int32' : 'int64', data, [rows, width]);
    };
    const inputs = new Set(this.session.inputNames);
    fill('input_ids', (e, j) => e.ids[j] as number);
    if (inputs.has('attention_mask')) fill('attention_mask', () => 1);
    if (inputs.has('token_type_ids')) fill('token_type_ids', (e, j) => e.types[j] as number);
    if (inputs.has('position_ids')) fill('position_ids', (_, j) => j);
    const result = await this.session.run(feeds);
    if (this.pooling === 'graph') return split(result.sentence_embedding as Tensor, rows);
    const hidden =
      result[this.session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : 'token_embeddings'];
    return pool(hidden as Tensor, batch, this.pooling);
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

const isPowerOfTwo = (n: number) => (n & (n - 1)) === 0;

/** Checks the graph's inputs and outputs; answers the output that embeds. Throws one line naming what is not understood. */
function understood(session: InferenceSession, file: string): 'sentence_embedding' | 'last_hidden_state' {
  const unknown = session.inputNames.filter((n) => !KNOWN_INPUTS.includes(n));
  if (!session.inputNames.includes('input_ids') || unknown.length) {
    throw new ModelDirError(
      `${file}: input(s) ${(unknown.length ? unknown : session.inputNames).join(', ')} not understood: expected input_ids and optionally ${KNOWN_INPUTS.slice(1).join(', ')}`,
    );
  }
  const outputs = session.outputNames;
  if (outputs.includes('sentence_embedding')) return 'sentence_embedding';
  if (outputs.includes('last_hidden_state') || outputs.includes('token_embeddings')) return 'last_hidden_state';
  throw new ModelDirError(
    `${file}: output(s) ${outputs.join(', ')} not understood: expected sentence_embedding or last_hidden_state`,
  );
}

function checkRank(t: Tensor, rank: number, name: string): void {
  if (t.dims.length !== rank || t.type !== 'float32') {
    throw new ModelDirError(
      `output ${name} has shape [${t.dims.join(', ')}] of ${t.type}; expected ${rank} dimensions of float32`,
    );
  }
}

function split(t: Tensor, rows: number): Float32Array[] {
  checkRank(t, 2, 'sentence_embedding');
  const data = t.data as Float32Array;
  const h = t.dims[1] as number;
  return Array.from({ length: rows }, (_, r) => normalize(data.slice(r * h, (r + 1) * h)));
}

/** Mean over a text's own tokens (padding excluded), its first token, or its last real token. */
function pool(t: Tensor, batch: Encoded[], mode: Pooling): Float32Array[] {
  checkRank(t, 3, 'last_hidden_state');
  const data = t.data as Float32Array;
  const [, width, h] = t.dims as [number, number, number];
  return batch.map((e, r) => {
    const n = e.ids.length;
    const base = r * width * h;
    if (mode !== 'mean') {
      const at = base + (mode === 'cls' ? 0 : n - 1) * h;
      return normalize(data.slice(at, at + h));
    }
    const v = new Float32Array(h);
    for (let j = 0; j < n; j++) {
      const row = base + j * h;
      for (let d = 0; d < h; d++) v[d] = (v[d] as number) + (data[row + d] as number);
    }
    for (let d = 0; d < h; d++) v[d] = (v[d] as number) / n;
    return normalize(v);
  });
}
