import { printedInteger } from './path-text.ts';
import { int32Scratch } from './scratch.ts';

/**
 * The order in which svg.ts writes one colour's 1-px runs (strokes). Each run is reached by a
 * relative move from where the previous one ended, so the order decides how long the moves are:
 * in raster order, specks on an anti-aliased curve or along two letters' edges alternate between
 * far-apart places on the same rows ("m-190 9"). Nearest first (from where the last run ended, the
 * run whose move prints shortest) made the real set's diagrams 8 % and its screenshots 6-8 %
 * smaller; striped raster order (16-px bands, alternating direction) got about half of that on
 * text. Runs of one colour form one stroked path, whose parts are painted as one shape, so the
 * order changes nothing in the render.
 */

/** Side of the square cells runs are bucketed in by start pixel, for the nearest-run search. */
const CELL = 16;
/** The shortest a move can print ("m5 3", "m5-3"): a run found at that needs no further search. */
const SHORTEST_MOVE = 3;
/** Up to this many runs every one left is compared, without a grid. */
const FEW_RUNS = 16;
/**
 * Rings of cells searched at most. Further off, any run is a long move of about the same length,
 * and searching ever wider rings for the last scattered specks of a colour took longer than
 * tracing; the first run left in the given order is taken instead. On the OCR pictures 16-px cells
 * and one ring cost about 1 ms a page, for 6 % fewer bytes; two rings, 0.3 % fewer again for half
 * as much time more.
 */
const MAX_RING = 1;

/** Characters of a relative move by (dx, dy) after the letter: no separator before a minus sign. */
function moveLength(dx: number, dy: number): number {
  return printedInteger(dx) + printedInteger(dy) + (dy < 0 ? 0 : 1);
}

/** Whether a run `length`/`distance` away beats the best so far: shorter move, then nearer, then earlier. */
function nearer(
  length: number,
  distance: number,
  index: number,
  bestLength: number,
  bestDistance: number,
  bestIndex: number,
): boolean {
  if (length !== bestLength) return length < bestLength;
  return distance !== bestDistance ? distance < bestDistance : index < bestIndex;
}

/**
 * Runs by index in `runs` (x0, y0, x1, y1 per run: first and last pixel), in the order to write
 * them: the first run first, then each time the not yet written run whose start is the shortest
 * move from the last one's end (ties: the nearer, then the earlier), searched ring by ring of
 * cells; a ring that holds a move of the shortest length ends the search, and with none within
 * MAX_RING rings the first run left is next.
 */
export function nearestFirstOrder(runs: Int32Array, count: number): Int32Array {
  const order = int32Scratch('run order', count);
  if (count <= FEW_RUNS) return fewRunsOrder(runs, count, order);
  // The grid covers the runs' starts only: most colours of a page are a few specks in one place.
  let left = runs[0]!;
  let top = runs[1]!;
  let right = left;
  let bottom = top;
  for (let i = 1; i < count; i++) {
    left = Math.min(left, runs[4 * i]!);
    right = Math.max(right, runs[4 * i]!);
    top = Math.min(top, runs[4 * i + 1]!);
    bottom = Math.max(bottom, runs[4 * i + 1]!);
  }
  const columns = Math.floor((right - left) / CELL) + 1;
  const rows = Math.floor((bottom - top) / CELL) + 1;
  // Runs bucketed by the cell of their start pixel: a cell's live runs are the first cellCount of
  // its slots (a taken run swaps places with the cell's last live one).
  const cellOf = int32Scratch('run order cells', count);
  const cellStart = int32Scratch('run order cell starts', columns * rows + 1).fill(0);
  for (let i = 0; i < count; i++) {
    const c = Math.floor((runs[4 * i + 1]! - top) / CELL) * columns + Math.floor((runs[4 * i]! - left) / CELL);
    cellOf[i] = c;
    cellStart[c + 1]!++;
  }
  for (let c = 0; c < columns * rows; c++) cellStart[c + 1]! += cellStart[c]!;
  const cellCount = int32Scratch('run order cell counts', columns * rows).fill(0);
  const slots = int32Scratch('run order slots', count);
  const slotOf = int32Scratch('run order slot of run', count);
  for (let i = 0; i < count; i++) {
    const c = cellOf[i]!;
    const slot = cellStart[c]! + cellCount[c]!++;
    slots[slot] = i;
    slotOf[i] = slot;
  }
  const taken = int32Scratch('run order taken', count).fill(0);
  let firstLeft = 0;
  let current = 0;
  for (let n = 0; n < count; n++) {
    if (n > 0) current = nearestRun(runs, current, left, top, columns, rows, cellStart, cellCount, slots);
    if (current < 0) {
      while (taken[firstLeft]) firstLeft++;
      current = firstLeft;
    }
    order[n] = current;
    taken[current] = 1;
    const c = cellOf[current]!;
    const lastSlot = cellStart[c]! + --cellCount[c]!;
    const moved = slots[lastSlot]!;
    const freed = slotOf[current]!;
    slots[freed] = moved;
    slotOf[moved] = freed;
  }
  return order;
}

