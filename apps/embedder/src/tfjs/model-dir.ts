/**
 * A model directory the tfjs backend serves:
 *
 *   model.json        a TensorFlow.js model, graph format (`tensorflowjs_converter` output,
 *                     tf.loadGraphModel) or layers format (tf.LayersModel.save)
 *   *.bin             its weight files, as model.json's weightsManifest names them
 *   vocab.txt         the vocabulary: one token a line; line n (from 0) is token id n + 1
 *   trove-model.json  { "id", "dimensions", "tokenizer": "trove-words-v1", "vocabulary": "vocab.txt" }
 *
 * The model takes int32 token ids [batch, tokens], 0 for padding and for words not in the
 * vocabulary, and gives float32 [batch, dimensions]; the backend scales each row to unit length.
 * Tokenising stays in TypeScript (`tokenize` of @trove/embeddings), so a model needs no string ops.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { io } from '@tensorflow/tfjs-core';

export const MANIFEST_FILE = 'trove-model.json';
export const MODEL_FILE = 'model.json';
/** Lower-cased words as `tokenize` of @trove/embeddings splits them. */
export const TOKENIZERS = ['trove-words-v1'] as const;

export interface ModelManifest {
  /** Names the model and its version; memory-api stores it beside every vector. */
  id: string;
  dimensions: number;
  tokenizer: (typeof TOKENIZERS)[number];
  /** File of the vocabulary, relative to the directory. */
  vocabulary: string;
  /** Tokens beyond this many are dropped from a text; unset keeps them all. */
  maxTokens?: number;
  /** Free text: where the model comes from, how it was built. */
  description?: string;
}

export interface ModelDirectory {
  dir: string;
  manifest: ModelManifest;
  /** Token -> id (1-based; 0 is padding and unknown). */
  vocabulary: Map<string, number>;
  format: 'graph-model' | 'layers-model';
  /** Loads model.json and its weights, for tf.loadGraphModel / tf.loadLayersModel. */
  handler: io.IOHandler;
}

function fail(dir: string, problem: string): never {
  throw new Error(`the tfjs model directory ${dir} ${problem}`);
}

async function readJson(dir: string, file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(join(dir, file), 'utf8');
  } catch (err) {
    fail(dir, `has no readable ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    fail(dir, `has a ${file} that is not JSON: ${(err as Error).message}`);
  }
}

/** A path from the model's own files, refused when it would leave the directory. */
function inside(dir: string, path: string): string {
  const full = resolve(dir, path);
  const rel = relative(dir, full);
  if (rel.startsWith('..') || isAbsolute(rel)) fail(dir, `names a file outside itself: ${path}`);
  return full;
}

function checkManifest(dir: string, raw: Record<string, unknown>): ModelManifest {
  const { id, dimensions, tokenizer, vocabulary, maxTokens } = raw;
  if (typeof id !== 'string' || !/^[\w.:-]{1,128}$/.test(id)) {
    fail(dir, `${MANIFEST_FILE}: "id" must be 1-128 letters, digits, dot, dash, colon or underscore`);
  }
  if (!Number.isInteger(dimensions) || (dimensions as number) < 1) {
    fail(dir, `${MANIFEST_FILE}: "dimensions" must be a positive whole number`);
  }
  if (!TOKENIZERS.includes(tokenizer as never)) {
    fail(
      dir,
      `${MANIFEST_FILE}: "tokenizer" must be one of ${TOKENIZERS.join(', ')} (got ${JSON.stringify(tokenizer)})`,
    );
  }
  if (typeof vocabulary !== 'string') fail(dir, `${MANIFEST_FILE}: "vocabulary" must name the vocabulary file`);
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)) {
    fail(dir, `${MANIFEST_FILE}: "maxTokens" must be a positive whole number when set`);
  }
  return raw as unknown as ModelManifest;
}

/** Which of the two formats model.json is in: its "format" field, else the shape of its topology. */
function formatOf(dir: string, model: Record<string, unknown>): ModelDirectory['format'] {
  if (model.format === 'graph-model' || model.format === 'layers-model') return model.format;
  const topology = model.modelTopology as Record<string, unknown> | undefined;
  if (topology && Array.isArray(topology.node)) return 'graph-model';
  if (topology && ('class_name' in topology || 'model_config' in topology)) return 'layers-model';
  fail(dir, `has a ${MODEL_FILE} that is neither a graph model nor a layers model`);
}

/** Reads and checks a model directory; the weights are read when the handler loads. */
export async function openModelDirectory(dir: string): Promise<ModelDirectory> {
  const manifest = checkManifest(dir, await readJson(dir, MANIFEST_FILE));
  const modelJson = (await readJson(dir, MODEL_FILE)) as unknown as io.ModelJSON;
  const format = formatOf(dir, modelJson as unknown as Record<string, unknown>);
  const words = (await readFile(inside(dir, manifest.vocabulary), 'utf8')).split('\n');
  if (words.at(-1) === '') words.pop();
  const vocabulary = new Map<string, number>();
  words.forEach((word, line) => {
    if (!vocabulary.has(word)) vocabulary.set(word, line + 1);
  });
  const handler: io.IOHandler = {
    load: () =>
      io.getModelArtifactsForJSON(modelJson, async (weightsManifest) => {
        const specs = weightsManifest.flatMap((group) => group.weights);
        const parts: Buffer[] = [];
        for (const group of weightsManifest) {
          for (const path of group.paths) parts.push(await readFile(inside(dir, path)));
        }
        const all = Buffer.concat(parts);
        return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength)];
      }),
  };
  return { dir, manifest, vocabulary, format, handler };
}
