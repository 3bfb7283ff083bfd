/**
 * The tfjs backend against the GloVe backend it was built from: the model shipped in
 * models/glove-sg-100d-top10k (graph format, the 10,000 most frequent words), the same model in
 * layers format, and the whole vocabulary, each run by TensorFlow.js on cpu and on wasm.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GloveEmbedder, tokenize } from '@trove/embeddings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPED_TFJS_MODEL } from '../src/backends.ts';
import { exportGlove } from '../src/tfjs/glove-export.ts';
import { startTfjs } from '../src/tfjs/runtime.ts';
import { TfjsEmbedder } from '../src/tfjs/tfjs-embedder.ts';

const cacheDir = join(tmpdir(), 'trove-embeddings-test-cache');
const quiet = { info: () => {}, warn: () => {} };
/** Float32 sums in another order than GloVe's: differences stay around 1e-7. */
const TOLERANCE = 1e-5;

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs((a[i] as number) - (b[i] as number)));
  return most;
}

/** Sentences of words the 10k subset knows: picked from its vocabulary with a fixed seed. */
function sentencesFrom(vocabulary: string[], count: number): string[] {
  let seed = 12345;
  const next = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) & 0x7fffffff;
    return seed;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + (next() % 30) }, () => vocabulary[next() % vocabulary.length]).join(' '),
  );
}

let glove: GloveEmbedder;
let shippedWords: string[];
let work: string;

beforeAll(async () => {
  glove = await GloveEmbedder.open({ cacheDir, log: () => {} });
  shippedWords = (await readFile(join(SHIPPED_TFJS_MODEL, 'vocab.txt'), 'utf8')).split('\n').filter(Boolean);
  work = await mkdtemp(join(tmpdir(), 'trove-tfjs-test-'));
}, 180_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe.each(['cpu', 'wasm'] as const)('tfjs backend on %s', (device) => {
  const models: Record<string, TfjsEmbedder> = {};
  beforeAll(async () => {
    await startTfjs(device, quiet);
    const layersDir = join(work, `layers-${device}`);
    await exportGlove(glove, layersDir, { vocabulary: 10_000, format: 'layers' });
    models.graph = await TfjsEmbedder.open({ dir: SHIPPED_TFJS_MODEL, device, log: quiet });
    models.layers = await TfjsEmbedder.open({ dir: layersDir, device, log: quiet });
  }, 120_000);
  afterAll(async () => {
    for (const model of Object.values(models)) await model.close();
  });

  it('runs on the device asked for and names the subset model', () => {
    expect(models.graph?.device).toBe(device);
    expect(models.graph?.model).toBe(`${glove.model}-top10000`);
    expect(models.layers?.model).toBe(`${glove.model}-top10000`);
    expect(models.graph?.dimensions).toBe(100);
  });

  it.each(['graph', 'layers'])('%s model: the same vectors as GloVe for texts of words it knows', async (format) => {
    const texts = [...sentencesFrom(shippedWords, 64), 'The cat sat on the carpet.', 'Revenue grew by twelve percent!'];
    for (const text of texts) for (const word of tokenize(text)) expect(shippedWords).toContain(word);
    const [got, want] = [await models[format]?.embed(texts), await glove.embed(texts)];
    expect(got).toHaveLength(texts.length);
    let worst = 0;
    got?.forEach((vector, i) => {
      worst = Math.max(worst, maxDifference(vector, want[i] as Float32Array));
    });
    expect(worst).toBeLessThan(TOLERANCE);
  });

  it.each(['graph', 'layers'])('%s model: words outside the subset weigh nothing', async (format) => {
    // "mat" and "zeppelin" are in GloVe's vocabulary but not among its 10,000 most frequent words.
    for (const word of ['mat', 'zeppelin']) expect(glove.knows(word) && !shippedWords.includes(word)).toBe(true);
    const [got] = (await models[format]?.embed(['the cat sat on the mat in the zeppelin'])) ?? [];
    const [without] = await glove.embed(['the cat sat on the in the']);
    expect(maxDifference(got as Float32Array, without as Float32Array)).toBeLessThan(TOLERANCE);
    const [empty, unknown] = (await models[format]?.embed(['', 'zzqxv qqwrt'])) ?? [];
    expect(Array.from(empty as Float32Array).every((v) => v === 0)).toBe(true);
    expect(Array.from(unknown as Float32Array).every((v) => v === 0)).toBe(true);
  });

  it('gives a text the same vector alone and padded in a batch of longer texts', async () => {
    const texts = ['a short one', sentencesFrom(shippedWords, 1)[0] as string, 'word '.repeat(200)];
    const batch = (await models.graph?.embed(texts)) ?? [];
    for (const [i, text] of texts.entries()) {
      const [alone] = (await models.graph?.embed([text])) ?? [];
      expect(maxDifference(alone as Float32Array, batch[i] as Float32Array)).toBeLessThan(TOLERANCE);
    }
  });
});

describe('tfjs backend, whole vocabulary', () => {
  it('has GloVe id and vectors, rare words included', async () => {
    await startTfjs('cpu', quiet);
    const dir = join(work, 'whole');
    const manifest = await exportGlove(glove, dir, { format: 'graph' });
    expect(manifest.id).toBe(glove.model);
    const model = await TfjsEmbedder.open({ dir, device: 'cpu', log: quiet });
    try {
      const texts = ['The cat sat on the mat.', 'quarterly revenue of the zeppelin consortium', "don't panic", ''];
      const [got, want] = [await model.embed(texts), await glove.embed(texts)];
      got.forEach((vector, i) => {
        expect(maxDifference(vector, want[i] as Float32Array)).toBeLessThan(TOLERANCE);
      });
    } finally {
      await model.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('tfjs model directory checks', () => {
  async function copyOfShipped(name: string, change: (manifest: Record<string, unknown>) => void): Promise<string> {
    const dir = join(work, name);
    await exportGlove(glove, dir, { vocabulary: 50, format: 'graph' });
    const manifest = JSON.parse(await readFile(join(dir, 'trove-model.json'), 'utf8'));
    change(manifest);
    await writeFile(join(dir, 'trove-model.json'), JSON.stringify(manifest));
    return dir;
  }
  const open = (dir: string) => TfjsEmbedder.open({ dir, device: 'cpu', log: quiet }).then(() => undefined);

  it('names the directory and what is wrong with it', async () => {
    await expect(open(join(work, 'nowhere'))).rejects.toThrow(/nowhere has no readable trove-model.json \(ENOENT\)/);
    const tokenizer = await copyOfShipped('tokenizer', (m) => {
      m.tokenizer = 'bert-wordpiece';
    });
    await expect(open(tokenizer)).rejects.toThrow(/"tokenizer" must be one of trove-words-v1 \(got "bert-wordpiece"\)/);
    const outside = await copyOfShipped('escape', (m) => {
      m.vocabulary = '../../etc/passwd';
    });
    await expect(open(outside)).rejects.toThrow(/names a file outside itself: \.\.\/\.\.\/etc\/passwd/);
    const dims = await copyOfShipped('dims', (m) => {
      m.dimensions = 64;
    });
    await expect(open(dims)).rejects.toThrow(/answered shape \[1, 100\] for 1 texts; .* should answer \[1, 64\]/);
  }, 60_000);
});
