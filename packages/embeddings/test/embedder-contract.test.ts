/**
 * The embedder contract, one suite run against the model in process and against apps/embedder as
 * a real process on loopback: same inputs give the same vectors, batch order is kept, and errors
 * come back mapped to a message naming the embedder.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningEmbedder, startEmbedder } from '../../../tests/support/processes.ts';
import { type Embedder, GloveEmbedder, GrpcEmbedder, HashEmbedder } from '../src/index.ts';

const cacheDir = join(tmpdir(), 'trove-embeddings-test-cache');
const TEXTS = [
  'The cat sat on the mat.',
  'A kitten rested on the rug',
  'Quarterly revenue grew by twelve percent',
  '',
  'words unknown: zzqxv qqwrt',
];

interface Subject {
  name: string;
  open(): Promise<{ embedder: Embedder; reference: Embedder; close(): Promise<void> }>;
}

const remote = (backend: 'glove' | 'hash', reference: () => Promise<Embedder>): Subject => ({
  name: `apps/embedder over gRPC (${backend})`,
  open: async () => {
    const running: RunningEmbedder = await startEmbedder({
      EMBEDDER_BACKEND: backend,
      EMBEDDINGS_CACHE_DIR: cacheDir,
      MAX_TEXTS_PER_CALL: '3',
    });
    const embedder = await GrpcEmbedder.connect({ target: running.target, deadlineMs: 10_000 });
    return {
      embedder,
      reference: await reference(),
      close: async () => {
        await embedder.close();
        await running.stop();
      },
    };
  },
});

const SUBJECTS: Subject[] = [
  {
    name: 'in process (glove)',
    open: async () => {
      const glove = await GloveEmbedder.open({ cacheDir });
      return { embedder: glove, reference: await GloveEmbedder.open({ cacheDir }), close: async () => {} };
    },
  },
  remote('glove', () => GloveEmbedder.open({ cacheDir })),
  remote('hash', async () => new HashEmbedder(64)),
];

describe.each(SUBJECTS)('embedder contract: $name', (subject) => {
  let embedder: Embedder;
  let reference: Embedder;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ embedder, reference, close } = await subject.open());
  });
  afterAll(async () => close?.());

  it('names the same model, dimensions and word-vector capability as the model in process', () => {
    expect(embedder.model).toBe(reference.model);
    expect(embedder.dimensions).toBe(reference.dimensions);
    // GloVe and hashing build a text from its words' vectors: a lone word is a word vector.
    expect(reference.wordVectors).toBe(true);
    expect(embedder.wordVectors).toBe(reference.wordVectors);
  });

  it('gives the same vectors for the same inputs, in the order of the batch', async () => {
    const [got, want] = await Promise.all([embedder.embed(TEXTS), reference.embed(TEXTS)]);
    expect(got).toHaveLength(TEXTS.length);
    got.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(reference.dimensions);
      const expected = want[i] as Float32Array;
      for (let d = 0; d < vector.length; d++) expect(vector[d]).toBeCloseTo(expected[d] as number, 6);
    });
  });

  it('keeps order when a batch is reversed and when texts come one by one', async () => {
    const forward = await embedder.embed(TEXTS);
    const backward = await embedder.embed([...TEXTS].reverse());
    expect(backward.reverse()).toEqual(forward);
    const single = await Promise.all(TEXTS.map(async (t) => (await embedder.embed([t]))[0]));
    expect(single).toEqual(forward);
    expect(await embedder.embed([])).toEqual([]);
  });
});

describe('embedder contract: errors over gRPC', () => {
  it('names the embedder and its address when it cannot be reached', async () => {
    const target = `127.0.0.1:${await freePort()}`;
    const err = await GrpcEmbedder.connect({ target, deadlineMs: 1_000, connectTimeoutMs: 1_000 }).catch((e) => e);
    expect(err.message).toMatch(new RegExp(`^embedder at ${target}: (UNAVAILABLE|DEADLINE_EXCEEDED): `));
  });

  it('maps a refusal to an error carrying the status and what to fix', async () => {
    const running = await startEmbedder({ EMBEDDER_BACKEND: 'hash', MAX_TEXT_LENGTH: '10' });
    const embedder = await GrpcEmbedder.connect({ target: running.target, deadlineMs: 5_000 });
    try {
      const err = await embedder.embed(['short', 'far longer than ten']).catch((e) => e);
      expect(err.message).toBe(
        `embedder at ${running.target}: INVALID_ARGUMENT: texts[1] has 19 characters; at most 10: shorten or split it`,
      );
      await embedder.check?.();
    } finally {
      await embedder.close();
      await running.stop();
    }
  });
});
