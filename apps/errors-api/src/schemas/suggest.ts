/**
 * Error messages that teach: a value outside a fixed set is answered with the allowed values and,
 * when one is close, the one the caller probably meant.
 */

/** Edit distance where swapping two neighbouring letters counts once ("levle" is one step from "level"). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The allowed value nearest to `given`, if it is near enough to be a slip (a third of its letters at most). */
export function closest(given: string, allowed: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  // A cut-short name ("cooldown" for "cooldown_seconds") is a slip too.
  const prefixed = lower.length >= 3 ? allowed.filter((v) => v.toLowerCase().startsWith(lower)) : [];
  if (prefixed.length === 1) return prefixed[0];
  let best: { value: string; d: number } | undefined;
  for (const value of allowed) {
    const d = distance(lower, value.toLowerCase());
    if (!best || d < best.d) best = { value, d };
  }
  if (!best || best.d > Math.max(1, Math.floor(best.value.length / 3))) return undefined;
  return best.value;
}

/** `"eror" is not allowed: did you mean "error"? Allowed: fatal, error, …` */
export function notAllowed(field: string, given: string, allowed: readonly string[], what = 'value'): string {
  const near = closest(given, allowed);
  const hint = near ? ` Did you mean "${near}"?` : '';
  return `${field}: ${what} ${JSON.stringify(given.slice(0, 100))} is not allowed.${hint} Allowed: ${allowed.join(', ')}`;
}
