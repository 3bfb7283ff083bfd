/**
 * The embedder process with the tfjs backend: which device it starts on, and when it refuses to
 * start. Written for machines with or without a GPU: what is expected follows from whether Dawn
 * finds an adapter here.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GloveEmbedder } from '@trove/embeddings';
import { type ClientFor, createClient } from '@trove/grpc-kit';
import { EmbedderService } from '@trove/proto/embedder/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningEmbedder, spawnTs, startEmbedder } from '../../../tests/support/processes.ts';

async function gpuHere(): Promise<boolean> {
  const { create } = await import('webgpu');
  return (await create([]).requestAdapter()) !== null;
}

/** Runs the embedder expecting it to give up: its exit code and what it said. */
async function refusal(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const spawned = spawnTs('apps/embedder/src/server.ts', {
    HOST: '127.0.0.1',
    GRPC_PORT: String(await freePort()),
    PORT: String(await freePort()),
    EMBEDDER_BACKEND: 'tfjs',
    ...env,
  });
  const { code } = await spawned.exit;
  return { code, output: spawned.output() };
}

describe('embedder process with the tfjs backend', () => {
  let gpu: boolean;
  let embedder: RunningEmbedder;
  let client: ClientFor<typeof EmbedderService>;

  beforeAll(async () => {
    gpu = await gpuHere();
    embedder = await startEmbedder({ EMBEDDER_BACKEND: 'tfjs', TFJS_DEVICE: 'auto' });
    client = createClient(EmbedderService, embedder.target, { deadlineMs: 30_000 });
  }, 150_000);
  afterAll(async () => {
    client?.close();
    await embedder?.stop();
  });

  it('with TFJS_DEVICE=auto runs on the GPU when there is one, else on wasm saying why', async () => {
    const { model } = await client.getModel({});
    expect(model).toMatchObject({ backend: 'tfjs', id: 'glove-sg-100d-sif-pc1-v2-top10000', dimensions: 100 });
    if (gpu) {
      expect(model?.device).toBe('webgpu');
    } else {
      expect(model?.device).toBe('wasm');
      expect(embedder.output()).toMatch(/no GPU for tfjs: no GPU adapter .*running on wasm instead/);
    }
  });

  it('serves the shipped model over gRPC with the vectors of the glove backend', async () => {
    const glove = await GloveEmbedder.open({ cacheDir: join(tmpdir(), 'trove-embeddings-test-cache'), log: () => {} });
    const texts = ['the cat sat on the carpet', 'revenue grew by twelve percent', ''];
    const [reply, want] = [await client.embed({ texts }), await glove.embed(texts)];
    expect(reply.normalized).toBe(true);
    reply.vectors.forEach((vector, i) => {
      const expected = want[i] as Float32Array;
      for (let d = 0; d < expected.length; d++) expect(vector.values[d]).toBeCloseTo(expected[d] as number, 5);
    });
  }, 120_000);

  it('with TFJS_DEVICE=webgpu refuses to start without a GPU, saying what to do', async () => {
    if (gpu) return; // on a GPU node it starts: the test above covers it
    const { code, output } = await refusal({ TFJS_DEVICE: 'webgpu' });
    expect(code).toBe(1);
    expect(output).toMatch(/TFJS_DEVICE=webgpu but no GPU adapter .* set TFJS_DEVICE=auto to fall back to wasm/);
  }, 120_000);

  it('refuses to start when the model directory is not there', async () => {
    const { code, output } = await refusal({ TFJS_DEVICE: 'cpu', TFJS_MODEL_DIR: '/nonexistent/model' });
    expect(code).toBe(1);
    expect(output).toMatch(/the tfjs model directory \/nonexistent\/model has no readable trove-model.json/);
  }, 120_000);
});
