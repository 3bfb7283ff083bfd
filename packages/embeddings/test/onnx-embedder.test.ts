import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxEmbedder, type OnnxOptions } from '../src/onnx/index.ts';
import { type TestModelOptions, writeTestModel } from '../src/onnx/test-model/write-test-model.ts';
import { maxDiff, referenceHidden, referencePool, referenceTokens } from './onnx-reference.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trove-onnx-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

let count = 0;
const logs: string[] = [];
async function model(options: TestModelOptions = {}, open: Partial<OnnxOptions> = {}) {
  const dir = join(root, `m${count++}`);
  const shape = await writeTestModel(dir, options);
  const embedder = await OnnxEmbedder.open({ dir, device: 'cpu', threads: 1, log: (m) => logs.push(m), ...open });
  return { dir, shape, embedder };
}

const TEXTS = [
  'The user adopted a golden retriever puppy in March',
  'red apple',
  'Where is the staging database host?',
  'xyzzy qwerty',
];

describe('onnx backend on the test model', () => {
  it('answers the vectors computed by hand over the same weights, to 1e-5, batched or one at a time', async () => {
    const { shape, embedder } = await model();
    const batched = await embedder.embed(TEXTS);
    for (const [i, text] of TEXTS.entries()) {
      const expected = referencePool(referenceHidden(shape, referenceTokens(text), true), 'mean');
      expect(maxDiff(batched[i] as Float32Array, expected)).toBeLessThan(1e-5);
      const [alone] = await embedder.embed([text]);
      expect(maxDiff(alone as Float32Array, expected)).toBeLessThan(1e-5);
    }
    expect(embedder.dimensions).toBe(shape.hidden);
    expect(embedder).toMatchObject({ device: 'cpu', pooling: 'mean', normalized: true, backend: 'onnx' });
    expect(embedder.model).toMatch(/^trove\/test-bert@[0-9a-f]{12}$/);
    await embedder.check();
    await embedder.close();
    // A closed (or crashed) model's thread fails readiness and every later call, in one line.
    await expect(embedder.check()).rejects.toThrow(/closed/);
    await expect(embedder.embed(['red apple'])).rejects.toThrow(/closed/);
  });

  it('feeds only the inputs the graph declares (no token_type_ids)', async () => {
    const { shape, embedder } = await model({ tokenTypeIds: false });
    const [v] = await embedder.embed([TEXTS[0] as string]);
    const expected = referencePool(referenceHidden(shape, referenceTokens(TEXTS[0] as string), false), 'mean');
    expect(maxDiff(v as Float32Array, expected)).toBeLessThan(1e-5);
  });

  it("uses the graph's sentence_embedding when it has one, normalised", async () => {
    const { shape, embedder } = await model({ outputs: 'sentence_embedding' });
    expect(embedder.pooling).toBe('graph');
    const [v] = await embedder.embed([TEXTS[2] as string]);
    const expected = referencePool(referenceHidden(shape, referenceTokens(TEXTS[2] as string), true), 'cls');
    expect(maxDiff(v as Float32Array, expected)).toBeLessThan(1e-5);
  });

  it('pools as 1_Pooling/config.json says, unless the setting overrides it', async () => {
    const cls = await model({ pooling: 'cls' });
    const last = await model({ pooling: 'cls' }, { pooling: 'last' });
    const hidden = referenceHidden(cls.shape, referenceTokens(TEXTS[1] as string), true);
    expect(
      maxDiff((await cls.embedder.embed([TEXTS[1] as string]))[0] as Float32Array, referencePool(hidden, 'cls')),
    ).toBeLessThan(1e-5);
    expect(
      maxDiff((await last.embedder.embed([TEXTS[1] as string]))[0] as Float32Array, referencePool(hidden, 'last')),
    ).toBeLessThan(1e-5);
    expect(cls.embedder.model).not.toBe(last.embedder.model);
  });

  it('puts the query or document prefix before each text; prefixes are part of the model id', async () => {
    const plain = await model();
    const prefixed = await OnnxEmbedder.open({
      dir: plain.dir,
      device: 'cpu',
      threads: 1,
      queryPrefix: 'query: ',
      documentPrefix: 'passage: ',
      log: () => {},
    });
    const [q] = await prefixed.embed(['red apple'], 'query');
    const [d] = await prefixed.embed(['red apple']);
    const [qPlain, dPlain] = await plain.embedder.embed(['query: red apple', 'passage: red apple']);
    expect(maxDiff(q as Float32Array, qPlain as Float32Array)).toBeLessThan(1e-6);
    expect(maxDiff(d as Float32Array, dPlain as Float32Array)).toBeLessThan(1e-6);
    expect(prefixed.model).not.toBe(plain.embedder.model);
    // The same files elsewhere with the same settings: the same id (it hashes content, not paths).
    const copy = await model();
    expect(copy.embedder.model).toBe(plain.embedder.model);
  });

  it("cuts a text at the model's token limit, keeping the closing [SEP], and reports it", async () => {
    const { shape, embedder } = await model({}, { maxTokens: 8 });
    logs.length = 0;
    const long = 'the user moved the weekly team meeting to the big room on monday morning';
    const [v] = await embedder.embed([long]);
    const ids = referenceTokens(long);
    const cut = [...ids.slice(0, 7), ids[ids.length - 1] as number];
    expect(maxDiff(v as Float32Array, referencePool(referenceHidden(shape, cut, true), 'mean'))).toBeLessThan(1e-5);
    expect(embedder.truncated).toBe(1);
    expect(logs.join('\n')).toContain('cut to 8 tokens');
  });

  it('refuses a directory missing a file, or a graph whose outputs it does not understand, in one line naming it', async () => {
    for (const omit of ['tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'] as const) {
      const err = await model({ omit }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toContain(omit);
      expect(err?.message).not.toContain('\n');
    }
    const err = await model({ outputs: 'logits' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/output\(s\) logits not understood: expected sentence_embedding or last_hidden_state/);
  });

  it("runs the model on a thread of its own: the caller's event loop keeps turning while a batch runs", async () => {
    const { embedder } = await model({ shape: { layers: 4, hidden: 256, intermediate: 1024 } });
    const texts = Array.from({ length: 256 }, (_, i) => `${TEXTS[i % TEXTS.length]} note ${i}`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    await embedder.embed(texts);
    const ms = performance.now() - started;
    clearInterval(timer);
    // On the caller's thread, session.run held the event loop for the whole run: a tick or two.
    expect(ms).toBeGreaterThan(40);
    expect(ticks).toBeGreaterThan(ms / 10);
    await embedder.close();
  });

  it('auto tries cuda, then webgpu, then cpu, logging each device that fails', async () => {
    logs.length = 0;
    const { embedder } = await model({}, { device: 'auto' });
    // Whichever answered, the vectors are the model's; on a machine without a GPU that is the CPU.
    expect(['cuda', 'webgpu', 'cpu']).toContain(embedder.device);
    if (embedder.device !== 'cuda') expect(logs.join('\n')).toMatch(/device cuda is not available/);
  });
});
