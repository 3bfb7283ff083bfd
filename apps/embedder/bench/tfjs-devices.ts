/**
 * The tfjs backend on each device, on the same model and the same texts, beside the GloVe backend
 * in process:
 *
 *   npm run bench:tfjs -w apps/embedder [-- --devices webgpu,wasm,cpu --model DIR --seconds 1.5 --rounds 3]
 *
 * One caller at a time, batch sizes 1 to 512: texts per second (median of the rounds) and call
 * latency p50/p99. A device that cannot start here (webgpu without a GPU) is listed with the reason.
 * For a GPU, build the whole-vocabulary model first (npm run build:model -w apps/embedder -- --out
 * DIR) and pass --model DIR: the shipped 10k-word model is there for tests.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GloveEmbedder } from '@trove/embeddings';
import { SHIPPED_TFJS_MODEL } from '../src/backends.ts';
import { TFJS_DEVICES, type TfjsDevice } from '../src/tfjs/devices.ts';
import { TfjsEmbedder } from '../src/tfjs/tfjs-embedder.ts';
import { Cell, closedLoop, flag, option, sentences } from './load.ts';

const seconds = flag('seconds', 1.5);
const rounds = flag('rounds', 3);
const devices = (option('devices') ?? 'webgpu,wasm,cpu').split(',') as TfjsDevice[];
for (const device of devices) {
  if ((device as string) === 'auto' || !TFJS_DEVICES.includes(device)) {
    throw new Error('--devices takes a comma-separated list of webgpu, wasm and cpu');
  }
}
const modelDir = option('model') ?? SHIPPED_TFJS_MODEL;
const BATCHES = [1, 8, 32, 128, 512];
const texts = sentences(20_000);
const log = { info: (fields: object, message: string) => console.error(message, fields), warn: () => {} };

const results = new Map<string, Map<number, Cell> | string>();
async function measure(name: string, embed: (t: string[]) => Promise<unknown>): Promise<void> {
  const cells = new Map(BATCHES.map((b) => [b, new Cell()]));
  await closedLoop(embed, texts, { batch: 32, clients: 1, seconds: 1 }); // warm up
  for (let round = 1; round <= rounds; round++) {
    process.stderr.write(`${name}: round ${round} of ${rounds}\n`);
    for (const batch of BATCHES) cells.get(batch)?.add(await closedLoop(embed, texts, { batch, clients: 1, seconds }));
  }
  results.set(name, cells);
}

const glove = await GloveEmbedder.open({
  cacheDir: process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache'),
});
await measure('glove (in process)', (t) => glove.embed(t));
let modelId = '';
for (const device of devices) {
  let model: TfjsEmbedder;
  try {
    model = await TfjsEmbedder.open({ dir: modelDir, device, log });
  } catch (err) {
    results.set(`tfjs ${device}`, `not measured: ${(err as Error).message}`);
    continue;
  }
  modelId = model.model;
  await measure(`tfjs ${device}`, (t) => model.embed(t));
  await model.close();
}

console.log(
  `tfjs model ${modelId || '(none loaded)'} from ${modelDir}; one caller, ${seconds} s per setup, median of ${rounds} rounds; latency in ms\n`,
);
const measured = [...results].filter((r): r is [string, Map<number, Cell>] => typeof r[1] !== 'string');
console.log(`${'batch'.padEnd(7)}${measured.map(([name]) => name.padEnd(36)).join('')}`);
for (const batch of BATCHES) {
  console.log(
    `${String(batch).padEnd(7)}${measured.map(([, cells]) => (cells.get(batch) as Cell).describe().padEnd(36)).join('')}`,
  );
}
for (const [name, result] of results) if (typeof result === 'string') console.log(`\n${name}: ${result}`);
