import { databaseEnv } from '@trove/data';
import { onnxEnv } from '@trove/embeddings';
import { type ConfigOf, connectionEnv, type EnvVar, env, loadConfig, serverEnv } from '@trove/service-kit';

export const RECALL_STRATEGIES = ['fusion', 'vector', 'fts5', 'hybrid', 'graph'] as const;
export type RecallStrategy = (typeof RECALL_STRATEGIES)[number];

/** A number from 0 to 1 (a similarity or score bound); the kit has no decimal helper. */
function fraction(opts: { description: string; default: number }): EnvVar<number> {
  const allowed = 'a number from 0 to 1';
  return {
    description: opts.description,
    allowed,
    fallback: String(opts.default),
    required: false,
    parse(raw) {
      if (raw === undefined || raw.trim() === '') return opts.default;
      const value = Number(raw.trim());
      if (!/^\d*\.?\d+$/.test(raw.trim()) || value < 0 || value > 1) {
        throw new Error(`must be ${allowed} (got "${raw.slice(0, 60)}")`);
      }
      return value;
    },
  };
}

const tokenList = (description: string) =>
  env.list({
    description,
    default: [],
    itemPattern: /^[\x21-\x7e]{16,}$/,
    hint: 'a comma-separated list of tokens of 16 or more printable characters',
  });

