import { openBackend } from '@trove/embeddings';
import { runGrpcService } from '@trove/grpc-kit';
import { EmbedderService } from '@trove/proto/embedder/v1';
import { EMBEDDER_PROTO, PROTO_ROOT } from '@trove/proto/files';
import { DynamicBatcher } from './batcher.ts';
import { readConfig } from './config.ts';
import { embedderHandlers, embedderMetrics, type LoadedModel } from './embedder-service.ts';
import { SERVICE, VERSION } from './meta.ts';

await runGrpcService({
  service: SERVICE,
  version: VERSION,
  readConfig: () => readConfig(),
  maxRequestBytes: (config) => config.MAX_MESSAGE_BYTES,
  protoFiles: { root: PROTO_ROOT, files: [EMBEDDER_PROTO] },
  build: async (config, logger, { grpc, readiness, http }) => {
    const metrics = embedderMetrics(http.metricsRegistry);
    let loaded: LoadedModel | undefined;
    let failed: Error | undefined;
    grpc.addService(
      EmbedderService,
      embedderHandlers(config, () => loaded),
    );
    readiness.add('model', async () => {
      if (failed) throw failed;
      if (!loaded) throw new Error('the model is still loading');
    });
    // Loaded after the ports open, so that /livez answers and /readyz says "loading" meanwhile.
    const started = performance.now();
    openBackend({ backend: config.EMBEDDER_BACKEND, cacheDir: config.EMBEDDINGS_CACHE_DIR })
      .then(async (backend) => {
        await backend.embed(['warm up the model before the first call']);
        const batcher = new DynamicBatcher({
          run: (texts) => backend.embed(texts),
          windowMs: config.BATCH_WINDOW_MS,
          maxBatch: config.MAX_BATCH,
          queueLength: config.QUEUE_LENGTH,
          observer: metrics,
        });
        loaded = { backend, batcher };
        const seconds = (performance.now() - started) / 1000;
        metrics.loadSeconds.set(seconds);
        logger.info({ model: backend.model, dimensions: backend.dimensions, seconds }, 'model loaded');
      })
      .catch((err: Error) => {
        failed = err;
        logger.error({ err, backend: config.EMBEDDER_BACKEND }, 'the model could not be loaded');
      });
    return undefined;
  },
});
