/**
 * Textbook Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5) / (df + 0.5))), the baseline the
 * quality benchmark compares every strategy with. Self-contained on purpose: it shares no code
 * with the service, only the tokeniser (terms are whatever `tokens` returns; the benchmark passes
 * Postgres's English stemmer and stop words, so both sides see the same words).
 */
export class Bm25Baseline {
  private readonly docs: { id: string; tf: Map<string, number>; length: number }[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  constructor(
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {}

  add(id: string, terms: string[]): void {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.docs.push({ id, tf, length: terms.length });
    this.totalLength += terms.length;
  }

  /** Ids best first (ties: the earlier document first), documents that share no term left out. */
  search(terms: string[], k: number): string[] {
    const n = this.docs.length;
    const avgdl = this.totalLength / Math.max(1, n);
    const unique = [...new Set(terms)];
    const idf = unique.map((t) => {
      const df = this.df.get(t) ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    const scored: { id: string; score: number; order: number }[] = [];
    this.docs.forEach((d, order) => {
      let score = 0;
      unique.forEach((t, i) => {
        const tf = d.tf.get(t);
        if (!tf) return;
        score +=
          ((idf[i] as number) * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * d.length) / avgdl));
      });
      if (score > 0) scored.push({ id: d.id, score, order });
    });
    scored.sort((x, y) => y.score - x.score || x.order - y.order);
    return scored.slice(0, k).map((s) => s.id);
  }
}

interface Sql {
  query<T>(text: string, params: unknown[]): Promise<T[]>;
}

/** The baseline's terms: Postgres's English parser, stemmer and stop words, as the service uses. */
export const stemmedTerms =
  (sql: Sql) =>
  async (text: string): Promise<string[]> =>
    (
      await sql.query<{ lexeme: string; n: number }>(
        `SELECT lexeme, cardinality(positions) AS n FROM unnest(to_tsvector('english', $1::text))`,
        [text],
      )
    ).flatMap((r) => Array.from({ length: Number(r.n) }, () => r.lexeme));