/** nearestFirstOrder for a few runs: every run left is a candidate, no grid. */
function fewRunsOrder(runs: Int32Array, count: number, order: Int32Array): Int32Array {
  for (let i = 0; i < count; i++) order[i] = i;
  for (let n = 1; n < count; n++) {
    const x = runs[4 * order[n - 1]! + 2]!;
    const y = runs[4 * order[n - 1]! + 3]!;
    let pick = n;
    let pickLength = 0;
    let pickDistance = 0;
    for (let k = n; k < count; k++) {
      const i = order[k]!;
      const dx = runs[4 * i]! - x;
      const dy = runs[4 * i + 1]! - y;
      const length = moveLength(dx, dy);
      const distance = Math.abs(dx) + Math.abs(dy);
      if (k === n || nearer(length, distance, i, pickLength, pickDistance, order[pick]!)) {
        pick = k;
        pickLength = length;
        pickDistance = distance;
      }
    }
    const chosen = order[pick]!;
    order[pick] = order[n]!;
    order[n] = chosen;
  }
  return order;
}

/** The live run whose start is the shortest move from where run `from` ends, within MAX_RING rings; -1 if none. */
function nearestRun(
  runs: Int32Array,
  from: number,
  left: number,
  top: number,
  columns: number,
  rows: number,
  cellStart: Int32Array,
  cellCount: Int32Array,
  slots: Int32Array,
): number {
  const x = runs[4 * from + 2]!;
  const y = runs[4 * from + 3]!;
  // The end may lie outside the grid of starts (a run reaching right or down): clamp its cell.
  const cx = Math.min(columns - 1, Math.max(0, Math.floor((x - left) / CELL)));
  const cy = Math.min(rows - 1, Math.max(0, Math.floor((y - top) / CELL)));
  // The slot of the best run so far.
  let best = -1;
  let bestLength = 0;
  let bestDistance = 0;
  // Rings of cells around the end, out to the first ring with a live run and one more (a run in
  // the next ring may still print shorter), at most MAX_RING.
  let lastRing = MAX_RING;
  for (let ring = 0; ring <= lastRing; ring++) {
    const y0 = Math.max(0, cy - ring);
    const y1 = Math.min(rows - 1, cy + ring);
    for (let gy = y0; gy <= y1; gy++) {
      const edge = gy === cy - ring || gy === cy + ring;
      const step = edge || ring === 0 ? 1 : 2 * ring;
      for (let gx = cx - ring; gx <= cx + ring; gx += step) {
        if (gx < 0 || gx >= columns) continue;
        const c = gy * columns + gx;
        const end = cellStart[c]! + cellCount[c]!;
        for (let s = cellStart[c]!; s < end; s++) {
          const dx = runs[4 * slots[s]!]! - x;
          const dy = runs[4 * slots[s]! + 1]! - y;
          const length = moveLength(dx, dy);
          const distance = Math.abs(dx) + Math.abs(dy);
          if (best < 0 || nearer(length, distance, slots[s]!, bestLength, bestDistance, slots[best]!)) {
            best = s;
            bestLength = length;
            bestDistance = distance;
          }
        }
      }
    }
    if (best >= 0 && bestLength === SHORTEST_MOVE) break;
    if (best >= 0 && lastRing > ring + 1) lastRing = ring + 1;
  }
  return best < 0 ? -1 : slots[best]!;
}
