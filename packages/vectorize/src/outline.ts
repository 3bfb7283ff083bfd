/**
 * Boundary walking on a grid of values: a region is the pixels whose value v has lo <= v < hi.
 * Loops run along pixel corners with the inside on the right (y points down), so outer outlines come
 * out clockwise on screen and holes anticlockwise: the non-zero fill rule then leaves holes empty.
 * At a corner shared only diagonally, the walk turns towards the inside pixel it is following,
 * which treats the shape as 4-connected.
 *
 * One walker serves the colour engine (positions in a merge forest), binary masks and pixel-exact
 * regions (labels). It is a plain function over typed arrays, writing corners into one reused
 * buffer: no closure per region (a new call target per region kept V8 from inlining the inside
 * test), no array of boxed numbers per loop.
 */

/** A mask over a window of the image; `offsetX/offsetY` place the window in image coordinates. */
export interface Mask {
  width: number;
  height: number;
  offsetX: number;
  offsetY: number;
  /** 1 = inside, 0 = outside; width × height entries. */
  bits: Uint8Array;
}

type Grid = Int32Array | Uint8Array;

/** Receives each loop as it is walked: the first `length` numbers of `corners` (x0, y0, x1, y1, ...). */
export interface LoopSink {
  addLoop(corners: Int32Array, length: number): void;
}

let corners = new Int32Array(4096);

/** The buffer `walkLoop` wrote its corners to (valid until the next walk). */
export function loopCorners(): Int32Array {
  return corners;
}

function inside(grid: Grid, w: number, h: number, lo: number, hi: number, x: number, y: number): boolean {
  if (x < 0 || y < 0 || x >= w || y >= h) return false;
  const v = grid[y * w + x]!;
  return v >= lo && v < hi;
}

/**
 * Walks one loop from the top-left corner of pixel (x0, y0), heading right, and writes the corners
 * where the direction changes to `loopCorners()` as x0, y0, x1, y1, ...; returns how many numbers.
 * Every pixel whose top edge the walk follows gets `stamp` in `walked`.
 */
export function walkLoop(
  grid: Grid,
  w: number,
  h: number,
  lo: number,
  hi: number,
  x0: number,
  y0: number,
  walked: Int32Array,
  stamp: number,
): number {
  let out = corners;
  let n = 0;
  out[n++] = x0;
  out[n++] = y0;
  let vx = x0;
  let vy = y0;
  // Directions: 0 right, 1 down, 2 left, 3 up (turning right adds one).
  let dir = 0;
  for (;;) {
    if (dir === 0) {
      walked[vy * w + vx] = stamp;
      vx++;
    } else if (dir === 1) vy++;
    else if (dir === 2) vx--;
    else vy--;
    // The two pixels ahead of the vertex, seen from the walking direction.
    let aheadLeft: boolean;
    let aheadRight: boolean;
    if (dir === 0) {
      aheadLeft = inside(grid, w, h, lo, hi, vx, vy - 1);
      aheadRight = inside(grid, w, h, lo, hi, vx, vy);
    } else if (dir === 1) {
      aheadLeft = inside(grid, w, h, lo, hi, vx, vy);
      aheadRight = inside(grid, w, h, lo, hi, vx - 1, vy);
    } else if (dir === 2) {
      aheadLeft = inside(grid, w, h, lo, hi, vx - 1, vy);
      aheadRight = inside(grid, w, h, lo, hi, vx - 1, vy - 1);
    } else {
      aheadLeft = inside(grid, w, h, lo, hi, vx - 1, vy - 1);
      aheadRight = inside(grid, w, h, lo, hi, vx, vy - 1);
    }
    const next = !aheadRight ? (dir + 1) & 3 : aheadLeft ? (dir + 3) & 3 : dir;
    // Done when about to leave the start heading right again. Merely passing the start is not
    // enough: when it is a corner shared diagonally with another part of the outline (two holes
    // touching at a corner), the loop runs through it once before it closes; stopping there left
    // the rest to a second loop around both parts, which covered the first part twice and painted
    // one hole under the non-zero rule.
    if (vx === x0 && vy === y0 && next === 0) break;
    if (next !== dir) {
      if (n + 2 > out.length) {
        const bigger = new Int32Array(2 * out.length);
        bigger.set(out);
        corners = out = bigger;
      }
      out[n++] = vx;
      out[n++] = vy;
      dir = next;
    }
  }
  return n;
}

/**
 * Hands each loop of a mask to `sink` as the corners where the direction changes, in image
 * coordinates. The first vertex is always a true corner.
 */
export function traceLoops(mask: Mask, sink: LoopSink): void {
  const { width: w, height: h, bits, offsetX, offsetY } = mask;
  // Per pixel: 1 once its top edge has been walked. Every loop has at least one such edge.
  const walked = new Int32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const index = y * w + x;
      if (bits[index] !== 1 || walked[index] === 1 || (y > 0 && bits[index - w] === 1)) continue;
      const n = walkLoop(bits, w, h, 1, 2, x, y, walked, 1);
      const loop = corners;
      for (let k = 0; k < n; k += 2) {
        loop[k]! += offsetX;
        loop[k + 1]! += offsetY;
      }
      sink.addLoop(loop, n);
    }
  }
}

/**
 * Pixels grouped into regions by a number per pixel (`position`, -1 = none), with the pixels whose
 * upper neighbour belongs to another cluster listed per position: every loop starts at one of them.
 */
export interface RegionIndex {
  width: number;
  height: number;
  position: Int32Array;
  /** Candidate pixels for positions [p, p + 1) are candidates[candidateStart[p] .. candidateStart[p + 1]). */
  candidates: Int32Array;
  candidateStart: Int32Array;
  /** Scratch: per pixel, the last region whose walk crossed its top edge. */
  walkedBy: Int32Array;
}

/**
 * Hands each loop of the region of pixels with lo <= position < hi to `sink`, found from the
 * candidate list instead of a scan of the bounding box: the cost follows the outline, not the
 * area. `stamp` must differ from every stamp used before on the same index.
 */
export function traceRegionLoops(index: RegionIndex, lo: number, hi: number, stamp: number, sink: LoopSink): void {
  const { width: w, height: h, position, candidates, candidateStart, walkedBy } = index;
  const end = candidateStart[hi]!;
  for (let k = candidateStart[lo]!; k < end; k++) {
    let pixel = candidates[k]!;
    if (walkedBy[pixel] === stamp) continue;
    const y = (pixel / w) | 0;
    let x = pixel - y * w;
    if (inside(position, w, h, lo, hi, x, y - 1)) continue;
    // Start at the left end of this top edge run, which is a corner of the loop.
    while (x > 0 && inside(position, w, h, lo, hi, x - 1, y) && !inside(position, w, h, lo, hi, x - 1, y - 1)) {
      x--;
      pixel--;
    }
    if (walkedBy[pixel] === stamp) continue;
    const n = walkLoop(position, w, h, lo, hi, x, y, walkedBy, stamp);
    sink.addLoop(corners, n);
  }
}
