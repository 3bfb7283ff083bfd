import type { EmbedPurpose } from '../embedder.ts';

/** The text put before a question and before a stored text (`query: `, `passage: `; '' for none). */
export type Prefixes = Record<EmbedPurpose, string>;

/**
 * What the onnx model and its thread share: `embed` puts the purpose's prefix before each text and
 * hands them to `embedPrefixed`, which the embedder service also calls directly after prefixing
 * each call's texts (`prefixed`), so that calls of both purposes run in one batch.
 */
export abstract class PrefixingEmbedder {
  constructor(readonly prefixes: Prefixes) {}

  /** The texts with the prefix of this purpose before each (the same array where it is empty). */
  prefixed(texts: readonly string[], purpose: EmbedPurpose): readonly string[] {
    const prefix = this.prefixes[purpose];
    return prefix ? texts.map((text) => prefix + text) : texts;
  }

  embed(texts: readonly string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    return this.embedPrefixed(this.prefixed(texts, purpose));
  }

  /** Embeds texts that already carry their prefix. */
  abstract embedPrefixed(texts: readonly string[]): Promise<Float32Array[]>;
}
