/** BENCH_ONLY=a,b (every benchmark here): only the pictures whose name holds one of these parts. */
const PARTS = process.env.BENCH_ONLY?.split(',');

/** Whether only some pictures are run (figures of a subset are not compared with the committed ones). */
export const subsetOnly = PARTS !== undefined;

export function isSelected(name: string): boolean {
  return !PARTS || PARTS.some((part) => name.includes(part));
}
