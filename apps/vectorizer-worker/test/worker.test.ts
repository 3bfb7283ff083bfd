import * as grpc from '@grpc/grpc-js';
import { type ClientFor, createClient, GrpcStatus } from '@trove/grpc-kit';
import { DocumentFormat, TracerService } from '@trove/proto/vectorize/v1';
import { unpackPaths } from '@trove/tracer';
import { type RgbaImage, vectorize } from '@trove/vectorize';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { metricValue, type RunningWorker, startVectorizerWorker } from '../../../tests/support/vectorizer-worker.ts';

/** Few flat colours: auto traces it pixel-exact, quickly, however large. */
function flat(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = x > width / 4 && x < (3 * width) / 4 && y > height / 4 && y < (3 * height) / 4;
      data.set(inside ? [200, 40, 40, 255] : [255, 255, 255, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** Random colours: the spline engine takes seconds on it, so a job stays running. */
function noise(size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  let seed = 11;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : seed >>> 24;
  }
  return { width: size, height: size, data };
}

const slow = noise(500);
const rgba = (image: RgbaImage) => ({ width: image.width, height: image.height, rgba: image.data as Uint8Array });

async function refusal(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  const err = await promise.then(
    () => undefined,
    (e: grpc.ServiceError) => e,
  );
  expect(err, 'the call should have failed').toBeDefined();
  return err as grpc.ServiceError;
}

/** Lists services through server reflection (v1), reading the raw answer. */
async function reflectedServices(target: string): Promise<string> {
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  try {
    return await new Promise<string>((resolve, reject) => {
      const call = client.makeBidiStreamRequest(
        '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo',
        (b: Buffer) => b,
        (b: Buffer) => b,
      );
      call.on('data', (reply: Buffer) => {
        resolve(reply.toString('latin1'));
        call.end();
      });
      call.on('error', reject);
      // ServerReflectionRequest { list_services = 7: "*" }
      call.write(Buffer.from([0x3a, 1, 0x2a]));
    });
  } finally {
    client.close();
  }
}

describe('vectorizer-worker on loopback', () => {
  let worker: RunningWorker;
  let client: ClientFor<typeof TracerService>;
  const limits = { TRACE_THREADS: '1', QUEUE_LENGTH: '1', MAX_IMAGE_PIXELS: '1200000', MAX_SVG_BYTES: '1048576' };

  beforeAll(async () => {
    worker = await startVectorizerWorker(limits);
    client = createClient(TracerService, worker.target, {
      deadlineMs: 60_000,
      channelOptions: { 'grpc.max_send_message_length': -1, 'grpc.max_receive_message_length': -1 },
    });
  });
  afterAll(async () => {
    client?.close();
    await worker?.kill();
  });

  it('traces to what the engine gives in process, with the document and the paths when asked', async () => {
    const image = flat(120, 80);
    const inProcess = vectorize(image, { engine: 'spline', path_precision: 3 });
    const reply = await client.trace({
      ...rgba(image),
      options: { engine: 'spline', pathPrecision: 3 },
      document: DocumentFormat.EPS,
      includePaths: true,
    });
    expect(reply.svg).toBe(inProcess.svg);
    expect(reply.engineUsed).toBe('spline');
    expect(reply.pathCount).toBe(inProcess.paths.length);
    expect(Buffer.from(reply.document).toString('latin1')).toMatch(/^%!PS-Adobe-3.0 EPSF-3.0/);
    const paths = reply.paths ?? expect.fail('no paths in the answer');
    expect(
      unpackPaths({
        ...paths,
        commandCounts: Uint32Array.from(paths.commandCounts),
        coords: Float64Array.from(paths.coords),
      }),
    ).toEqual(inProcess.paths);
    const optimised = await client.trace({
      ...rgba(image),
      options: {},
      optimize: { preset: 'default', iterations: 1 },
    });
    expect(optimised.paths).toBeUndefined();
    expect(optimised.document).toHaveLength(0);
    const plain = await client.optimize({ svg: vectorize(image, {}).svg, preset: 'default', iterations: 1 });
    // The count of removed unsafe pieces is its own field; the SVG is the document alone.
    expect(plain.svg).toBe(optimised.svg);
    expect(plain.unsafeRemoved).toBe(0);
    const unsafe = await client.optimize({
      svg: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><image href="file:///etc/passwd"/></svg>',
      preset: 'none',
      iterations: 1,
    });
    expect(unsafe.unsafeRemoved).toBe(2);
    expect(unsafe.svg).not.toMatch(/script|passwd|trove-removed/);
  });

  it('takes images far above gRPC default 4 MB message size, up to MAX_IMAGE_PIXELS', async () => {
    const big = flat(1200, 1000); // 4.8 MB of pixels
    const reply = await client.trace({ ...rgba(big), options: {} });
    expect([reply.width, reply.height, reply.engineUsed]).toEqual([1200, 1000, 'pixel-exact']);
    const over = await refusal(client.trace({ ...rgba(flat(1201, 1000)), options: {} }));
    expect(over.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(over.details).toMatch(/1201×1000 = 1201000 pixels; this worker takes at most 1200000 \(MAX_IMAGE_PIXELS\)/);
  });

  it('refuses bad input with INVALID_ARGUMENT saying what to fix', async () => {
    const cases: [object, RegExp][] = [
      [{ width: 0, height: 5, rgba: new Uint8Array(0) }, /width and height must be at least 1/],
      [{ width: 2, height: 2, rgba: new Uint8Array(15) }, /rgba must hold width × height × 4 = 16 bytes \(got 15\)/],
      [
        { ...rgba(flat(4, 4)), options: { colorPrecision: 99 } },
        /options.color_precision must be an integer from 1 to 32/,
      ],
      [
        { ...rgba(flat(4, 4)), options: { engine: 'magic' } },
        /options.engine must be one of auto, spline, pixel-exact/,
      ],
      [{ ...rgba(flat(4, 4)), optimize: { preset: 'best' } }, /preset must be one of default, safe, none/],
    ];
    for (const [request, message] of cases) {
      const err = await refusal(client.trace(request));
      expect(err.code).toBe(GrpcStatus.INVALID_ARGUMENT);
      expect(err.details).toMatch(message);
    }
    const svg = await refusal(client.optimize({ svg: '<svg><g></svg>', preset: 'default' }));
    expect([svg.code, svg.details]).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      expect.stringMatching(/^the SVG could not be parsed/),
    ]);
    const huge = await refusal(client.optimize({ svg: `<svg>${' '.repeat(1_100_000)}</svg>`, preset: 'default' }));
    expect(huge.details).toMatch(/at most 1048576 \(MAX_SVG_BYTES\)/);
  });

  it('refuses at once when the thread is busy and the queue full, and reports its capacity', async () => {
    const running = new AbortController();
    const waiting = new AbortController();
    const first = client.trace({ ...rgba(slow), options: { engine: 'spline' } }, { signal: running.signal });
    await vi.waitFor(async () => expect((await client.getCapacity({})).inFlight).toBe(1), { timeout: 30_000 });
    const second = client.trace({ ...rgba(slow), options: { engine: 'spline' } }, { signal: waiting.signal });
    await vi.waitFor(async () => expect((await client.getCapacity({})).queued).toBe(1), { timeout: 30_000 });
    expect(await client.getCapacity({})).toMatchObject({ threads: 1, queueLength: 1, inFlight: 1, queued: 1 });
    expect(await metricValue(worker.httpUrl, 'vectorize_pool_queued_jobs')).toBe(1);
    expect(await metricValue(worker.httpUrl, 'vectorize_pool_busy_workers')).toBe(1);

    const full = await refusal(client.trace({ ...rgba(flat(8, 8)), options: {} }));
    expect(full.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(full.details).toMatch(/QUEUE_LENGTH/);
    expect(await metricValue(worker.httpUrl, 'vectorize_pool_refused_jobs_total')).toBe(1);

    // Cancelled calls: the queued job is dropped, the running one's thread replaced; both counted.
    waiting.abort();
    running.abort();
    await Promise.allSettled([first, second]);
    await vi.waitFor(
      async () => {
        expect(
          await metricValue(worker.httpUrl, 'vectorize_pool_cancelled_jobs_total', {
            reason: 'cancelled',
            stage: 'queued',
          }),
        ).toBe(1);
        expect(
          await metricValue(worker.httpUrl, 'vectorize_pool_cancelled_jobs_total', {
            reason: 'cancelled',
            stage: 'running',
          }),
        ).toBe(1);
      },
      { timeout: 10_000 },
    );
    expect(await client.getCapacity({})).toMatchObject({ threads: 1, inFlight: 0, queued: 0 });

    // A call whose deadline passes is stopped too, counted as such.
    const late = await refusal(client.trace({ ...rgba(slow), options: { engine: 'spline' } }, { deadlineMs: 500 }));
    expect(late.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    await vi.waitFor(
      async () =>
        expect(await metricValue(worker.httpUrl, 'vectorize_pool_cancelled_jobs_total', { reason: 'deadline' })).toBe(
          1,
        ),
      { timeout: 30_000 },
    );
    expect((await client.trace({ ...rgba(flat(8, 8)), options: {} })).engineUsed).toBe('pixel-exact');
  });

  it('serves health, reflection, and its work on /metrics', async () => {
    expect(await reflectedServices(worker.target)).toContain('trove.vectorize.v1.TracerService');
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/^vectorize_trace_seconds_count\{[^}]*engine="pixel-exact"[^}]*\} [1-9]/m);
    expect(metrics).toMatch(/^vectorize_traced_pixels_total\{[^}]*engine="pixel-exact"[^}]*\} [1-9]/m);
    expect(metrics).toMatch(/^vectorize_pool_workers\{service="vectorizer-worker"\} 1$/m);
    expect(metrics).toMatch(/grpc_server_handled_total\{[^}]*grpc_method="Trace",grpc_code="RESOURCE_EXHAUSTED"/);
    expect((await fetch(`${worker.httpUrl}/livez`)).status).toBe(200);
  });
});

describe('vectorizer-worker shutdown', () => {
  it('on SIGTERM stops taking calls, finishes the job in flight, then exits 0', async () => {
    const worker = await startVectorizerWorker({ QUEUE_LENGTH: '2' });
    const client = createClient(TracerService, worker.target, { deadlineMs: 60_000 });
    try {
      const image = noise(320);
      const job = client.trace({ ...rgba(image), options: { engine: 'spline' } });
      await vi.waitFor(async () => expect((await client.getCapacity({})).inFlight).toBe(1), { timeout: 30_000 });
      const exit = worker.stop();
      await vi.waitFor(async () => expect((await fetch(`${worker.httpUrl}/readyz`)).status).toBe(503), {
        timeout: 30_000,
      });
      const reply = await job;
      expect(reply.svg).toBe(vectorize(image, { engine: 'spline' }).svg);
      expect(await exit).toEqual({ code: 0, signal: null });
    } finally {
      client.close();
      await worker.kill();
    }
  });
});
