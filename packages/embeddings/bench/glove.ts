/**
 * GloVe embedder cost: warm open of the compact vector file, sentences per second on one thread,
 * and the process's resident memory afterwards, beside the JSON the npm package ships.
 *   npm run bench -w packages/embeddings
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GloveEmbedder } from '../src/index.ts';

const cacheDir = join(tmpdir(), 'trove-embeddings-test-cache');
const warm = existsSync(join(cacheDir, 'glove-sg-100d.v1.bin'));

const opened = performance.now();
const glove = await GloveEmbedder.open({ cacheDir });
const openMs = performance.now() - opened;

const texts = Array.from(
  { length: 20_000 },
  (_, i) => `note ${i}: the user prefers dark roast coffee before the morning stand-up meeting`,
);
const started = performance.now();
await glove.embed(texts);
const seconds = (performance.now() - started) / 1000;

console.log(
  `${warm ? 'warm open of the compact vectors' : 'first open (builds the compact file)'}: ${openMs.toFixed(0)} ms`,
);
console.log(`embedding: ${Math.round(texts.length / seconds)} sentences/s (${texts.length} sentences of ~13 words)`);
console.log(
  `resident memory: ${Math.round(process.memoryUsage().rss / 1e6)} MB (the shipped JSON alone is 307 MB on disk)`,
);
