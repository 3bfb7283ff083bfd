/**
 * Boundary walking on a binary mask. Loops run along pixel corners with the inside on the right
 * (y points down), so outer outlines come out clockwise on screen and holes anticlockwise: the
 * non-zero fill rule then leaves holes empty. At a corner shared only diagonally, the walk turns
 * towards the inside pixel it is following, which treats the shape as 4-connected.
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

// Directions: 0 right, 1 down, 2 left, 3 up (turning right adds one).
const DX = [1, 0, -1, 0] as const;
const DY = [0, 1, 0, -1] as const;

/**
 * Returns each loop as flat [x0, y0, x1, y1, ...] of the corners where the direction changes,
 * in image coordinates. The first vertex is always a true corner.
 */
export function traceLoops(mask: Mask): Int32Array[] {
  const { width: w, height: h, bits, offsetX, offsetY } = mask;
  const inside = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < w && y < h && bits[y * w + x] === 1;
  // One flag per pixel: its top edge has been walked. Every loop has at least one such edge.
  const walkedTop = new Uint8Array(w * h);
  const markWalked = (index: number): void => {
    walkedTop[index] = 1;
  };
  const loops: Int32Array[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const index = y * w + x;
      if (bits[index] !== 1 || walkedTop[index] === 1 || (y > 0 && bits[index - w] === 1)) continue;
      loops.push(walkLoop(inside, markWalked, w, x, y, offsetX, offsetY));
    }
  }
  return loops;
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
 * Loops of the region of pixels with lo <= position < hi, found from the candidate list instead of
 * a scan of the bounding box: the cost follows the outline, not the area. `stamp` must differ from
 * every stamp used before on the same index.
 */
export function traceRegionLoops(index: RegionIndex, lo: number, hi: number, stamp: number): Int32Array[] {
  const { width: w, height: h, position, candidates, candidateStart, walkedBy } = index;
  const inside = (x: number, y: number): boolean => {
    if (x < 0 || y < 0 || x >= w || y >= h) return false;
    const p = position[y * w + x]!;
    return p >= lo && p < hi;
  };
  const markWalked = (pixel: number): void => {
    walkedBy[pixel] = stamp;
  };
  const loops: Int32Array[] = [];
  for (let k = candidateStart[lo]!; k < candidateStart[hi]!; k++) {
    let pixel = candidates[k]!;
    if (walkedBy[pixel] === stamp) continue;
    const y = (pixel / w) | 0;
    let x = pixel - y * w;
    if (inside(x, y - 1)) continue;
    // Start at the left end of this top edge run, which is a corner of the loop.
    while (x > 0 && inside(x - 1, y) && !inside(x - 1, y - 1)) {
      x--;
      pixel--;
    }
    if (walkedBy[pixel] === stamp) continue;
    loops.push(walkLoop(inside, markWalked, w, x, y, 0, 0));
  }
  return loops;
}

/** Walks one loop from the top-left corner of pixel (x, y), heading right; returns its corners. */
function walkLoop(
  inside: (x: number, y: number) => boolean,
  markWalked: (pixel: number) => void,
  w: number,
  x: number,
  y: number,
  offsetX: number,
  offsetY: number,
): Int32Array {
  const vertices: number[] = [x + offsetX, y + offsetY];
  let vx = x;
  let vy = y;
  let dir = 0;
  for (;;) {
    if (dir === 0) markWalked(vy * w + vx);
    vx += DX[dir]!;
    vy += DY[dir]!;
    const next = nextDirection(inside, vx, vy, dir);
    if (vx === x && vy === y) break;
    if (next !== dir) {
      vertices.push(vx + offsetX, vy + offsetY);
      dir = next;
    }
  }
  return Int32Array.from(vertices);
}

export function nextDirection(inside: (x: number, y: number) => boolean, vx: number, vy: number, dir: number): number {
  // The two pixels ahead of the vertex, seen from the walking direction.
  let aheadLeft: boolean;
  let aheadRight: boolean;
  switch (dir) {
    case 0:
      aheadLeft = inside(vx, vy - 1);
      aheadRight = inside(vx, vy);
      break;
    case 1:
      aheadLeft = inside(vx, vy);
      aheadRight = inside(vx - 1, vy);
      break;
    case 2:
      aheadLeft = inside(vx - 1, vy);
      aheadRight = inside(vx - 1, vy - 1);
      break;
    default:
      aheadLeft = inside(vx - 1, vy - 1);
      aheadRight = inside(vx, vy - 1);
  }
  if (!aheadRight) return (dir + 1) & 3;
  if (aheadLeft) return (dir + 3) & 3;
  return dir;
}
