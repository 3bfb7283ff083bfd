/**
 * Writes the GloVe sentence embedder as a TensorFlow.js model directory for the tfjs backend.
 *
 *   npm run build:model -w apps/embedder -- --out DIR [--vocabulary N|all] [--format graph|layers] [--cache-dir DIR]
 *
 * The model shipped in models/glove-sg-100d-top10k is `--vocabulary 10000 --format graph`; an
 * image that serves GloVe with tfjs builds the whole vocabulary (`--vocabulary all`, ~36 MB).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { GloveEmbedder } from '@trove/embeddings';
import { exportGlove } from '../tfjs/glove-export.ts';
import { startTfjs } from '../tfjs/runtime.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    vocabulary: { type: 'string', default: 'all' },
    format: { type: 'string', default: 'graph' },
    'cache-dir': { type: 'string', default: './data/cache' },
  },
});
const usage = 'usage: build-glove-model --out DIR [--vocabulary N|all] [--format graph|layers] [--cache-dir DIR]';
const vocabulary = values.vocabulary === 'all' ? undefined : Number(values.vocabulary);
if (!values.out || (vocabulary !== undefined && !(Number.isInteger(vocabulary) && vocabulary > 0))) {
  console.error(usage);
  process.exit(2);
}
if (values.format !== 'graph' && values.format !== 'layers') {
  console.error(`--format must be graph or layers\n${usage}`);
  process.exit(2);
}

const started = performance.now();
await startTfjs('cpu', { info: () => {}, warn: () => {} });
const glove = await GloveEmbedder.open({ cacheDir: values['cache-dir'] as string });
const out = resolve(values.out);
const manifest = await exportGlove(glove, out, { vocabulary, format: values.format });
console.log(
  `wrote ${manifest.id} (${values.format} model, ${manifest.dimensions} dimensions) to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
