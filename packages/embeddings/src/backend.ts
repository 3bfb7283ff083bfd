import type { Embedder } from './embedder.ts';
import { GloveEmbedder } from './glove/glove-embedder.ts';
import { HashEmbedder } from './hash-embedder.ts';

export const BACKENDS = ['glove', 'hash'] as const;
export type BackendName = (typeof BACKENDS)[number];

/** An embedder as a server describes it: which backend runs it, where, and whether it normalises. */
export interface EmbeddingBackend extends Embedder {
  readonly backend: BackendName;
  /** Where the model runs: "cpu" for both backends today. */
  readonly device: string;
  /** True when every vector has unit length. */
  readonly normalized: boolean;
}

export interface BackendOptions {
  backend: BackendName;
  /** Where GloVe's compact vector file is built on first start and loaded afterwards. */
  cacheDir: string;
}

/** Loads the configured backend: the same models memory-api runs in process. */
export async function openBackend(options: BackendOptions): Promise<EmbeddingBackend> {
  const embedder: Embedder =
    options.backend === 'hash' ? new HashEmbedder(64) : await GloveEmbedder.open({ cacheDir: options.cacheDir });
  return Object.assign(embedder, { backend: options.backend, device: 'cpu', normalized: true });
}
