import { type ConfigOf, type EnvVar, env } from '@trove/service-kit';
import { ONNX_DEVICES } from './devices.ts';
import { POOLINGS } from './model-dir.ts';
import type { OnnxOptions } from './onnx-embedder.ts';

/** A prefix as written, trailing space kept (the kit's strings are trimmed; `query: ` needs its space). */
function prefix(description: string): EnvVar<string | undefined> {
  return {
    description,
    allowed: 'any text, spaces kept',
    fallback: undefined,
    required: false,
    parse: (raw) => (raw === undefined || raw === '' ? undefined : raw),
  };
}

/**
 * The onnx backend's variables, read by the embedder service (EMBEDDER_BACKEND=onnx) and by
 * memory-api embedding in process (EMBEDDER=onnx) alike.
 */
export function onnxEnv() {
  return {
    ONNX_MODEL_DIR: env.optionalString({
      description:
        'Hugging Face model directory the `onnx` backend runs: tokenizer.json, tokenizer_config.json and onnx/model.onnx (external `.onnx_data` beside it), optionally config.json, 1_Pooling/config.json and config_sentence_transformers.json; required for `onnx`',
      hint: 'a directory path',
    }),
    ONNX_MODEL_FILE: env.optionalString({
      description:
        'The graph inside ONNX_MODEL_DIR, e.g. `onnx/model_quantized.onnx`; unset: onnx/model.onnx, else model.onnx',
      hint: 'a path relative to ONNX_MODEL_DIR',
    }),
    ONNX_DEVICE: env.oneOf(ONNX_DEVICES, {
      description:
        'Where `onnx` runs: `cpu`; `webgpu` (a GPU through Dawn and Vulkan: needs the Vulkan loader and a driver); `cuda` (needs the CUDA provider libraries installed beside onnxruntime-node, see the embedder README); `auto` tries cuda, then webgpu, then cpu and logs each that fails. A named device that fails stops the start',
      default: 'cpu',
    }),
    ONNX_THREADS: env.int({
      description:
        "onnxruntime's intra-op threads; 0: the process's CPU limit (the cgroup quota, else the CPUs it may use)",
      default: 0,
      min: 0,
      max: 1_024,
    }),
    ONNX_POOLING: env.oneOf(['model', ...POOLINGS] as const, {
      description:
        'How token states become one vector when the graph has no `sentence_embedding` output: `model` (as 1_Pooling/config.json says, mean without it), `mean`, `cls` or `last` (the last real token)',
      default: 'model',
    }),
    ONNX_QUERY_PREFIX: prefix(
      'Put before each question, e.g. `query: ` (e5) or `Represent this sentence for searching relevant passages: ` (bge); unset: the `query` prompt of config_sentence_transformers.json, else none',
    ),
    ONNX_DOCUMENT_PREFIX: prefix(
      'Put before each stored text, e.g. `passage: ` (e5); unset: the `document` (or `passage`) prompt of config_sentence_transformers.json, else none',
    ),
    ONNX_MAX_TOKENS: env.int({
      description:
        "Tokens per text, special tokens included; longer texts are cut (counted and logged); 0: the model's own limit (smallest of tokenizer_config.json, config.json and sentence_bert_config.json; 512 if none says)",
      default: 0,
      min: 0,
      max: 1_000_000,
    }),
  };
}

export type OnnxConfig = ConfigOf<ReturnType<typeof onnxEnv>>;

/** Options for OnnxEmbedder.open from the variables; throws one line when the directory is unset. */
export function onnxOptions(config: OnnxConfig, selector: string, log?: (message: string) => void): OnnxOptions {
  if (!config.ONNX_MODEL_DIR) throw new Error(`ONNX_MODEL_DIR must name a model directory when ${selector}=onnx`);
  return {
    dir: config.ONNX_MODEL_DIR,
    file: config.ONNX_MODEL_FILE,
    device: config.ONNX_DEVICE,
    threads: config.ONNX_THREADS,
    pooling: config.ONNX_POOLING === 'model' ? undefined : config.ONNX_POOLING,
    queryPrefix: config.ONNX_QUERY_PREFIX,
    documentPrefix: config.ONNX_DOCUMENT_PREFIX,
    maxTokens: config.ONNX_MAX_TOKENS,
    log,
  };
}
