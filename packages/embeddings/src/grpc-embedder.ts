import { type ClientFor, createClient, GrpcStatus } from '@trove/grpc-kit';
import { EmbedderService, Purpose } from '@trove/proto/embedder/v1';
import type { Embedder, EmbedPurpose } from './embedder.ts';
import { EMBEDDER_CODECS } from './embedder-codec.ts';

export interface GrpcEmbedderOptions {
  /** gRPC target: `dns:///embedder:50051` (round robin over every address the name resolves to) or host:port. */
  target: string;
  /** Deadline of each Embed call, retries included. */
  deadlineMs: number;
  /** How long connect() waits for the embedder to answer at start-up. */
  connectTimeoutMs?: number;
}

/** An embedder error that names the dependency and its address, with the gRPC status name. */
function describe(target: string, err: unknown): Error {
  const e = err as { code?: number; details?: string; message?: string };
  const code = e.code === undefined ? '' : `${GrpcStatus[e.code] ?? e.code}: `;
  return Object.assign(new Error(`embedder at ${target}: ${code}${e.details ?? e.message}`), { code: e.code });
}

/**
 * The embedder service as an Embedder: the same vectors as the model in process, computed by
 * apps/embedder over gRPC. Batches larger than the server's limit are split, order kept; calls
 * are retried with backoff while the embedder is UNAVAILABLE, within the one deadline.
 */
export class GrpcEmbedder implements Embedder {
  private constructor(
    private readonly client: ClientFor<typeof EmbedderService>,
    private readonly options: GrpcEmbedderOptions,
    readonly model: string,
    readonly dimensions: number,
    /** As the embedder's GetModel says (`Model.word_vectors`); false from a server older than the field. */
    readonly wordVectors: boolean,
    private readonly maxBatch: number,
  ) {}

  /** Asks the embedder which model it serves, waiting up to connectTimeoutMs for it to come up. */
  static async connect(options: GrpcEmbedderOptions): Promise<GrpcEmbedder> {
    const client = createClient(EmbedderService, options.target, {
      codecs: EMBEDDER_CODECS,
      deadlineMs: options.deadlineMs,
      retry: { attempts: 8, initialBackoffMs: 100, maxBackoffMs: 2_000 },
    });
    try {
      const { model } = await client.getModel({}, { deadlineMs: options.connectTimeoutMs ?? 30_000 });
      if (!model) throw new Error('GetModel answered no model');
      return new GrpcEmbedder(
        client,
        options,
        model.id,
        model.dimensions,
        model.wordVectors,
        Math.max(1, model.maxBatch),
      );
    } catch (err) {
      client.close();
      throw describe(options.target, err);
    }
  }

  async embed(texts: readonly string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    // The server puts its model's prefix for this purpose before each text (none for GloVe).
    const wire = purpose === 'query' ? Purpose.QUERY : Purpose.UNSPECIFIED;
    const chunks: string[][] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) chunks.push(texts.slice(i, i + this.maxBatch));
    try {
      const replies = await Promise.all(chunks.map((chunk) => this.client.embed({ texts: chunk, purpose: wire })));
      return replies.flatMap((reply) => {
        if (reply.model !== this.model) {
          throw new Error(`answered with model ${reply.model}, not ${this.model}: restart memory-api to pick it up`);
        }
        return reply.vectors.map((v) => new Float32Array(v.values));
      });
    } catch (err) {
      throw describe(this.options.target, err);
    }
  }

  /** For /readyz: the embedder answers and still serves the same model. */
  async check(): Promise<void> {
    try {
      const { model } = await this.client.getModel({}, { deadlineMs: 1_500 });
      if (model?.id !== this.model) throw new Error(`now serves ${model?.id}, not ${this.model}`);
    } catch (err) {
      throw describe(this.options.target, err);
    }
  }

  async close(): Promise<void> {
    this.client.close();
  }
}