/** Every environment variable memory-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8767, serviceName: 'memory-api' }),
  ...connectionEnv(),
  ...databaseEnv('memory-api'),
  AUTH_TOKENS: tokenList(
    'Bearer tokens with full access (comma-separated). Authentication is off while this and READ_ONLY_TOKENS are both empty',
  ),
  READ_ONLY_TOKENS: tokenList('Bearer tokens that may read but not write (comma-separated)'),
  EMBEDDER: env.oneOf(['glove', 'onnx', 'hash'] as const, {
    description:
      '`glove`: real semantic embeddings from the GloVe vectors shipped on npm (offline); `onnx`: a transformer sentence-embedding model from `ONNX_MODEL_DIR` (the `ONNX_` variables below, as in the embedder service); `hash`: deterministic hashing, for tests only',
    default: 'glove',
  }),
  ...onnxEnv(),
  EMBEDDER_URL: env.optionalString({
    description:
      'gRPC target of the embedder service (apps/embedder), e.g. `dns:///embedder:50051` (round robin over every address); unset embeds in process with EMBEDDER',
    pattern: /^(dns:\/\/\/)?[\w.-]+:\d{1,5}$/,
    hint: 'dns:///host:port or host:port',
  }),
  EMBEDDER_DEADLINE_MS: env.int({
    description: 'Deadline of each call to the embedder service, retries on UNAVAILABLE included',
    default: 10_000,
    min: 100,
    max: 600_000,
  }),
  EMBEDDINGS_CACHE_DIR: env.string({
    description: 'Where the compact GloVe vector file is built on first start and loaded afterwards',
    default: './data/cache',
    hint: 'a directory path',
  }),
  DEFAULT_RECALL_STRATEGY: env.oneOf(RECALL_STRATEGIES, {
    description: '`/recall` strategy used when a request names none',
    default: 'fusion',
  }),
  DUPLICATE_THRESHOLD: fraction({
    description: 'Cosine similarity at or above which a new memory is a near-duplicate of a live one in its namespace',
    default: 0.95,
  }),
  LINK_THRESHOLD: fraction({
    description: 'Cosine similarity at or above which a new memory gets `similar_to` edges to its neighbours',
    default: 0.8,
  }),
  CONTRADICTION_THRESHOLD: fraction({
    description: 'With `detect_contradiction`, similarity at or above which the nearest live memory is superseded',
    default: 0.85,
  }),
  VECTOR_MIN_SIMILARITY: fraction({
    description:
      'In document search (`/doc/search` hybrid, documents in unified recall), vector hits below this cosine similarity do not count as found',
    default: 0.5,
  }),
  EXTRACT_MAX_FACTS: env.int({
    description: '`/extract`: facts taken from one document when the request gives no `max_facts`',
    default: 20,
    min: 1,
    max: 200,
  }),
  EXTRACT_LLM_URL: env.url({
    description:
      '`/extract`: base URL of an OpenAI-compatible API (e.g. http://127.0.0.1:11434/v1). Unset: extraction is rule-based only',
    protocols: ['http:', 'https:'],
  }),
  EXTRACT_LLM_MODEL: env.optionalString({
    description:
      '`/extract`: model used with EXTRACT_LLM_URL when a request names none; unset: only requests with `model` use it',
  }),
  EXTRACT_LLM_API_KEY: env.optionalString({
    description: '`/extract`: bearer key sent to EXTRACT_LLM_URL (optional)',
  }),
  EXTRACT_LLM_TIMEOUT_MS: env.int({
    description: '`/extract`: how long to wait for the extraction model before answering 504',
    default: 20_000,
    min: 100,
    max: 600_000,
  }),
  LIFECYCLE_WARM_DAYS: env.int({
    description:
      '`/aging` and `/prune`: days without use (since the later of creation and last access) after which a memory counts as stale',
    default: 90,
    min: 1,
    max: 36_500,
  }),
  LIFECYCLE_COLD_DAYS: env.int({
    description: '`/lifecycle/cycle`: days without use after which a rarely accessed, unpinned memory is deprecated',
    default: 180,
    min: 1,
    max: 36_500,
  }),
  LIFECYCLE_DEPRECATED_TTL_DAYS: env.int({
    description:
      'Days a deprecated memory is kept before `/lifecycle/cycle` with `prune_expired` may delete it for good',
    default: 30,
    min: 1,
    max: 36_500,
  }),
  CONSOLIDATE_THRESHOLD: fraction({
    description: '`/consolidate`: cosine similarity at or above which live memories of a namespace are merged',
    default: 0.95,
  }),
  MAINTENANCE_MAX_PER_CALL: env.int({
    description:
      'Most memories one lifecycle or maintenance call changes (cycle, aging, prune, consolidate); the answer says when more remain',
    default: 10_000,
    min: 1,
    max: 1_000_000,
  }),
  CHANGE_FEED_POLL_MS: env.int({
    description:
      'How often each replica reads the change log of vector writes besides being woken by NOTIFY (a lost notification delays other replicas by at most this)',
    default: 1000,
    min: 10,
    max: 60_000,
  }),
  CHANGE_FEED_RETENTION_S: env.int({
    description:
      'Seconds a change stays in the change log; a replica that falls further behind (stopped, or cut off from Postgres) rebuilds its vector index from the rows',
    default: 3600,
    min: 60,
    max: 30 * 86_400,
  }),
  QDRANT_URL: env.url({
    description:
      'Qdrant server shared by every replica (e.g. http://qdrant:6333): vectors are searched there instead of in each process; unset keeps an in-process index per replica, kept current by the change feed',
    protocols: ['http:', 'https:'],
  }),
  QDRANT_API_KEY: env.optionalString({
    description: 'API key sent to QDRANT_URL (optional)',
  }),
  QDRANT_COLLECTION_PREFIX: env.string({
    description:
      'Start of the Qdrant collection name (`<prefix>_<model>_<dimensions>`): one Qdrant can serve several deployments',
    default: 'trove',
    pattern: /^[a-z0-9][a-z0-9_-]{0,62}$/,
    hint: 'lower-case letters, digits, dash or underscore (1-63)',
  }),
  BODY_LIMIT_BYTES: env.int({
    description: 'Largest request body accepted (imports are the big ones)',
    default: 64 * 1024 * 1024,
    min: 1024,
    max: 1024 * 1024 * 1024,
  }),
};

export type MemoryConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): MemoryConfig {
  return loadConfig(configSchema, source);
}
