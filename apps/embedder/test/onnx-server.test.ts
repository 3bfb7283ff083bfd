/**
 * The embedder process with the onnx backend on the test model the tests write (a BERT-shaped
 * graph and a WordPiece tokenizer): vectors over gRPC against a hand-computed reference, batching,
 * limits, deadlines, and refusing to start on a broken model directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GrpcEmbedder } from '@trove/embeddings';
import { writeTestModel } from '@trove/embeddings/onnx-test-model';
import { type ClientFor, createClient, GrpcStatus, hasGrpcCode } from '@trove/grpc-kit';
import { EmbedderService } from '@trove/proto/embedder/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  maxDiff,
  referenceHidden,
  referencePool,
  referenceTokens,
} from '../../../packages/embeddings/test/onnx-reference.ts';
import { freePort, type RunningEmbedder, spawnTs, startEmbedder } from '../../../tests/support/processes.ts';

let root: string;
let modelDir: string;
let embedder: RunningEmbedder;
let client: ClientFor<typeof EmbedderService>;
let shape: Awaited<ReturnType<typeof writeTestModel>>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trove-onnx-server-'));
  modelDir = join(root, 'model');
  shape = await writeTestModel(modelDir);
  embedder = await startEmbedder({
    EMBEDDER_BACKEND: 'onnx',
    ONNX_MODEL_DIR: modelDir,
    ONNX_QUERY_PREFIX: 'query: ',
    ONNX_DOCUMENT_PREFIX: 'passage: ',
    BATCH_WINDOW_MS: '5',
    MAX_TEXTS_PER_CALL: '4',
    MAX_TEXT_LENGTH: '200',
    QUEUE_LENGTH: '8',
  });
  client = createClient(EmbedderService, embedder.target, { deadlineMs: 30_000 });
}, 120_000);
afterAll(async () => {
  client?.close();
  await embedder?.stop();
  await rm(root, { recursive: true, force: true });
});

const reference = (text: string) => referencePool(referenceHidden(shape, referenceTokens(text), true), 'mean');
/** The server puts `passage: ` before a document and `query: ` before a question. */
const expected = (text: string) => reference(`passage: ${text}`);

describe('embedder process with EMBEDDER_BACKEND=onnx', () => {
  it('answers the reference vectors to 1e-5 over gRPC and describes the model it runs', async () => {
    const texts = ['the red apple fell from the tree', 'Where is the staging database?', 'ok'];
    const reply = await client.embed({ texts });
    expect(reply).toMatchObject({ dimensions: shape.hidden, normalized: true });
    texts.forEach((text, i) => {
      expect(maxDiff(reply.vectors[i]?.values ?? [], expected(text))).toBeLessThan(1e-5);
    });
    const { model } = await client.getModel({});
    expect(model).toMatchObject({ id: reply.model, backend: 'onnx', device: 'cpu', dimensions: shape.hidden });
    // A transformer's vector of one word out of context is no word vector (memory-api's soft match).
    expect(model?.wordVectors).toBe(false);
    expect(model?.id).toMatch(/^trove\/test-bert@[0-9a-f]{12}$/);
  });

  it("puts the configured prefix before each text by its call's purpose, both purposes sharing batches", async () => {
    const grpc = await GrpcEmbedder.connect({ target: embedder.target, deadlineMs: 30_000 });
    try {
      const texts = ['where is the staging database', 'the red apple'];
      expect(grpc.wordVectors).toBe(false);
      const [questions, documents] = await Promise.all([grpc.embed(texts, 'query'), grpc.embed(texts)]);
      texts.forEach((text, i) => {
        expect(maxDiff(questions[i] as Float32Array, reference(`query: ${text}`))).toBeLessThan(1e-5);
        expect(maxDiff(documents[i] as Float32Array, reference(`passage: ${text}`))).toBeLessThan(1e-5);
      });
    } finally {
      await grpc.close();
    }
  });

  it('joins concurrent callers into batches, each getting its own vectors', async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `note number ${i} of the weekly report`);
    const replies = await Promise.all(texts.map((t) => client.embed({ texts: [t] })));
    replies.forEach((reply, i) => {
      expect(maxDiff(reply.vectors[0]?.values ?? [], expected(texts[i] as string))).toBeLessThan(1e-5);
    });
    const metrics = await (await fetch(`${embedder.httpUrl}/metrics`)).text();
    const batches = Number(/embedder_batch_texts_count\{[^}]*\} (\d+)/.exec(metrics)?.[1]);
    const embedded = Number(/embedder_texts_total\{[^}]*\} (\d+)/.exec(metrics)?.[1]);
    expect(batches).toBeLessThan(embedded);
    expect(metrics).toMatch(/embedder_truncated_texts\{[^}]*\} 0/);
  });

  it('refuses bad input with INVALID_ARGUMENT and past deadlines with DEADLINE_EXCEEDED, and stays healthy', async () => {
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: { code: number; details: string }) => e,
      );
    expect((await refused(client.embed({ texts: [] })))?.details).toMatch(/texts is empty/);
    expect((await refused(client.embed({ texts: ['a', 'b', 'c', 'd', 'e'] })))?.details).toMatch(/at most 4 per call/);
    const long = await refused(client.embed({ texts: ['x'.repeat(201)] }));
    expect(long?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    const late = await refused(client.embed({ texts: ['too late'] }, { deadlineMs: 1 }));
    expect(hasGrpcCode(late, GrpcStatus.DEADLINE_EXCEEDED)).toBe(true);
    expect((await client.embed({ texts: ['still fine'] })).vectors).toHaveLength(1);
    expect((await fetch(`${embedder.httpUrl}/readyz`)).status).toBe(200);
  });

  it('refuses to start, in one line naming the file, when the model directory lacks one', async () => {
    const broken = join(root, 'broken');
    await writeTestModel(broken, { omit: 'tokenizer.json' });
    const spawned = spawnTs('apps/embedder/src/server.ts', {
      HOST: '127.0.0.1',
      GRPC_PORT: String(await freePort()),
      PORT: String(await freePort()),
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      EMBEDDER_BACKEND: 'onnx',
      ONNX_MODEL_DIR: broken,
    });
    const { code } = await spawned.exit;
    expect(code).toBe(1);
    expect(spawned.output()).toContain(`${join(broken, 'tokenizer.json')} is missing or unreadable`);
  }, 120_000);
});
