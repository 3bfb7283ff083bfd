import { type ClientFor, createClient, GrpcStatus, hasGrpcCode } from '@trove/grpc-kit';
import { EmbedderService } from '@trove/proto/embedder/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmbedder, startEmbedder } from '../../../tests/support/processes.ts';

const LIMITS = { MAX_TEXTS_PER_CALL: '4', MAX_TEXT_LENGTH: '50', MAX_MESSAGE_BYTES: '2048', QUEUE_LENGTH: '3' };

describe('embedder process on loopback (hash backend)', () => {
  let embedder: RunningEmbedder;
  let client: ClientFor<typeof EmbedderService>;

  beforeAll(async () => {
    embedder = await startEmbedder({ EMBEDDER_BACKEND: 'hash', BATCH_WINDOW_MS: '5', ...LIMITS });
    client = createClient(EmbedderService, embedder.target, { deadlineMs: 10_000 });
  });
  afterAll(async () => {
    client?.close();
    await embedder?.stop();
  });

  async function refusal(promise: Promise<unknown>) {
    const err = await promise.then(
      () => undefined,
      (e) => e,
    );
    expect(err, 'the call should have been refused').toBeDefined();
    return err as { code: number; details: string };
  }

  it('embeds a batch in order, one vector per text, naming the model', async () => {
    const reply = await client.embed({ texts: ['red apple', 'blue sky', 'red apple'] });
    expect(reply.vectors).toHaveLength(3);
    expect(reply.model).toBe('hash-64');
    expect(reply.dimensions).toBe(64);
    expect(reply.normalized).toBe(true);
    expect(reply.vectors[0]?.values).toEqual(reply.vectors[2]?.values);
    expect(reply.vectors[0]?.values).not.toEqual(reply.vectors[1]?.values);
  });

  it('joins concurrent calls into batches and keeps each caller its own vectors', async () => {
    const texts = Array.from({ length: 3 }, (_, i) => `text number ${i}`);
    const alone = await Promise.all(texts.map((t) => client.embed({ texts: [t] })));
    const metrics = await (await fetch(`${embedder.httpUrl}/metrics`)).text();
    const batches = Number(/embedder_batch_texts_count\{[^}]*\} (\d+)/.exec(metrics)?.[1]);
    const texted = Number(/embedder_texts_total\{[^}]*\} (\d+)/.exec(metrics)?.[1]);
    expect(batches).toBeLessThan(texted);
    const together = await client.embed({ texts: texts });
    for (let i = 0; i < 3; i++) expect(together.vectors[i]?.values).toEqual(alone[i]?.vectors[0]?.values);
  });

  it('describes its model', async () => {
    const { models } = await client.listModels({});
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({
      id: 'hash-64',
      dimensions: 64,
      backend: 'hash',
      device: 'cpu',
      maxBatch: 4,
      maxTextLength: 50,
    });
    expect((await client.getModel({})).model?.id).toBe('hash-64');
  });

  it('refuses bad input with INVALID_ARGUMENT saying what to fix, and stays healthy', async () => {
    const empty = await refusal(client.embed({ texts: [] }));
    expect(empty.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(empty.details).toMatch(/texts is empty: send at least one text/);

    const many = await refusal(client.embed({ texts: ['a', 'b', 'c', 'd', 'e'] }));
    expect(many.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(many.details).toMatch(/5 entries; at most 4 per call: split/);

    const long = await refusal(client.embed({ texts: ['ok', 'x'.repeat(51)] }));
    expect(long.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(long.details).toMatch(/texts\[1\] has 51 characters; at most 50/);

    const model = await refusal(client.embed({ texts: ['a'], model: 'gpt-17' }));
    expect(model.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(model.details).toMatch(/unknown model "gpt-17".*ListModels/);

    const oversized = await refusal(client.embed({ texts: ['y'.repeat(3000)] }));
    expect(oversized.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(oversized.details).toMatch(/at most 2048 bytes per message/);

    const unknown = await refusal(client.getModel({ model: 'gpt-17' }));
    expect(unknown.code).toBe(GrpcStatus.NOT_FOUND);

    expect((await client.embed({ texts: ['still fine'] })).vectors).toHaveLength(1);
    expect((await fetch(`${embedder.httpUrl}/readyz`)).status).toBe(200);
  });

  it('answers RESOURCE_EXHAUSTED at once when the queue is full', async () => {
    // 40 calls at once against a queue of 3: most are refused, the rest are answered.
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => client.embed({ texts: [`q ${i}`] })));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused)
      expect(hasGrpcCode((r as PromiseRejectedResult).reason, GrpcStatus.RESOURCE_EXHAUSTED)).toBe(true);
    expect((refused[0] as PromiseRejectedResult).reason.details).toMatch(/QUEUE_LENGTH=3/);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('counts calls by method and code on /metrics', async () => {
    const metrics = await (await fetch(`${embedder.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /grpc_server_handled_total\{[^}]*grpc_method="Embed",grpc_code="INVALID_ARGUMENT"[^}]*\} 5/,
    );
    expect(metrics).toMatch(/embedder_queue_wait_seconds_count/);
    expect(metrics).toMatch(/embedder_model_load_seconds\{[^}]*\} \d/);
  });
});
