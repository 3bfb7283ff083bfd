import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export const POOLINGS = ['mean', 'cls', 'last'] as const;
export type Pooling = (typeof POOLINGS)[number];

/** What a Hugging Face model directory says about running it, read before the session opens. */
export interface ModelDir {
  dir: string;
  /** The .onnx file, absolute. */
  modelFile: string;
  /** Its external weight files beside it (model.onnx_data and the like), absolute. */
  dataFiles: string[];
  tokenizer: object;
  tokenizerConfig: Record<string, unknown>;
  /** `_name_or_path` of config.json, else the directory's name. */
  name: string;
  /** From 1_Pooling/config.json when present. */
  pooling: Pooling | undefined;
  /** The smallest of the lengths the files state (tokenizer, positions, sentence-transformers). */
  maxTokens: number | undefined;
  /** sentence-transformers' prompts (config_sentence_transformers.json), by name. */
  prompts: Record<string, string>;
}

/** An error naming the file, as one line. */
export class ModelDirError extends Error {
  override readonly name = 'ModelDirError';
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function readJson(dir: string, file: string, required: true): Promise<Record<string, unknown>>;
async function readJson(dir: string, file: string, required: false): Promise<Record<string, unknown> | undefined>;
async function readJson(dir: string, file: string, required: boolean) {
  const path = join(dir, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ModelDirError(`${path} is missing or unreadable: a model directory needs ${file}`);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new ModelDirError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
}

function poolingOf(config: Record<string, unknown> | undefined): Pooling | undefined {
  if (!config) return undefined;
  if (config.pooling_mode_mean_tokens) return 'mean';
  if (config.pooling_mode_cls_token) return 'cls';
  if (config.pooling_mode_lasttoken) return 'last';
  const modes = Object.keys(config).filter((k) => k.startsWith('pooling_mode_') && config[k]);
  throw new ModelDirError(
    `1_Pooling/config.json asks for ${modes.join(', ') || 'no pooling'}; supported: mean, cls, last token (set ONNX_POOLING to override)`,
  );
}

/** A length a file states, if it is a sane one (tokenizers say 1e30 for "no limit"). */
function length(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 && value < 1_000_000 ? value : undefined;
}

/**
 * Reads a model directory: `file` (relative; default onnx/model.onnx, else model.onnx) and the
 * tokenizer are required; config.json, 1_Pooling/config.json, sentence_bert_config.json and
 * config_sentence_transformers.json are read when present.
 */
export async function readModelDir(dir: string, file?: string): Promise<ModelDir> {
  if (!(await exists(dir))) throw new ModelDirError(`model directory ${dir} does not exist`);
  const candidates = file ? [file] : ['onnx/model.onnx', 'model.onnx'];
  let modelFile: string | undefined;
  for (const candidate of candidates) {
    if (await exists(join(dir, candidate))) {
      modelFile = join(dir, candidate);
      break;
    }
  }
  if (!modelFile) {
    throw new ModelDirError(
      `${join(dir, candidates[0] as string)} is missing: the model directory has no ONNX graph there (ONNX_MODEL_FILE names another)`,
    );
  }
  const stem = basename(modelFile);
  const dataFiles = (await readdir(dirname(modelFile)))
    .filter((f) => f !== stem && f.startsWith(stem) && /[._]data(_\d+)?$/.test(f))
    .map((f) => join(dirname(modelFile), f));
  const tokenizer = await readJson(dir, 'tokenizer.json', true);
  const tokenizerConfig = await readJson(dir, 'tokenizer_config.json', true);
  const config = await readJson(dir, 'config.json', false);
  const sbert = await readJson(dir, 'sentence_bert_config.json', false);
  const st = await readJson(dir, 'config_sentence_transformers.json', false);
  const lengths = [
    length(tokenizerConfig.model_max_length),
    length(config?.max_position_embeddings),
    length(sbert?.max_seq_length),
  ].filter((n): n is number => n !== undefined);
  return {
    dir,
    modelFile,
    dataFiles,
    tokenizer,
    tokenizerConfig,
    name: typeof config?._name_or_path === 'string' && config._name_or_path ? config._name_or_path : basename(dir),
    pooling: poolingOf(await readJson(dir, '1_Pooling/config.json', false)),
    maxTokens: lengths.length ? Math.min(...lengths) : undefined,
    prompts: (st?.prompts as Record<string, string> | undefined) ?? {},
  };
}

/** sha-256 over the graph, its external weights and the tokenizer. */
export async function filesHash(model: ModelDir): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [model.modelFile, ...model.dataFiles.sort(), join(model.dir, 'tokenizer.json')]) {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}
