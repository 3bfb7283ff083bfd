import { EMBEDDER_CODECS } from '@trove/embeddings';
import { runGrpcService } from '@trove/grpc-kit';
import { EmbedderService } from '@trove/proto/embedder/v1';
import { EMBEDDER_PROTO, PROTO_ROOT } from '@trove/proto/files';
import type { Logger } from '@trove/service-kit';
import { openServedModel } from './backends.ts';
import { DynamicBatcher } from './batcher.ts';
import { readConfig } from './config.ts';
import { embedderHandlers, embedderMetrics, type LoadedModel } from './embedder-service.ts';
import { SERVICE, VERSION } from './meta.ts';

/** Set once the ports are open: a model that fails to load drains through it before exiting. */
let stopService: (() => Promise<boolean>) | undefined;

/**
 * A model that cannot load (a missing file, ONNX_DEVICE=webgpu without a GPU) stops the process: an
 * orchestrator then shows the reason and restarts it, where staying up unready would hide it.
 */
async function refuseToStart(logger: Logger, err: Error): Promise<never> {
  logger.fatal({ err }, `the model could not be loaded: ${err.message}`);
  await stopService?.().catch(() => {});
  logger.flush();
  process.exit(1);
}

const running = await runGrpcService({
  service: SERVICE,
  version: VERSION,
  readConfig: () => readConfig(),
  maxRequestBytes: (config) => config.MAX_MESSAGE_BYTES,
  protoFiles: { root: PROTO_ROOT, files: [EMBEDDER_PROTO] },
  build: async (config, logger, { grpc, readiness, http }) => {
    let loaded: LoadedModel | undefined;
    const metrics = embedderMetrics(http.metricsRegistry, () => loaded?.backend.truncated ?? 0);
    // The hand-written codecs of @trove/embeddings: protobuf-es is slow on packed floats.
    grpc.addService(
      EmbedderService,
      embedderHandlers(config, () => loaded),
      { codecs: EMBEDDER_CODECS },
    );
    readiness.add('model', async () => {
      if (!loaded) throw new Error('the model is still loading');
      // onnx: the model's thread may have stopped, after which every call would fail.
      await loaded.backend.check?.();
    });
    // Loaded after the ports open, so that /livez answers and /readyz says "loading" meanwhile.
    const started = performance.now();
    openServedModel(config, logger)
      .then(async (backend) => {
        await backend.embed(['warm up the model before the first call']);
        const batcher = new DynamicBatcher({
          // Texts arrive prefixed by their call's purpose (embedder-service.ts).
          run: (texts) => (backend.embedPrefixed ? backend.embedPrefixed(texts) : backend.embed(texts)),
          windowMs: config.BATCH_WINDOW_MS,
          maxBatch: config.MAX_BATCH,
          queueLength: config.QUEUE_LENGTH,
          observer: metrics,
        });
        loaded = { backend, batcher };
        const seconds = (performance.now() - started) / 1000;
        metrics.loadSeconds.set(seconds);
        logger.info(
          {
            model: backend.model,
            dimensions: backend.dimensions,
            backend: backend.backend,
            device: backend.device,
            seconds,
          },
          'model loaded',
        );
      })
      .catch((err: Error) => refuseToStart(logger, err));
    return {
      close: async () => {
        await loaded?.backend.close?.();
      },
    };
  },
});
stopService = running.stop;
