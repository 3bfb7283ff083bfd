import * as grpc from '@grpc/grpc-js';
import { EmbedderService } from '@trove/proto/embedder/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Spawned, spawnTs, waitFor } from '../../../tests/support/processes.ts';
import { type ClientFor, createClient, GrpcStatus, hasGrpcCode } from '../src/index.ts';

interface Fixture extends Spawned {
  grpcPort: number;
  httpUrl: string;
}

async function startFixture(grpcPort?: number): Promise<Fixture> {
  grpcPort ??= await freePort();
  const httpPort = await freePort();
  const spawned = spawnTs('packages/grpc-kit/test/fixture-server.ts', {
    HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPort),
    PORT: String(httpPort),
    SHUTDOWN_TIMEOUT_MS: '5000',
  });
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  await waitFor(`${httpUrl}/readyz`, 30_000, spawned.exit).catch((err) => {
    spawned.child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${spawned.output()}`);
  });
  return { ...spawned, grpcPort, httpUrl };
}

/** grpc.health.v1.Health/Check with the empty service name, decoded by hand (field 1, varint). */
async function healthStatus(port: number): Promise<number> {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve, reject) =>
      client.makeUnaryRequest(
        '/grpc.health.v1.Health/Check',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        (err, reply) => (err ? reject(err) : resolve(reply?.[1] ?? 0)),
      ),
    );
  } finally {
    client.close();
  }
}

describe('grpc-kit against a real server process on loopback', () => {
  let fixture: Fixture;
  let client: ClientFor<typeof EmbedderService>;

  beforeAll(async () => {
    fixture = await startFixture();
    client = createClient(EmbedderService, `dns:///127.0.0.1:${fixture.grpcPort}`, { deadlineMs: 5_000 });
  });
  afterAll(async () => {
    client?.close();
    if (fixture && fixture.child.exitCode === null) fixture.child.kill('SIGKILL');
  });

  it('round-trips protobuf-es messages and carries the request id in metadata', async () => {
    const reply = await client.embed({ texts: ['ab', 'xyz'] }, { requestId: 'req-42' });
    expect(reply.vectors.map((v) => v.values)).toEqual([
      [2, 97],
      [3, 120],
    ]);
    expect(reply.model).toBe('fixture:req-42');
  });

  it('echoes the request id in the trailers', async () => {
    const raw = new grpc.Client(`127.0.0.1:${fixture.grpcPort}`, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    metadata.set('x-request-id', 'req-trailer-1');
    try {
      const trailers = await new Promise<grpc.Metadata>((resolve, reject) => {
        const call = raw.makeUnaryRequest(
          '/trove.embedder.v1.EmbedderService/ListModels',
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.alloc(0),
          metadata,
          (err) => err && reject(err),
        );
        call.on('status', (status) => resolve(status.metadata));
      });
      expect(trailers.get('x-request-id')).toEqual(['req-trailer-1']);
    } finally {
      raw.close();
    }
  });

  it('maps a handler error to its status code and message', async () => {
    const err = await client.getModel({ model: 'nope' }).catch((e) => e);
    expect(hasGrpcCode(err, GrpcStatus.NOT_FOUND)).toBe(true);
    expect(err.details).toContain('no model "nope"');
  });

  it('answers an oversized request with INVALID_ARGUMENT naming the limit', async () => {
    const err = await client.embed({ texts: ['x'.repeat(2000)] }).catch((e) => e);
    expect(hasGrpcCode(err, GrpcStatus.INVALID_ARGUMENT)).toBe(true);
    expect(err.details).toMatch(/at most 1024 bytes per message/);
  });

  it('answers UNAVAILABLE, naming the dependency but not its address, when a required one is down', async () => {
    const err = await client.embed({ texts: ['dependency-down'] }).catch((e) => e);
    expect(hasGrpcCode(err, GrpcStatus.UNAVAILABLE)).toBe(true);
    expect(err.details).toBe('database unavailable; retry later');
  });

  it('ends a call at its deadline with DEADLINE_EXCEEDED', async () => {
    const err = await client.embed({ texts: ['sleep:3000'] }, { deadlineMs: 200 }).catch((e) => e);
    expect(hasGrpcCode(err, GrpcStatus.DEADLINE_EXCEEDED)).toBe(true);
  });

  it('serves grpc.health.v1 and counts calls by method and code on /metrics', async () => {
    expect(await healthStatus(fixture.grpcPort)).toBe(1); // SERVING
    const metrics = await (await fetch(`${fixture.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/grpc_server_handled_total\{[^}]*grpc_method="Embed",grpc_code="OK"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/grpc_server_handled_total\{[^}]*grpc_method="GetModel",grpc_code="NOT_FOUND"[^}]*\} 1/);
    expect((await fetch(`${fixture.httpUrl}/livez`)).status).toBe(200);
  });

  it('on SIGTERM finishes the call in flight, then exits 0', async () => {
    const inFlight = client.embed({ texts: ['sleep:700', 'last'] });
    await new Promise((r) => setTimeout(r, 200));
    fixture.child.kill('SIGTERM');
    const reply = await inFlight;
    expect(reply.vectors).toHaveLength(2);
    expect((await fixture.exit).code).toBe(0);
  });
});

describe('grpc-kit client', () => {
  it('retries UNAVAILABLE with backoff, so a call made before the server is up succeeds', async () => {
    const port = await freePort();
    const client = createClient(EmbedderService, `127.0.0.1:${port}`, {
      deadlineMs: 20_000,
      retry: { attempts: 100, initialBackoffMs: 50, maxBackoffMs: 200 },
    });
    const noRetry = createClient(EmbedderService, `127.0.0.1:${port}`);
    const early = client.listModels({});
    expect(hasGrpcCode(await noRetry.listModels({}).catch((e) => e), GrpcStatus.UNAVAILABLE)).toBe(true);
    const fixture = await startFixture(port);
    try {
      expect((await early).models[0]?.id).toBe('fixture');
    } finally {
      client.close();
      noRetry.close();
      fixture.child.kill('SIGKILL');
    }
  });
});
