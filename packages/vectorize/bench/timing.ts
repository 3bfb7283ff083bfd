import { median } from '@trove/stats';

export interface Timed<T> {
  /** Median milliseconds over the measured rounds. */
  ms: number;
  /** What the last round returned. */
  out: T;
}

/**
 * Times two sides on one input, interleaved round by round (machine load hits both alike), after
 * one unmeasured round each that warms caches for this input. Small inputs get more rounds (about
 * 150 ms per side, at most 60), so one garbage collection cannot decide a median. Used by the real
 * set and the OCR pictures alike (the OCR benchmark had a fixed 5 rounds).
 */
export function timeInterleaved<A, B>(ours: () => A, theirs: () => B, rounds: number): [Timed<A>, Timed<B>] {
  const clock = <T>(run: () => T): [T, number] => {
    const start = performance.now();
    const out = run();
    return [out, performance.now() - start];
  };
  let [oursOut, a] = clock(ours);
  let [theirsOut, b] = clock(theirs);
  const planned = Math.max(rounds, Math.min(60, Math.ceil(150 / Math.max(a, b, 0.01))));
  const oursMs: number[] = [];
  const theirsMs: number[] = [];
  for (let round = 0; round < planned; round++) {
    [oursOut, a] = clock(ours);
    [theirsOut, b] = clock(theirs);
    oursMs.push(a);
    theirsMs.push(b);
  }
  return [
    { ms: median(oursMs), out: oursOut },
    { ms: median(theirsMs), out: theirsOut },
  ];
}
