/**
 * memory-api with a transformer model: EMBEDDER=onnx in process, and the embedder service with
 * EMBEDDER_BACKEND=onnx over gRPC. Both store the same vectors under the same model id, find a
 * memory by its own words, and know a repeated memory for a duplicate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestModel } from '@trove/embeddings/onnx-test-model';
import { createLogger } from '@trove/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmbedder, startEmbedder } from '../../../tests/support/processes.ts';
import { buildMemoryApp } from '../../memory-api/src/app.ts';
import { readConfig } from '../../memory-api/src/config.ts';

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
let root: string;
let modelDir: string;
let embedder: RunningEmbedder;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trove-onnx-memory-'));
  modelDir = join(root, 'model');
  await writeTestModel(modelDir);
  embedder = await startEmbedder({ EMBEDDER_BACKEND: 'onnx', ONNX_MODEL_DIR: modelDir });
}, 120_000);
afterAll(async () => {
  await embedder?.stop();
  await rm(root, { recursive: true, force: true });
});

const MEMORIES = [
  'Sam adopted a golden retriever puppy in March',
  'The production database is on two replicas',
  'The quarterly finance report is due at the end of June',
];

const models: string[] = [];

describe.each([
  ['in process (EMBEDDER=onnx)', () => ({ EMBEDDER: 'onnx', ONNX_MODEL_DIR: modelDir })],
  ['over gRPC (EMBEDDER_BACKEND=onnx)', () => ({ EMBEDDER_URL: embedder.target })],
])('memory-api with the onnx test model %s', (_, env) => {
  let app: Awaited<ReturnType<typeof buildMemoryApp>>;
  beforeAll(async () => {
    app = await buildMemoryApp(readConfig({ DATA_DIR: 'memory://', ...env() }), logger);
  }, 120_000);
  afterAll(() => app?.close());

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, payload });
    return { status: res.statusCode, body: res.json() };
  };

  it('remembers, recalls a memory by its own words with the vector strategy, and knows a repeat', async () => {
    const ids: string[] = [];
    for (const content of MEMORIES) {
      const res = await call('POST', '/remember', { content, namespace: 'onnx' });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const recalled = await call('POST', '/recall', {
      query: 'golden retriever puppy',
      namespace: 'onnx',
      strategy: 'vector',
    });
    expect(recalled.status).toBe(200);
    expect(recalled.body.map((r: { id: string }) => r.id)).toContain(ids[0]);
    const again = await call('POST', '/remember', { content: MEMORIES[1], namespace: 'onnx' });
    expect(again.body).toMatchObject({ id: ids[1], duplicate: true });
    const stats = await call('GET', '/stats?namespace=onnx');
    expect(stats.body).toMatchObject({ embedded: 3 });
    models.push(stats.body.embedding_model);
  });
});

it('stores the same model id whether memory-api embeds in process or through the service', () => {
  expect(models).toHaveLength(2);
  expect(models[0]).toMatch(/^trove\/test-bert@/);
  expect(models[1]).toBe(models[0]);
});
