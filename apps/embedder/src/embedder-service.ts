import { type HandlersFor, invalidArgument, notFound, unavailable } from '@trove/grpc-kit';
import { type EmbedderService, type Model, Purpose } from '@trove/proto/embedder/v1';
import { type Counter, Gauge, Histogram, Counter as PromCounter, type Registry } from '@trove/service-kit';
import type { ServedModel } from './backends.ts';
import type { BatchObserver, DynamicBatcher } from './batcher.ts';
import type { EmbedderConfig } from './config.ts';

/** The model once loaded; undefined until then (Embed answers UNAVAILABLE meanwhile). */
export interface LoadedModel {
  backend: ServedModel;
  batcher: DynamicBatcher;
}

export function describeModel(backend: ServedModel, config: EmbedderConfig): Omit<Model, '$typeName'> {
  return {
    id: backend.model,
    dimensions: backend.dimensions,
    backend: backend.backend,
    device: backend.device,
    maxBatch: config.MAX_TEXTS_PER_CALL,
    maxTextLength: config.MAX_TEXT_LENGTH,
    normalized: backend.normalized,
    wordVectors: backend.wordVectors,
  };
}

/** A plain copy: Array.from goes through the iterator protocol, several times slower on hot vectors. */
function numbers(values: Float32Array): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] as number;
  return out;
}

/** Checks a request against the limits; every refusal says what to change. */
export function checkTexts(texts: readonly string[], config: EmbedderConfig): void {
  if (texts.length === 0) throw invalidArgument('texts is empty: send at least one text to embed');
  if (texts.length > config.MAX_TEXTS_PER_CALL) {
    throw invalidArgument(
      `texts has ${texts.length} entries; at most ${config.MAX_TEXTS_PER_CALL} per call: split the batch into several calls`,
    );
  }
  const long = texts.findIndex((t) => t.length > config.MAX_TEXT_LENGTH);
  if (long >= 0) {
    throw invalidArgument(
      `texts[${long}] has ${texts[long]?.length} characters; at most ${config.MAX_TEXT_LENGTH}: shorten or split it`,
    );
  }
}

/** Batch size, queue wait, texts and model load time on /metrics, beside the kit's per-method counts. */
export function embedderMetrics(
  registry: Registry,
  truncated: () => number = () => 0,
): BatchObserver & { texts: Counter; loadSeconds: Gauge } {
  const batchSize = new Histogram({
    name: 'embedder_batch_texts',
    help: 'Texts per model run (dynamic batching joins calls)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    registers: [registry],
  });
  const queueWait = new Histogram({
    name: 'embedder_queue_wait_seconds',
    help: 'Time a call waited for its batch to start',
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  const texts = new PromCounter({
    name: 'embedder_texts_total',
    help: 'Texts embedded; rate() of it is texts per second',
    registers: [registry],
  });
  const dropped = new PromCounter({
    name: 'embedder_dropped_calls_total',
    help: 'Calls cancelled or past their deadline before their batch ran; their work was skipped',
    registers: [registry],
  });
  const loadSeconds = new Gauge({
    name: 'embedder_model_load_seconds',
    help: 'Time the model took to load and warm up',
    registers: [registry],
  });
  new Gauge({
    name: 'embedder_truncated_texts',
    help: "Texts cut at the model's token limit since start (onnx); their ends were not embedded",
    registers: [registry],
    collect() {
      this.set(truncated());
    },
  });
  return {
    texts,
    loadSeconds,
    batch: (n) => {
      batchSize.observe(n);
      texts.inc(n);
    },
    queueWait: (s) => queueWait.observe(s),
    dropped: (n) => dropped.inc(n),
  };
}

export function embedderHandlers(
  config: EmbedderConfig,
  loaded: () => LoadedModel | undefined,
): HandlersFor<typeof EmbedderService> {
  const model = (name: string) => {
    const current = loaded();
    if (!current) throw unavailable('the model is still loading: retry shortly');
    if (name && name !== current.backend.model) return { current, known: false };
    return { current, known: true };
  };
  return {
    embed: async (request, call) => {
      const { current, known } = model(request.model);
      if (!known) {
        throw invalidArgument(
          `unknown model "${request.model}"; this server has "${current.backend.model}": leave model empty or ask ListModels`,
        );
      }
      checkTexts(request.texts, config);
      // The limits apply to what the caller sent; the model's prefix comes on top.
      const purpose = request.purpose === Purpose.QUERY ? 'query' : 'document';
      const texts = current.backend.prefixed?.(request.texts, purpose) ?? request.texts;
      const vectors = await current.batcher.submit(texts, call.signal);
      return {
        vectors: vectors.map((values) => ({ values: numbers(values) })),
        model: current.backend.model,
        dimensions: current.backend.dimensions,
        normalized: current.backend.normalized,
      };
    },
    getModel: async (request) => {
      const { current, known } = model(request.model);
      if (!known) throw notFound(`unknown model "${request.model}"; this server has "${current.backend.model}"`);
      return { model: describeModel(current.backend, config) };
    },
    listModels: async () => {
      const { current } = model('');
      return { models: [describeModel(current.backend, config)] };
    },
  };
}
