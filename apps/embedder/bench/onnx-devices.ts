/**
 * The onnx backend in process on each device: texts per second and call latency at batch 1, 8,
 * 32 and 128 (one caller), and how far each device's vectors are from the first device's.
 *
 *   npx tsx apps/embedder/bench/onnx-devices.ts [--model DIR | --shape small|base] [--devices cpu,webgpu,cuda] [--seconds 2]
 *
 * Without --model it writes the BERT-shaped test model at BERT-small's (default) or BERT-base's
 * sizes to a temporary directory: seeded weights, so the timing is a real model's, the vectors
 * are not. bench/grpc-vs-in-process.ts runs the same table first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuLimit, ONNX_DEVICES, type OnnxDevice, OnnxEmbedder } from '@trove/embeddings/onnx';
import { BERT_BASE_SHAPE, BERT_SMALL_SHAPE, testVocabulary, writeTestModel } from '@trove/embeddings/onnx-test-model';
import { Cell, closedLoop, option, sentences } from './load.ts';

export const ONNX_BATCHES = [1, 8, 32, 128];

export interface BenchModel {
  dir: string;
  /** Texts in words the model's tokenizer knows whole (the test vocabulary for a written model). */
  texts: string[];
  describe: string;
  remove(): Promise<void>;
}

/** --model DIR, or the test model written at --shape's sizes. */
export async function benchModel(): Promise<BenchModel> {
  const given = option('model');
  if (given) return { dir: given, texts: sentences(20_000), describe: given, remove: async () => {} };
  const name = option('shape') ?? 'small';
  if (name !== 'small' && name !== 'base') throw new Error('--shape takes small or base');
  const root = await mkdtemp(join(tmpdir(), 'trove-onnx-bench-'));
  const shape = name === 'base' ? BERT_BASE_SHAPE : BERT_SMALL_SHAPE;
  await writeTestModel(root, { shape });
  const words = testVocabulary().filter((w) => /^[a-z]{2,}$/.test(w));
  return {
    dir: root,
    texts: sentences(20_000, 7, words),
    describe: `test model at BERT-${name} sizes (${shape.layers} layers of ${shape.hidden}, ${shape.intermediate} inner)`,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export function devicesOption(): OnnxDevice[] {
  const devices = (option('devices') ?? 'cpu').split(',') as OnnxDevice[];
  for (const d of devices) if (!ONNX_DEVICES.includes(d)) throw new Error(`--devices takes ${ONNX_DEVICES.join(', ')}`);
  return devices;
}

/** Prints one line per device and batch size; a device that does not open is reported and skipped. */
export async function deviceTable(model: BenchModel, devices: OnnxDevice[], seconds: number): Promise<void> {
  console.log(
    `onnx in process, ${model.describe}; ${cpuLimit()} CPU threads; one caller, ${seconds} s per cell; latency per call in ms`,
  );
  const probe = model.texts.slice(0, 32);
  let first: Float32Array[] | undefined;
  for (const device of devices) {
    let embedder: OnnxEmbedder;
    const started = performance.now();
    try {
      embedder = await OnnxEmbedder.open({ dir: model.dir, device, log: () => {} });
    } catch (err) {
      console.log(`${device.padEnd(8)} not available: ${(err as Error).message}`);
      continue;
    }
    const load = ((performance.now() - started) / 1000).toFixed(1);
    const vectors = await embedder.embed(probe);
    first ??= vectors;
    let diff = 0;
    vectors.forEach((v, i) => {
      v.forEach((x, d) => {
        diff = Math.max(diff, Math.abs(x - (first?.[i]?.[d] as number)));
      });
    });
    console.log(
      `${embedder.device}: loaded and warmed in ${load} s; largest difference from ${devices[0]}: ${diff.toExponential(1)}`,
    );
    for (const batch of ONNX_BATCHES) {
      await closedLoop((t) => embedder.embed(t), model.texts, { batch, clients: 1, seconds: Math.min(0.5, seconds) });
      const cell = new Cell();
      cell.add(await closedLoop((t) => embedder.embed(t), model.texts, { batch, clients: 1, seconds }));
      console.log(`  ${embedder.device.padEnd(7)} batch ${String(batch).padStart(3)}  ${cell.describe()}`);
    }
    await embedder.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const model = await benchModel();
  try {
    await deviceTable(model, devicesOption(), Number(option('seconds') ?? 2));
  } finally {
    await model.remove();
  }
}
