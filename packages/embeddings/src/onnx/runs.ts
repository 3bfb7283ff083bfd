/**
 * Splits a batch, sorted by token count, into model runs: [start, end) ranges. Every text of a run
 * is padded to the run's longest, and on the CPU the model's work grows with padded tokens, so a
 * run ends where its padding would pass `slack` times its real tokens (for 32 texts of 8-26 tokens
 * padded to the longest, a third of the work was padding). On a GPU a run's fixed cost outweighs
 * padding: slack Infinity keeps the batch whole. No run passes maxTokens padded tokens, which
 * bounds onnxruntime's buffers.
 */
export function planRuns(lengths: readonly number[], maxTokens: number, slack: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = 0;
  while (start < lengths.length) {
    let real = lengths[start] as number;
    let end = start + 1;
    for (; end < lengths.length; end++) {
      const longest = lengths[end] as number;
      const padded = (end - start + 1) * longest;
      if (padded > maxTokens || padded > (real + longest) * (1 + slack)) break;
      real += longest;
    }
    runs.push([start, end]);
    start = end;
  }
  return runs;
}
